"""Whole-game endpoints over real HTTP: final score, exchange allowed, draw order, verify; clear
errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.engine.tests import corpus

GCG = corpus.RECORDS  # the public records, with their SOURCES.md
RECORDS = Path(__file__).resolve().parents[1] / "adjudicator" / "game" / "tests" / "records"


def test_exchange_allowed_needs_7_in_bag_dsf_000_4_7b(server, http):
    yes = http.get(server.api("/rulesets/dsf-2015/exchange-allowed"), params={"bag": 7})
    assert yes.status_code == 200
    assert yes.json()["allowed"] is True and yes.json()["source"] == "000 §4.7b"
    no = http.get(server.api("/rulesets/dsf-2015/exchange-allowed"), params={"bag": 6}).json()
    assert no["allowed"] is False and no["code"] == "bag_too_small"


def test_exchange_allowed_sbnl_ruilregel_003(server, http):
    url = server.api("/rulesets/sbnl-punten/exchange-allowed")
    opening = {"bag": 80, "turn": 2, "exchanges_in_a_row": 1}
    assert http.get(url, params=opening).json()["code"] == "opening_turns"
    asked = http.get(url, params={"bag": 80, "turn": 2})  # was turn 1 a play or an exchange?
    assert asked.status_code == 400 and asked.json()["field"] == "exchanges_in_a_row"
    broken = http.get(url, params={"bag": 80, "turn": 3, "exchanges_in_a_row": 1})
    assert broken.json()["code"] == "previous_turn_placed_nothing"  # a play broke the run
    body = http.get(url, params={"bag": 30, "turn": 6, "previous_placed": "false"}).json()
    assert body["allowed"] is False and body["code"] == "previous_turn_placed_nothing"
    body = http.get(url, params={"bag": 15, "turn": 6, "previous_placed": "true"}).json()
    assert body["allowed"] is False and "16" in body["reason"]
    missing = http.get(url, params={"bag": 30})
    assert missing.status_code == 400 and missing.json()["field"] == "turn"


@pytest.mark.parametrize(
    "params, status, field",
    [
        ({}, 400, "bag"),
        ({"bag": "many"}, 400, "bag"),
        ({"bag": -3}, 422, "bag"),
        ({"bag": 9, "count": 9}, 422, "count"),
        ({"bag": 9, "colour": "red"}, 400, "colour"),
        # An empty value is not "absent" (the document says integer or boolean), nor is a
        # boolean written as 1 or yes.
        ({"bag": ""}, 400, "bag"),
        ({"bag": 9, "turn": ""}, 400, "turn"),
        ({"bag": 9, "count": ""}, 400, "count"),
        ({"bag": 9, "previous_placed": ""}, 400, "previous_placed"),
        ({"bag": 9, "previous_placed": "1"}, 400, "previous_placed"),
        ({"bag": 9, "previous_placed": "yes"}, 400, "previous_placed"),
        ({"bag": 65, "turn": 186, "exchanges_in_a_row": -318}, 422, "exchanges_in_a_row"),
        (  # the previous turn put a tile down, so it was no exchange
            {"bag": 65, "turn": 3, "previous_placed": "true", "exchanges_in_a_row": 1},
            422,
            "exchanges_in_a_row",
        ),
    ],
)
def test_exchange_allowed_bad_input(server, http, params, status, field):
    r = http.get(server.api("/rulesets/wespa/exchange-allowed"), params=params)
    assert r.status_code == status and r.json()["field"] == field


def test_exchange_allowed_takes_a_boolean_in_any_case(server, http):
    url = server.api("/rulesets/sbnl-punten/exchange-allowed")
    for written in ("true", "True", "TRUE"):  # Python clients send True as "True"
        body = http.get(url, params={"bag": 15, "turn": 6, "previous_placed": written}).json()
        assert body["code"] == "bag_too_small", written


def test_unknown_ruleset_is_404(server, http):
    r = http.get(server.api("/rulesets/nope/exchange-allowed"), params={"bag": 9})
    assert r.status_code == 404


def test_final_score_dsf_000_5_1a_and_overtime_000_4_4_1(server, http):
    body = {
        "players": [
            {"name": "Anne", "score": 380, "overtime_minutes": 1.5},
            {"name": "Bo", "score": 390, "rack": "ZÆE"},
        ],
        "ending": "out",
        "went_out": "Anne",
    }
    r = http.post(server.api("/rulesets/dsf-2015/games/final-score"), json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    # Anne: 380 − 20 (2 started minutes) = 360; Bo: 390 − 2 × 13 = 364.
    assert out["final_scores"] == {"Anne": 360, "Bo": 364}
    assert out["winner"] == "Bo" and out["tie"] is False
    assert out["players"][1]["adjustments"][0]["source"] == "000 §5.1a"


def test_final_score_home_tie_is_shared_004(server, http):
    body = {
        "players": [
            {"name": "A", "score": 100, "rack": "E"},
            {"name": "B", "score": 100, "rack": "A"},
            {"name": "C", "score": 50, "rack": "Z"},
        ],
        "ending": "scoreless",
    }
    out = http.post(server.api("/rulesets/dk-home/games/final-score"), json=body).json()
    assert out["winner"] is None and out["winners"] == ["A", "B"] and out["tie"] is True


@pytest.mark.parametrize(
    "body, status, code, field",
    [
        (  # the English set has one Z
            {
                "players": [
                    {"name": "A", "score": 1, "rack": "Z"},
                    {"name": "B", "score": 1, "rack": "ZA"},
                ],
                "ending": "scoreless",
            },
            422,
            "too_many_tiles",
            "players[1].rack",
        ),
        (
            {
                "players": [{"name": "A", "score": 1, "rack": "A1"}, {"name": "B", "score": 1}],
                "ending": "scoreless",
            },
            422,
            "unknown_letter",
            "players[0].rack",
        ),
        (
            {
                "players": [
                    {"name": "A", "score": 1, "overtime_minutes": -2},
                    {"name": "B", "score": 1},
                ],
                "ending": "scoreless",
            },
            422,
            "out_of_range",
            "players[0].overtime_minutes",
        ),
        (
            {
                "players": [{"name": "A", "score": 1, "rack": "E"}, {"name": "B", "score": 1}],
                "ending": "out",
                "went_out": "A",
            },
            422,
            "inconsistent_input",
            "players[0].rack",
        ),
        (
            {"players": [{"name": "A", "score": 1}, {"name": "B", "score": 1}], "ending": "passes"},
            422,
            "unknown_ending",
            "ending",
        ),
        (
            {"players": [{"name": "A", "score": "1"}, {"name": "B", "score": 1}], "ending": "out"},
            400,
            "wrong_shape",
            "players[0].score",
        ),
        ({"players": "AB", "ending": "out"}, 400, "wrong_shape", "players"),
        ({"players": [], "ending": "out", "extra": 1}, 400, "unknown_field", "extra"),
    ],
)
def test_final_score_bad_input(server, http, body, status, code, field):
    r = http.post(server.api("/rulesets/wespa/games/final-score"), json=body)
    assert r.status_code == status, r.text
    assert r.json()["code"] == code and r.json()["field"] == field


def test_final_score_danish_q_is_blank_only(server, http):
    body = {
        "players": [{"name": "A", "score": 1, "rack": "Q"}, {"name": "B", "score": 1}],
        "ending": "passes",
    }
    r = http.post(server.api("/rulesets/dsf-2015/games/final-score"), json=body)
    assert r.status_code == 422 and "blank" in r.json()["detail"]


def test_draw_order_home_reading_per_request_004_forberedelse(server, http):
    """004 Forberedelse, "højeste bogstav først": nearest A by default, nearest Å on request;
    a blank beats every letter either way."""
    url = server.api("/rulesets/dk-home/games/draw-order")
    draws = [{"Ann": "Å", "Bo": "B"}]
    default = http.post(url, json={"players": ["Ann", "Bo"], "draws": draws})
    assert default.status_code == 200, default.text
    assert default.json()["starts"] == "Bo" and default.json()["nearest"] == "start"
    end = http.post(url, json={"players": ["Ann", "Bo"], "draws": draws, "nearest": "end"})
    assert end.status_code == 200, end.text
    assert end.json()["starts"] == "Ann" and end.json()["nearest"] == "end"
    blank = {"players": ["Ann", "Bo"], "draws": [{"Ann": "Å", "Bo": "?"}], "nearest": "end"}
    assert http.post(url, json=blank).json()["starts"] == "Bo"


def test_draw_order_a_blank_per_request_where_the_source_is_silent_000_3_3a(server, http):
    """000 §3.3a names letters only: a drawn blank "not counted" is an inference, the default;
    a request may ask for the other reading, a blank beating every letter (as 004)."""
    url = server.api("/rulesets/dsf-2015/games/draw-order")
    draws = [{"Ann": "?", "Bo": "A"}]
    default = http.post(url, json={"players": ["Ann", "Bo"], "draws": draws})
    assert default.status_code == 200, default.text
    assert not default.json()["decided"] and default.json()["blank"] == "not_counted"
    beats = http.post(url, json={"players": ["Ann", "Bo"], "draws": draws, "blank": "beats_all"})
    assert beats.status_code == 200, beats.text
    assert beats.json()["starts"] == "Ann" and beats.json()["blank"] == "beats_all"


def test_draw_order_ssf_takes_a_given_winner_002(server, http):
    """002 names no draw method: the winner of the players' own draw chooses."""
    url = server.api("/rulesets/ssf-1999/games/draw-order")
    r = http.post(url, json={"players": ["Eva", "Olle"], "winner": "Olle"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["chooses"] == "Olle" and body["starts"] is None and body["decided"]
    assert body["choices"] == ["start", "board_orientation"] and body["settled_by"] == "given"


@pytest.mark.parametrize(
    "ruleset, body, status, code, field",
    [
        ("dsf-2015", {"players": ["A", "B"], "draws": [{"A": "E", "B": "C"}], "nearest": "end"},
         422, "inconsistent_input", "nearest"),  # 000 §3.3a: nearest A, outright
        ("sbnl-punten", {"players": ["A", "B"], "draws": [{"A": "?", "B": "C"}],
                         "blank": "beats_all"},
         422, "inconsistent_input", "blank"),  # 003: "De blanco blokjes tellen ... niet mee"
        ("dsf-2015", {"players": ["A", "B"], "draws": [{"A": "?", "B": "C"}], "blank": "all"},
         400, "wrong_shape", "blank"),
        ("dk-home", {"players": ["A", "B"], "draws": [{"A": "E", "B": "C"}], "nearest": "Å"},
         400, "wrong_shape", "nearest"),
        ("dk-home", {"players": ["A", "B"], "draws": [{"A": "E", "B": "C"}], "nearest": None},
         400, "wrong_shape", "nearest"),
        ("dsf-2015", {"players": ["A", "B"], "winner": "A"}, 422, "inconsistent_input", "winner"),
        ("ssf-1999", {"players": ["A", "B"], "winner": "C"}, 422, "unknown_player", "winner"),
        ("ssf-1999", {"players": ["A", "B"], "winner": 1}, 400, "wrong_shape", "winner"),
        ("ssf-1999", {"players": ["A", "B"], "winner": ""}, 400, "wrong_shape", "winner"),
        ("ssf-1999", {"players": ["A", "B"]}, 400, "wrong_shape", "draws"),
        ("ssf-1999", {"players": ["A", "B"], "draws": [{"A": "Ö", "B": "Å"}], "winner": "A"},
         422, "inconsistent_input", "winner"),  # the tiles say B
    ],
)  # fmt: skip
def test_draw_order_bad_input(server, http, ruleset, body, status, code, field):
    r = http.post(server.api(f"/rulesets/{ruleset}/games/draw-order"), json=body)
    assert r.status_code == status, r.text
    assert r.json()["code"] == code and r.json()["field"] == field


def test_verify_real_record(server, http):
    text = (GCG / "fivepoint.gcg").read_text(encoding="latin-1")
    r = http.post(server.api("/rulesets/wespa/games/verify"), json={"gcg": text})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["ok"] and out["rule_deviations"] == 0 and out["score_disagreements"] == 0
    assert out["result"]["winner"] == "Ganesh" and out["result"]["ending"] == "out"
    # the same record under NASPA rules: the +5 challenge line is a rule deviation
    out = http.post(server.api("/rulesets/naspa/games/verify"), json={"gcg": text}).json()
    assert not out["ok"] and out["rule_deviations"] >= 1


def test_verify_handmade_record(server, http):
    text = (RECORDS / "dsf-2015.gcg").read_text(encoding="utf-8")
    out = http.post(server.api("/rulesets/dsf-2015/games/verify"), json={"gcg": text}).json()
    assert out["ok"], out
    assert out["result"]["ended"] is True


def test_verify_json_turns(server, http):
    body = {
        "players": ["Anne", "Bo"],
        "turns": [
            {"player": "Anne", "type": "play", "move": "8E HUND", "score": 20},
            {"player": "Bo", "type": "exchange", "tiles": "ZZ", "rack": "ZZABCDE"},
        ],
    }
    out = http.post(server.api("/rulesets/dsf-2015/games/verify"), json=body).json()
    assert out["score_disagreements"] == 0
    devs = [d for t in out["turns"] for d in t["deviations"]]
    assert any("2 × Z" in d for d in devs), devs  # the Danish set has one Z


def test_verify_json_turns_state_a_restart_with_a_note_003(server, http):
    """003 Verloop van het spel: a JSON turn's `note` is the GCG `#note` after it, so a restart
    after the first player's third exchange, with the jury named, starts the game again."""
    ex = [
        {"player": who, "type": "exchange", "tiles": tiles}
        for who, tiles in [("Jan", "CQX"), ("Piet", "BDH"), ("Jan", "CWZ"), ("Piet", "LT")]
    ]
    last = {"player": "Jan", "type": "exchange", "tiles": "CQY"}
    after = [{"player": "Piet", "type": "play", "move": "8F HOND", "score": 16}]
    url = server.api("/rulesets/sbnl-punten/games/verify")
    note = "restart; jury: Marieke de Vries"
    body = {"players": ["Jan", "Piet"], "turns": [*ex, {**last, "note": note}, *after]}
    out = http.post(url, json=body).json()
    assert out["rule_deviations"] == 0 and out["score_disagreements"] == 0, out
    assert out["restarts"][0]["jury"] == "Marieke de Vries"
    assert out["restarts"][0]["turns_voided"] == 5
    without_jury = {**body, "turns": [*ex, {**last, "note": "restart"}, *after]}
    out = http.post(url, json=without_jury).json()
    assert out["rule_deviations"] == 1 and out["restarts"][0]["allowed"] is False


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({"gcg": ">a: ABC 8H XYZZY +10 10\n"}, 422, "gcg"),
        ({"gcg": "#player1 a a\n#player2 b b\n>a: ABC 8H +10\n"}, 422, "gcg"),
        ({"gcg": 5}, 400, "gcg"),
        ({"gcg": "x", "turns": []}, 400, "gcg"),
        ({"gcg": "#player1 a a\n>a: ABC 8H ABC +10 10\n", "players": ["a", "b"]}, 400, "players"),
        (
            {"players": ["a", "b"], "turns": [{"player": "c", "type": "pass"}]},
            422,
            "turns[0].player",
        ),
        ({"players": ["a", "b"], "turns": [{"player": "a", "type": "fly"}]}, 400, "turns[0].type"),
        (
            {"players": ["a", "b"], "turns": [{"player": "a", "type": "play", "move": "8H"}]},
            400,
            "turns[0].move",
        ),
        (
            {"players": ["a", "b"], "turns": [{"player": "a", "type": "play", "move": "ZZ HUND"}]},
            422,
            "turns[0]",
        ),
    ],
)
def test_verify_bad_input(server, http, body, status, field):
    r = http.post(server.api("/rulesets/dsf-2015/games/verify"), json=body)
    assert r.status_code == status, r.text
    assert r.json()["field"] == field


def test_verify_record_in_another_language(server, http):
    text = (GCG / "boys1.gcg").read_text(encoding="latin-1")
    # an English record under a Danish ruleset has no #lexicon: replayed in Danish, where
    # the English words still lie on the board; what matters is a clean answer, never a 500
    r = http.post(server.api("/rulesets/dsf-2015/games/verify"), json={"gcg": text})
    assert r.status_code in (200, 422)
    text = (GCG / "issue_476.gcg").read_text(encoding="utf-8")  # #lexicon NWL23: English
    r = http.post(server.api("/rulesets/dsf-2015/games/verify"), json={"gcg": text})
    assert r.status_code == 422 and "English" in r.json()["detail"]


def test_verify_reports_what_the_walk_cannot_follow(server, http):
    """An end-of-game line showing a rack the set cannot hold, and an exchange after more
    tiles than the set were put down, are deviations of a 200 report, not a refusal of the
    record (it was 422 with the field "bag" or none)."""
    head = "#player1 ann Ann\n#player2 bob Bob\n>ann: ACTXYZQ 8H CAT +10 10\n"
    passes = ">bob: AEIOTUU - +0 0\n>ann: XYZQ - +0 10\n" * 3
    text = head + passes + ">ann: XYZ1Q (XYZQ) -32 -22\n"
    r = http.post(server.api("/rulesets/wespa/games/verify"), json={"gcg": text})
    assert r.status_code == 200, r.text
    assert "rack XYZ1Q: '1' is not a tile of the English set" in r.json()["turns"][-1]["deviations"]
    plays = [
        f">{'ab'[k % 2]}: ACTXYZQ {row}{col} CAT +5 {5 * (k // 2 + 1)}\n"
        for k, (row, col) in enumerate((r, c) for r in range(1, 16) for c in "ADGJM")
    ]
    text = "#player1 a a\n#player2 b b\n" + "".join(plays) + ">b: ABCDEFG -ABC +0 185\n"
    r = http.post(server.api("/rulesets/wespa/games/verify"), json={"gcg": text})
    assert r.status_code == 200, r.text
    assert r.json()["turns"][-1]["deviations"][-1].startswith("exchange not allowed: ")


def test_verify_refuses_more_players_than_the_ruleset_is_for(server, http):
    """A record of more players than the ruleset allows is refused, as a GCG text or JSON turns;
    within the bound (dk-home is for up to 4) it is walked."""
    three = "#player1 a A\n#player2 b B\n#player3 c C\n>a: ABC 8H BAD +12 12\n"
    turns = [{"player": "a", "type": "pass"}]
    for body in ({"gcg": three}, {"players": ["a", "b", "c"], "turns": turns}):
        r = http.post(server.api("/rulesets/naspa/games/verify"), json=body)
        assert r.status_code == 422, r.text
        problem = r.json()
        assert problem["code"] == "player_count" and problem["field"] == "players"
        assert problem["detail"] == "naspa is for at most 2 players"
    r = http.post(server.api("/rulesets/dk-home/games/verify"), json={"gcg": three})
    assert r.status_code == 200, r.text
