"""The validate endpoint in process: legality, scores, notation, disclosure, bad input."""

from __future__ import annotations

import pytest

from adjudicator import create_app
from adjudicator.tests.conftest import build_lexicon

URL = "/api/v1/rulesets/{}/moves/validate"
EMPTY = ["." * 15] * 15


def board_with(*placements: tuple[int, int, str]) -> list[str]:
    """Rows with words laid across: (row, col, letters), 0-based."""
    rows = [list(r) for r in EMPTY]
    for row, col, letters in placements:
        for i, ch in enumerate(letters):
            rows[row][col + i] = ch
    return ["".join(r) for r in rows]


def validate(client, ruleset, **body):
    return client.post(URL.format(ruleset), json=body)


def test_first_play_scores_with_swedish_values(client):
    # H=2, E=1, J=7 (docs/rules.md §2.2) = 10; the centre doubles: 20.
    r = validate(client, "ssf-1999", play="8H HEJ", rack="HEJABCD")
    assert r.status_code == 200
    body = r.json
    assert body["legal"] is True and body["errors"] == []
    assert body["score"] == 20 and body["notation"] == "8H HEJ"
    assert body["ruling"] == "valid"
    assert [w["word"] for w in body["words"]] == ["HEJ"]
    assert "valid" not in body["words"][0]  # play policy


def test_danish_cafe_shares_elguitar_e(client):
    # ELGUITAR across row 8 from D8; CAFÉ down column D ending on its E (D8): C5 A6 F7 E8.
    board = board_with((7, 3, "ELGUITAR"))
    r = validate(client, "dsf-2015", board=board, play="D5 CAF.")
    body = r.json
    assert body["legal"] is True
    assert [(w["word"], w["valid"]) for w in body["words"]] == [("CAFE", True)]
    # Danish values (docs/rules.md §2.1): C 8 + A 1 + F 3 + E 1. D5, D6 and D7 are plain squares;
    # D8's double letter was used up by ELGUITAR. 13, where English values would give 9.
    assert body["score"] == body["words"][0]["score"] == 13
    assert body["notation"] == "D5 CAF."


def test_structured_tiles_equal_notation(client):
    tiles = [{"row": 7, "col": 7 + i, "letter": ch} for i, ch in enumerate("ORD")]
    a = validate(client, "ssf-1999", play={"tiles": tiles}).json
    b = validate(client, "ssf-1999", play="8H ORD").json
    for key in ("legal", "score", "notation", "words", "ruling"):
        assert a[key] == b[key]


def test_board_from_earlier_plays_equals_board_rows(client):
    a = validate(client, "ssf-1999", plays=["8H KATT"], play="H9 O").json
    b = validate(client, "ssf-1999", board=board_with((7, 7, "KATT")), play="H9 O").json
    assert a["score"] == b["score"] and a["words"] == b["words"]


def test_placement_errors_are_listed_with_codes(client):
    r = validate(client, "ssf-1999", play="1A HEJ", rack="XXXXXXX").json
    codes = {e["code"] for e in r["errors"]}
    assert r["legal"] is False
    assert {"centre-not-covered", "not-on-rack"} <= codes
    assert all(e["message"] for e in r["errors"])
    # no ruling, no score, no words for a play that cannot be made
    assert r["ruling"] is None and r["score"] is None and r["words"] == []
    assert r["bingo"] is False and r["notation"] == "1A HEJ"


@pytest.mark.parametrize("ruleset", ["ssf-1999", "dsf-2015"])
def test_illegal_play_of_an_invalid_word_gives_no_ruling(client, ruleset):
    """Under either policy: a phony that cannot be placed is neither ruled on nor scored."""
    body = validate(client, ruleset, play="1A QXZ").json
    assert body["legal"] is False and body["ruling"] is None and body["score"] is None
    assert body["words"] == [] and "QXZ" not in str(body["errors"])


def test_blank_only_letter_must_be_a_blank(client):
    r = validate(client, "ssf-1999", play="8H MÜSLI").json
    assert r["legal"] is False
    assert "blank-only-letter" in {e["code"] for e in r["errors"]}
    ok = validate(client, "ssf-1999", play="8H MüSLI").json
    assert ok["legal"] is True and ok["ruling"] == "valid"


@pytest.fixture
def two_lexicon_apps(tmp_path):
    """Two services on the same ruleset whose lexicons differ in which word is missing."""
    # Board: KATT at H8-K8. Play O at H9, M at I9 forms OM (main), KO and AM (cross-words).
    first_missing = build_lexicon(tmp_path / "a", "wswedish", "sv", ["katt", "ko", "am"])
    third_missing = build_lexicon(tmp_path / "b", "wswedish", "sv", ["katt", "om", "ko"])
    return [
        create_app({"TESTING": True, "LEXICON_DIR": str(d)}).test_client()
        for d in (first_missing, third_missing)
    ]


def test_play_policy_hides_which_word_failed(two_lexicon_apps):
    board = board_with((7, 7, "KATT"))
    responses = [validate(c, "ssf-1999", board=board, play="9H OM") for c in two_lexicon_apps]
    bodies = [r.json for r in responses]
    assert [w["word"] for w in bodies[0]["words"]] == ["OM", "KO", "AM"]
    assert bodies[0]["ruling"] == bodies[1]["ruling"] == "invalid"
    for body in bodies:
        body.pop("ruling_id")
        body.pop("lexicon")  # the two test lexicons differ in checksum, by construction
    assert bodies[0] == bodies[1]
    assert responses[0].status_code == responses[1].status_code == 200
    assert dict(responses[0].headers) == dict(responses[1].headers)


def test_word_policy_names_the_invalid_word(tmp_path):
    lexdir = build_lexicon(tmp_path, "wdanish", "da", ["kat", "ko"])
    client = create_app({"TESTING": True, "LEXICON_DIR": str(lexdir)}).test_client()
    body = validate(client, "dsf-2015", plays=["8H KAT"], play="9H OM").json
    assert [(w["word"], w["valid"]) for w in body["words"]] == [
        ("OM", False),
        ("KO", True),
        ("AM", False),
    ]


@pytest.mark.parametrize(
    "body, code, field",
    [
        ({}, "wrong_shape", "play"),
        ({"play": 5}, "wrong_shape", "play"),
        ({"play": "8Z HEJ"}, "bad_notation", "play"),
        ({"play": "8H HEJ", "rack": 7}, "wrong_shape", "rack"),
        ({"play": "8H HEJ", "board": ["..."]}, "bad_board", "board"),
        ({"play": "8H HEJ", "board": ["." * 15] * 14 + ["." * 14]}, "bad_board", "board[14]"),
        ({"play": "8H HEJ", "board": ["." * 15] * 14 + ["1" + "." * 14]}, "bad_board", "board[14]"),
        ({"play": "8H HEJ", "plays": ["1A HEJ"]}, "illegal_earlier_play", "plays[0]"),
        ({"play": "8H HEJ", "plays": "8H HEJ"}, "wrong_shape", "plays"),
        ({"play": "8H HEJ", "plays": [], "board": EMPTY}, "wrong_shape", "board"),
        ({"play": {"tiles": [{"row": 7}]}}, "wrong_shape", "play.tiles[0]"),
        (
            {"play": {"tiles": [{"row": "7", "col": 7, "letter": "A"}]}},
            "wrong_shape",
            "play.tiles[0]",
        ),
        (
            {"play": {"tiles": [{"row": 7, "col": 7, "letter": "A", "x": 1}]}},
            "unknown_field",
            "play.tiles[0]",
        ),
        ({"play": "8H HEJ", "extra": True}, "unknown_field", "extra"),
    ],
)
def test_bad_input(client, body, code, field):
    r = validate(client, "ssf-1999", **body)
    assert r.status_code == 400, r.json
    assert r.json["code"] == code
    assert r.json["field"] == field


def test_odd_tiles_never_500(client):
    for tiles in (
        [{"row": 99, "col": -3, "letter": "A"}],
        [{"row": 7, "col": 7, "letter": ""}],
        [{"row": 7, "col": 7, "letter": "AB"}],
        [{"row": 7, "col": 7, "letter": "%"}],
        [],
    ):
        r = validate(client, "ssf-1999", play={"tiles": tiles})
        assert r.status_code in (200, 400), (tiles, r.json)
