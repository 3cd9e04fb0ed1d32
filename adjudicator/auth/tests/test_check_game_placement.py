"""Every placement error the engine knows is a rule deviation of a checked game (docs/rules.md
§5: DSF 2015 §3.3d, §4.2; SBNL Puntenscrabble, "Verloop van het spel"): counted, `ok: false`,
no word ruling for the play, and shown in the "Check a game" page's deviations panel in the
page's language. The codes are taken from the engine's own declaration (`ERROR_CODES`), so a
new code needs a record here, or a proof that no record can write it."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import escape

from adjudicator.engine.board import COLUMNS, SIZE, Board
from adjudicator.engine.notation import NotationError, parse_parts
from adjudicator.engine.placement import (
    DUPLICATE_SQUARE,
    ERROR_CODES,
    GAP,
    NOT_IN_LINE,
    UNKNOWN_LETTER,
    check_placement,
)
from adjudicator.engine.tiles import tile_letter, tileset
from adjudicator.pages.strings import strings
from adjudicator.rulesets import load_rulesets
from lexicon.languages import load_profile

from .conftest import add_director, form_csrf

RULESET = "dsf-2015"  # Danish: a set with blank-only letters (W) and single tiles (X)
HEAD = "#player1 ann Ann\n#player2 bob Bob\n"
KAT = ">ann: AEKRSTU 8G KAT +12 12\n"  # the first play: G8-I8, over the centre (H8)

# One record per code a record can write: the play on the last line has that error.
RECORDS: dict[str, str] = {
    "no-tiles": KAT + ">bob: AEHIJMN 8G ... +0 0\n",
    "too-many-tiles": ">ann: ABEKRST 8B ABEKRSTU +60 60\n",
    "off-board": ">ann: AEKRSTT 8L KATTE +14 14\n",
    "occupied": KAT + ">bob: ABEIJMN 8G B.. +10 10\n",
    "through-empty": ">ann: AEKRSTU 8G K.T +8 8\n",
    "through-mismatch": KAT + ">bob: AEHIJMN G8 (X)E +9 9\n",
    "blank-undesignated": ">ann: ?AEKRST 8G ?AT +4 4\n",
    "blank-only-letter": ">ann: WAEKRST 8G WAT +4 4\n",
    "centre-not-covered": ">ann: AEKRSTU 1A KAT +12 12\n",
    "too-few-tiles": ">ann: AEKRSTU 8H K +6 6\n",
    "not-touching": KAT + ">bob: AEHIJMN 1A HEJ +10 10\n",
    "too-many-of-letter": ">ann: AXXEKRS 8G XX +32 32\n",
    "too-many-blanks": ">ann: ???EKRS 8G kat +0 0\n",
    "bad-rack": ">ann: AEKRST1 8G KAT +12 12\n",
    "not-on-rack": ">ann: BCDEFGH 8G KAT +12 12\n",
}
# The codes no record can hold, each proved below: the notation (`8H WORD`) puts a play's
# squares one after the other in one line, and reads only letters of the language's set.
UNWRITABLE = {DUPLICATE_SQUARE, NOT_IN_LINE, GAP, UNKNOWN_LETTER}


def test_every_engine_error_code_has_a_record_or_cannot_be_written():
    assert set(RECORDS) | UNWRITABLE == set(ERROR_CODES)
    assert not set(RECORDS) & UNWRITABLE


def languages() -> list[str]:
    return sorted({r.language for r in load_rulesets().values()})


@pytest.mark.parametrize("language", languages())
def test_every_letter_the_notation_reads_is_a_letter_of_the_set(language):
    """`unknown-letter` cannot come from a record: a character the notation reads as a tile
    is always a letter of the language's set (the others are refused as notation)."""
    profile = load_profile(language)
    alphabet = tileset(profile).alphabet
    outside = [
        ch
        for ch in map(chr, range(0x110000))
        if not 0xD800 <= ord(ch) <= 0xDFFF
        and (letter := tile_letter(profile, ch)) is not None
        and letter not in alphabet
    ]
    assert outside == []


squares = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1))


@settings(max_examples=300, deadline=None)
@given(
    covered=st.dictionaries(squares, st.sampled_from("KAT"), max_size=40),
    start=squares,
    across=st.booleans(),
    word=st.text(st.sampled_from("KATkat?.()"), min_size=1, max_size=17),
)
def test_the_notation_never_writes_a_duplicate_square_a_gap_or_a_bent_line(
    covered, start, across, word
):
    profile = load_profile("da")
    board = Board()
    for (row, col), letter in covered.items():
        board.place(row, col, letter, False)
    row, col = start
    coordinate = f"{row + 1}{COLUMNS[col]}" if across else f"{COLUMNS[col]}{row + 1}"
    try:
        play = parse_parts(coordinate, word, profile, board)
    except NotationError:
        return
    codes = {e.code for e in check_placement(board, play, profile)}
    assert not codes & UNWRITABLE


# --- through games/verify and the page ---------------------------------------------------------


@pytest.fixture
def app(make_app):
    app = make_app(MODE="tournament")  # a director's check: the words are ruled on too
    add_director(app)
    return app


def verify(client, record: str) -> dict:
    response = client.post(
        f"/api/v1/rulesets/{RULESET}/games/verify",
        json={"gcg": HEAD + record},
        headers={"X-Requested-With": "t"},
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.json


def codes(turn: dict) -> list[str]:
    return [e["code"] for e in turn["placement_errors"]]


def test_games_verify_counts_each_placement_error_as_a_rule_deviation(director):
    for code, record in sorted(RECORDS.items()):
        report = verify(director, record)
        last = report["turns"][-1]
        assert code in codes(last), (code, last)
        assert report["ok"] is False and last["rule_ok"] is False, code
        assert report["rule_deviations"] >= len(last["placement_errors"]) >= 1, code
        for error in last["placement_errors"]:  # each counted, in English, as the API says it
            assert f"{error['code']}: {error['message']}" in last["deviations"], code
        assert not any(e.startswith(f"{code}:") for e in last["errors"]), code  # no score remark
        assert last["ruling"] is None, code  # a play that cannot be made is not ruled "valid"


def panel(html: str) -> str:
    found = re.search(r'<section class="deviations".*?</section>', html, re.S)
    assert found, html
    return found.group(0)


@pytest.mark.parametrize("language", ["en", "da", "sv", "nl"])
def test_the_page_shows_each_placement_error_in_its_language(director, language):
    t = strings(language)
    for code, record in sorted(RECORDS.items()):
        report = verify(director, record)
        page = director.post(
            f"/director/games?lang={language}",
            data={"csrf": _csrf(director, language), "ruleset": RULESET, "record": HEAD + record},
            content_type="multipart/form-data",
        )
        assert page.status_code == 200, page.get_data(as_text=True)
        html = page.get_data(as_text=True)
        shown = panel(html)
        assert t["dir_check_no_deviations"] not in html, code
        summary = re.search(r'<h2 id="game-title">(.*?)</h2>', html, re.S).group(1)
        assert str(report["rule_deviations"]) in summary, code
        last, k = report["turns"][-1], len(report["turns"])
        for error in last["placement_errors"]:
            key = "dir_check_placement_" + error["code"].replace("-", "_")
            text = t[key].format_map(
                {"square": error["square"] or "—", "letter": error["letter"] or "—", "most": 7}
            )
            item = (
                rf'<li><a href="#turn-{k}" data-turn="{k}">[^<]*</a> '
                rf"<span>{re.escape(str(escape(text)))}</span></li>"
            )
            assert re.search(item, shown), (code, text, shown)
            if language != "en":  # the English message is nowhere on the page
                assert str(escape(error["message"])) not in html, code
        row = re.search(rf'<tr id="turn-{k}" data-turn="{k}".*?</tr>', html, re.S).group(0)
        assert "deviates" in row and t["dir_verdict_valid"] not in row, code


def _csrf(client, language: str) -> str:
    return form_csrf(client.get(f"/director/games?lang={language}").get_data(as_text=True))


def test_every_placement_code_has_its_text_in_every_language():
    for language in ("en", "da", "sv", "nl"):
        t = strings(language)
        for code in ERROR_CODES:
            assert "dir_check_placement_" + code.replace("-", "_") in t, (language, code)
