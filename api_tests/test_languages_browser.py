"""The pages in Danish, Swedish and Dutch in Chromium at 1280×800 (issue 36, item 4): each page
in its language with axe-core at nothing serious, a screenshot of each, and the tablet's
plurals picked by the browser's CLDR rule as the service's Babel picks them."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.auth.guard import CSRF_HEADER
from adjudicator.messages import plural_category
from adjudicator.pages.strings import fill, strings
from api_tests.browser import expect, serious_violations, shot
from api_tests.conftest import (
    director_login,
    director_page_login,
    pair_tablet,
    start_tournament,
)

pytestmark = pytest.mark.slow  # a browser and a server: left out of `make test-quick`

PASSWORD = "correct horse battery"
SCREEN = {"width": 1280, "height": 800}
KIOSKS = {"da": "dsf-2015", "sv": "ssf-1999", "nl": "sbnl-punten"}
RECORDS = Path(__file__).parents[1] / "adjudicator" / "game" / "tests" / "records"


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    """A tournament with a director, and a ruling under each language's ruleset."""
    folder = tmp_path_factory.mktemp("languages")
    srv = start_tournament(folder, PASSWORD, ADJUDICATOR_TRUSTED_PROXIES="1")
    director = director_login(srv, "anna", PASSWORD, {CSRF_HEADER: "test"})
    for lang, ruleset in KIOSKS.items():
        tablet = pair_tablet(srv, director, f"Bord {lang}", ruleset)
        body = {"words": ["kat", "qxzv"]}
        if ruleset == "sbnl-punten":
            body |= {"player": "Jan", "game": "1"}
        answer = tablet.post(
            srv.api(f"/rulesets/{ruleset}/challenge"),
            json=body,
            headers={"X-Requested-With": "judge"},
            timeout=10,
        )
        assert answer.status_code in (200, 400), answer.text
    yield srv
    srv.stop()


def login(page, server, lang: str) -> None:
    director_page_login(page, server, PASSWORD, lang)


@pytest.mark.parametrize("lang", list(KIOSKS))
def test_the_pages_in_each_language(browser_context, event, lang):
    page = browser_context(SCREEN)
    t = strings(lang)
    seen = {
        "landing": "/",
        "setup": "/judge/",
        "pair": "/judge/pair",
    }
    for name, path in seen.items():
        page.goto(f"{event.url}{path}?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        shot(page, f"60-{lang}-{name}")
        assert serious_violations(page) == [], (lang, name)
    page.goto(f"{event.url}/")
    login(page, event, lang)
    for name, path in {"home": "/director/", "rulings": "/director/rulings"}.items():
        page.goto(f"{event.url}{path}?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        shot(page, f"61-{lang}-{name}")
        assert serious_violations(page) == [], (lang, name)
    # A consequence in the director's language, whatever language its ruleset has.
    cells = page.locator("#rulings td.consequence").all_inner_texts()
    assert cells and not any("The " in c or "the " in c for c in cells), cells
    # A record checked: the board's labels in the page's language.
    page.goto(f"{event.url}/director/games?lang={lang}")
    page.select_option("#check-ruleset", KIOSKS[lang])
    page.fill("#check-record", (RECORDS / f"{KIOSKS[lang]}.gcg").read_text("utf-8"))
    page.click("#check-form button[type=submit]")
    expect(page.locator("#game")).to_be_visible()
    labels = set(page.locator("svg.board text[text-anchor=middle]").all_text_contents())
    assert t["board_3w"] in labels and t["board_2l"] in labels
    shot(page, f"62-{lang}-check")
    assert serious_violations(page) == [], (lang, "check")
    # An unknown address under /director/: a page in the language, not JSON.
    page.goto(f"{event.url}/director/no-such-page?lang={lang}")
    assert page.locator("html").get_attribute("lang") == lang
    expect(page.locator("#error-message")).to_have_text(t["dir_error_not_found"])


@pytest.mark.parametrize("lang", list(KIOSKS))
def test_the_tablets_plurals_follow_cldr(browser_context, event, lang):
    """The kiosk's script picks each plural form by the browser's Intl.PluralRules, from the
    catalogue's forms: for every count it agrees with Babel, and so with the server's pages."""
    page = browser_context(SCREEN)
    page.goto(f"{event.url}/judge/{KIOSKS[lang]}")
    expect(page.locator("body[data-ready]")).to_have_count(1)
    shot(page, f"63-{lang}-kiosk")
    assert serious_violations(page) == [], (lang, "kiosk")
    counts = list(range(0, 202))
    browser = page.evaluate(
        "([lang, counts]) => counts.map((n) => new Intl.PluralRules(lang).select(n))",
        [lang, counts],
    )
    assert browser == [plural_category(lang, n) for n in counts]
    said = page.evaluate(
        """async (counts) => {
             const m = await import('/judge/static/config.js');
             return counts.map((n) => m.fmt(m.t.jury_remaining, { n }));
           }""",
        [0, 1, 2, 21],
    )
    assert said == [fill(strings(lang)["jury_remaining"], n=n) for n in (0, 1, 2, 21)]
