"""Every bound the code enforces is the one the OpenAPI document states, and each is a 400
naming the field: no number past it reaches the rules or the answer (issue 9: no 5xx)."""

from __future__ import annotations

import json

import pytest

from adjudicator import bounds
from adjudicator.api.meta import openapi_document


def _schemas():
    return openapi_document()["components"]["schemas"]


def test_the_document_states_the_code_s_bounds():
    s = _schemas()
    assert s["ChallengeRequest"]["properties"]["words"]["items"]["maxLength"] == (
        bounds.MAX_WORD_CHARS
    )
    player = s["FinalScoreRequest"]["properties"]["players"]["items"]["properties"]
    assert player["score"]["maximum"] == bounds.MAX_POINTS == -player["score"]["minimum"]
    assert player["name"]["maxLength"] == bounds.MAX_NAME_CHARS
    assert player["rack"]["maxLength"] == bounds.MAX_RACK_CHARS
    assert player["overtime_minutes"]["maximum"] == bounds.MAX_OVERTIME_MINUTES
    verify = s["VerifyRequest"]["properties"]
    assert verify["gcg"]["maxLength"] == bounds.MAX_GCG_CHARS
    assert verify["turns"]["maxItems"] == bounds.MAX_TURNS
    turn = verify["turns"]["items"]["properties"]
    for key in ("score", "total"):
        assert turn[key]["maximum"] == bounds.MAX_POINTS == -turn[key]["minimum"]
    assert turn["move"]["maxLength"] == bounds.MAX_MOVE_CHARS
    assert turn["count"]["maximum"] == bounds.MAX_BAG
    params = openapi_document()["paths"]["/rulesets/{ruleset_id}/exchange-allowed"]["get"]
    by_name = {p["name"]: p["schema"] for p in params["parameters"]}
    assert by_name["bag"]["maximum"] == bounds.MAX_BAG
    assert by_name["turn"]["maximum"] == bounds.MAX_TURN_NUMBER
    assert by_name["exchanges_in_a_row"]["maximum"] == bounds.MAX_TURN_NUMBER
    draw = s["DrawOrderRequest"]["properties"]
    assert draw["players"]["items"]["maxLength"] == bounds.MAX_NAME_CHARS
    assert draw["draws"]["maxItems"] == bounds.MAX_DRAW_ROUNDS
    assert draw["winner"]["maxLength"] == bounds.MAX_NAME_CHARS


def _final(score=1, **extra):
    players = [{"name": "a", "score": score, **extra}, {"name": "b", "score": 1}]
    return {"players": players, "ending": "out", "went_out": "a"}


GCG = "#player1 a a\n#player2 b b\n>a: CATDOGS 8H CAT +{} {}\n"


@pytest.mark.parametrize(
    "path, body, field",
    [
        ("games/final-score", _final(bounds.MAX_POINTS + 1), "players[0].score"),
        ("games/final-score", _final(-(2**70)), "players[0].score"),
        ("games/final-score", _final(overtime_minutes=1e300), "players[0].overtime_minutes"),
        ("games/final-score", _final(name="x" * 65), "players[0].name"),
        ("games/verify", {"gcg": GCG.format("9" * 25, 10)}, "gcg"),
        ("games/verify", {"gcg": GCG.format("9" * 4400, 10)}, "gcg"),
        ("games/verify", {"gcg": GCG.format(10, "1" * 6)}, "gcg"),
        (
            "games/verify",
            {"players": ["a", "b"], "turns": [{"player": "a", "type": "pass", "score": 10**6}]},
            "turns[0].score",
        ),
        (
            "games/verify",
            {"players": ["a", "b"], "turns": [{"player": "a", "type": "exchange", "count": 999}]},
            "turns[0].count",
        ),
        (
            "games/verify",
            {"players": ["a", "b"], "turns": [{"player": {}, "type": "pass"}]},
            "turns[0].player",
        ),
        ("moves/validate", {"play": {"tiles": [{"row": 2**40, "col": 7, "letter": "A"}]}}, None),
        ("challenge", {"words": ["a" * 65]}, "words[0]"),
    ],
)
def test_past_a_bound_is_a_4xx_naming_the_field(client, path, body, field):
    data = json.dumps(body)  # the standard library writes integers of any size
    r = client.post(f"/api/v1/rulesets/naspa/{path}", data=data, content_type="application/json")
    assert 400 <= r.status_code < 500, r.json
    if field:
        assert r.json["field"] == field, r.json
    else:
        assert r.json["field"].startswith("play.tiles[0]")


def test_a_record_past_the_turn_cap_is_refused(client):
    lines = ["#player1 a a", "#player2 b b"]
    lines += [f">{'ab'[i % 2]}: ? - +0 0" for i in range(bounds.MAX_TURNS + 1)]
    r = client.post("/api/v1/rulesets/naspa/games/verify", json={"gcg": "\n".join(lines)})
    assert r.status_code == 400 and r.json["code"] == "out_of_range", r.json
    assert str(bounds.MAX_TURNS) in r.json["detail"]


def test_a_query_parameter_given_twice_or_unknown_is_refused(client):
    path = "/api/v1/rulesets/ssf-1999/exchange-allowed"
    assert client.get(f"{path}?bag=3").json["allowed"] is False  # the first alone
    twice = client.get(f"{path}?bag=3&bag=90")
    assert twice.status_code == 400 and twice.json["code"] == "repeated_parameter"
    assert twice.json["field"] == "bag"
    unknown = client.get(f"{path}?bag=90&bags=3")
    assert unknown.status_code == 400 and unknown.json["code"] == "unknown_parameter"
    assert unknown.json["field"] == "bags"


def test_duplicate_keys_are_refused_even_inside_text_with_colons(client):
    body = '{"gcg": "#player1 a: a", "players": ["a"], "gcg": "x"}'
    r = client.post(
        "/api/v1/rulesets/naspa/games/verify", data=body, content_type="application/json"
    )
    assert r.status_code == 400 and r.json["code"] == "duplicate_key" and r.json["field"] == "gcg"
