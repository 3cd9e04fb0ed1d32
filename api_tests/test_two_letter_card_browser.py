"""The two-letter card printed by Chromium (003 "een lijstje met tweeletterwoorden ligt op elke
speeltafel"): on A4 and on A5 every two-letter word of the lexicon is on one page, none clipped,
with the edition in the footer. The PDF is Chromium's own (`page.pdf`), read back with pypdf; the
boxes are the layout under print media, checked against the page's printable area."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from io import BytesIO

import pytest

from api_tests.conftest import start_server

pypdf = pytest.importorskip("pypdf")

# The printable area in CSS pixels (96 per inch): the paper less the margins of a4.css/a5.css.
MM = 96 / 25.4
PRINTABLE = {"a4": ((210 - 24) * MM, (297 - 24) * MM), "a5": ((148 - 16) * MM, (210 - 16) * MM)}


@pytest.fixture(scope="module")
def card_server(tmp_path_factory):
    """The bundled rulesets, with naspa asking for a public card too: English has the most
    two-letter words of the bundled lexicons, so it is the card that must still fit."""
    root = tmp_path_factory.mktemp("card")
    rules = root / "rules"
    rules.mkdir()
    naspa = resources.files("adjudicator") / "rulesets" / "naspa.toml"
    text = naspa.read_text("utf-8") + "\n[card]\ntwo_letter = true\npublic = true\n"
    (rules / "naspa.toml").write_text(text, encoding="utf-8")
    srv = start_server(root, ADJUDICATOR_RULESET_DIR=str(rules))
    yield srv
    srv.stop()


@pytest.mark.parametrize("ruleset", ["sbnl-punten", "naspa"])
@pytest.mark.parametrize("size", ["a4", "a5"])
def test_the_card_prints_on_one_page_with_no_word_clipped_003(browser, card_server, ruleset, size):
    page = browser.new_page()
    try:
        url = f"{card_server.url}/rulesets/{ruleset}/two-letter-card?size={size}"
        assert page.goto(url).status == 200
        words = page.locator(".card-words li").all_inner_texts()
        assert len(words) > 50, words
        footer = page.locator(".card-foot").inner_text()
        assert "sha256" in footer

        pdf = pypdf.PdfReader(BytesIO(page.pdf(format=size.upper(), prefer_css_page_size=True)))
        assert len(pdf.pages) == 1
        box = pdf.pages[0].mediabox
        paper = {"a4": (595, 842), "a5": (420, 595)}[size]  # points
        assert (round(float(box.width)), round(float(box.height))) == paper
        tokens = Counter(pdf.pages[0].extract_text().split())
        assert not Counter(words) - tokens, "words missing from the printed page"
        assert "sha256" in tokens

        # Under print media at the printable width, every word and the footer lie inside the
        # printable area: nothing is cut at the page's edge.
        width, height = PRINTABLE[size]
        page.emulate_media(media="print")
        page.set_viewport_size({"width": int(width), "height": int(height)})
        boxes = page.locator(".card-words li, .card-foot").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom, e.scrollWidth <= e.clientWidth]; })"
        )
        for left, top, right, bottom, fits in boxes:
            assert left >= 0 and top >= 0 and fits
            assert right <= width + 0.5 and bottom <= height + 0.5, (size, right, bottom)
    finally:
        page.close()
