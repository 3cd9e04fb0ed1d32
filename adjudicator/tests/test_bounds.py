"""Every bound the code enforces is the one the OpenAPI document states, and each is a 400
naming the field: no number past it reaches the rules or the answer (issue 9: no 5xx)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator import bounds, create_app
from adjudicator.api.meta import openapi_document


def test_the_document_states_the_query_bounds():
    """The request bodies' bounds reach the document from their models and the query
    parameters' from the route's declaration (`@operation`; `tools/openapi.py`, and
    `test_openapi` fails when it is stale); this checks that the declaration uses the bounds."""
    params = openapi_document()["paths"]["/rulesets/{ruleset_id}/exchange-allowed"]["get"]
    by_name = {p["name"]: p["schema"] for p in params["parameters"]}
    assert by_name["bag"]["maximum"] == bounds.MAX_BAG
    assert by_name["turn"]["maximum"] == bounds.MAX_TURNS
    assert by_name["exchanges_in_a_row"]["maximum"] == bounds.MAX_TURNS


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


# --- nesting (issue 27): a deep body was a 500 on every JSON route, anonymously ----------------

JSON_ROUTES = [
    "/api/v1/rulesets/naspa/challenge",
    "/api/v1/rulesets/naspa/moves/validate",
    "/api/v1/rulesets/naspa/games/verify",
    "/api/v1/rulesets/naspa/games/final-score",
    "/api/v1/rulesets/naspa/games/draw-order",
    "/api/v1/rulesets/naspa/games/board",
    "/api/v1/judge/unlock",
]


@pytest.fixture
def pin_client(lexicon_dir):
    """A client of an app with a judge PIN, so that judge/unlock reads its body."""
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "JUDGE_PIN": "4711"})
    return app.test_client()


def _nested(depth: int, inner: str = "") -> str:
    return "[" * depth + inner + "]" * depth


@pytest.mark.parametrize("path", JSON_ROUTES)
@pytest.mark.parametrize("depth", [bounds.MAX_JSON_DEPTH, 600, 1000, 5000])
def test_a_body_nested_past_the_bound_is_a_400_naming_it(pin_client, path, depth):
    """The top-level object is one level: `{"words": [...]}` nests the list at two. Past the
    parser's own limit (1024) the answer is the same."""
    body = '{"words": ' + _nested(depth) + "}"
    r = pin_client.post(path, data=body, content_type="application/json")
    assert r.status_code == 400, r.json
    assert r.json["code"] == "too_deep", r.json
    assert f"{bounds.MAX_JSON_DEPTH} levels" in r.json["detail"]
    assert r.json["field"] == ("$" if depth > 1000 else "words")


@pytest.mark.parametrize("path", JSON_ROUTES)
def test_a_body_at_the_bound_is_read(pin_client, path):
    """As deep as the bound allows is not refused for its depth (the field is then wrong)."""
    deepest = bounds.MAX_JSON_DEPTH
    for words in (_nested(deepest - 1), _nested(deepest - 2, "{}"), _nested(deepest - 1, "1")):
        body = '{"words": ' + words + "}"
        r = pin_client.post(path, data=body, content_type="application/json")
        assert r.status_code < 500 and r.json["code"] != "too_deep", r.json


def test_objects_count_as_levels_and_the_field_is_the_top_key(client):
    inner = '{"a": ' * bounds.MAX_JSON_DEPTH + "1" + "}" * bounds.MAX_JSON_DEPTH
    body = '{"words": ["ok"], "free_challenge": ' + inner + "}"
    r = client.post(JSON_ROUTES[0], data=body, content_type="application/json")
    assert r.status_code == 400 and r.json["code"] == "too_deep", r.json
    assert r.json["field"] == "free_challenge"


def test_the_deepest_body_the_service_reads_is_within_the_bound(client):
    """moves/validate's structured tiles are the deepest: object, object, list, object."""
    tiles = [{"row": 7, "col": 7 + i, "letter": ch} for i, ch in enumerate("CAT")]
    r = client.post(JSON_ROUTES[1], json={"play": {"tiles": tiles}})
    assert r.status_code == 200, r.json
    assert bounds.MAX_JSON_DEPTH >= 4


def test_the_document_states_the_nesting_bound():
    """JSON Schema has no keyword for depth: each operation that reads a JSON body says it."""
    stated = f"more than {bounds.MAX_JSON_DEPTH} levels deep is `too_deep`"
    doc = openapi_document()
    read = 0
    for item in doc["paths"].values():
        for method, op in item.items():
            if method != "parameters" and "application/json" in op.get("requestBody", {}).get(
                "content", {}
            ):
                read += 1
                assert stated in op["responses"]["400"]["description"], op["operationId"]
    assert read == len(JSON_ROUTES)
    page = Path(__file__).parents[2] / "docs" / "explanation" / "disclosure.md"
    assert f"| nesting of a JSON body | {bounds.MAX_JSON_DEPTH} levels" in page.read_text("utf-8")
