"""Move validation over real HTTP against the bundled lexicons."""

from __future__ import annotations

import pytest

EMPTY = ["." * 15] * 15


def url(server, ruleset):
    return server.api(f"/rulesets/{ruleset}/moves/validate")


@pytest.mark.parametrize(
    "ruleset, play, score",
    [
        ("ssf-1999", "8H HEJ", 20),  # sv H2 E1 J7 = 10, ×2 centre
        ("dsf-2015", "8H HEJ", 18),  # da H4 E1 J4 = 9, ×2
        ("sbnl-punten", "8H WOORD", 26),  # nl W5 O1 O1 R2 + D2 on L8 (double letter) = 13, ×2
        ("naspa", "8H WORD", 16),  # en W4 O1 R1 D2 = 8, ×2
        ("wespa", "H8 WORD", 16),
        ("dk-home", "8G HEJ", 18),
    ],
)
def test_scores_per_language(server, http, ruleset, play, score):
    r = http.post(url(server, ruleset), json={"play": play})
    assert r.status_code == 200
    body = r.json()
    assert body["legal"] is True, body["errors"]
    assert body["score"] == score
    assert body["notation"] == play
    assert body["ruling"] == "valid"


def test_play_policy_no_verdict_per_word(server, http):
    body = http.post(url(server, "ssf-1999"), json={"plays": ["8H HEJ"], "play": "9H OM"}).json()
    assert body["ruling"] in ("valid", "invalid")
    assert body["words"] and all("valid" not in w for w in body["words"])


def test_play_policy_same_response_whichever_word_fails(server, http):
    # The same play shape on two boards, one where the main word is bogus, one where a
    # cross-word is: the answers differ only in words and scores, never in verdict fields.
    a = http.post(url(server, "naspa"), json={"plays": ["8H CAT"], "play": "9H ZQ"}).json()
    b = http.post(url(server, "naspa"), json={"plays": ["8H CAT"], "play": "9H XI"}).json()
    assert a["ruling"] == b["ruling"] == "invalid"  # ZQ/CZ/AQ and XI/CX/AI: some word bogus
    assert set(a) == set(b)
    assert [set(w) for w in a["words"]] == [set(w) for w in b["words"]]


def test_word_policy_names_each_word(server, http):
    body = http.post(url(server, "dsf-2015"), json={"plays": ["8H HEJ"], "play": "9H QX"}).json()
    assert all("valid" in w for w in body["words"])


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"play": "8H"}, 400, "bad_notation"),
        ({"play": "8H HEJ", "board": EMPTY[:3]}, 400, "bad_board"),
        ({"play": {"tiles": [{"row": 7, "col": 7}]}}, 400, "wrong_shape"),
        ({"play": "8H HEJ", "plays": ["H1 XYZ"]}, 400, "illegal_earlier_play"),
        ({"board": EMPTY}, 400, "wrong_shape"),
    ],
)
def test_bad_input_over_http(server, http, body, status, code):
    r = http.post(url(server, "ssf-1999"), json=body)
    assert r.status_code == status
    assert r.json()["code"] == code


def test_illegal_play_is_answered_not_refused(server, http):
    body = http.post(url(server, "ssf-1999"), json={"play": "1A HEJ", "rack": "ABCDEFG"}).json()
    assert body["legal"] is False
    assert {e["code"] for e in body["errors"]} >= {"centre-not-covered", "not-on-rack"}
    assert body["ruling"] is None and body["score"] is None and body["words"] == []
