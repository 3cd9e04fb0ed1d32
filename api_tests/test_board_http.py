"""games/board over real HTTP: the board as SVG for apps, by content negotiation; a position as
moves/validate reads it, a record as games/verify reads it; every refusal a problem document."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

SVG = "image/svg+xml"
SVG_NS = "{http://www.w3.org/2000/svg}"
GCG = "\n".join(
    [
        "#player1 Ann Ann",
        "#player2 Bo Bo",
        ">Ann: ACTDEFG H7 CAT +10 10",
        ">Bo: SOXYZLM 10H SO +9 9",
        ">Bo: SOXYZLM -- -9 0",
        ">Ann: DEFG?OL 10H sO +8 18",  # the blank s comes from the rack
        "",
    ]
)


def _post(server, http, body, ruleset="naspa", **headers):
    return http.post(server.api(f"/rulesets/{ruleset}/games/board"), json=body, headers=headers)


def _tiles(response) -> dict[str, ET.Element]:
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith(SVG)
    assert "Accept" in response.headers["Vary"]
    root = ET.fromstring(response.content)
    assert root.tag == f"{SVG_NS}svg"
    return {g.get("data-square"): g for g in root.iter(f"{SVG_NS}g")}


@pytest.mark.parametrize("accept", [None, SVG, "image/*", "*/*", f"application/json;q=0.9, {SVG}"])
def test_an_svg_for_any_accept_that_takes_one(server, http, accept):
    headers = {"Accept": accept} if accept else {}
    if accept is None:
        http_headers = dict(http.headers)
        http.headers.pop("Accept", None)  # requests sends */* unless told otherwise
    try:
        tiles = _tiles(_post(server, http, {"plays": ["H7 CAT", "10H SO"]}, **headers))
    finally:
        if accept is None:
            http.headers.update(http_headers)
    assert set(tiles) == {"H7", "H8", "H9", "H10", "I10"}
    outlined = {sq for sq, g in tiles.items() if "last" in g.get("class").split()}
    assert outlined == {"H10", "I10"}  # the last of the plays


@pytest.mark.parametrize("accept", ["application/json", "application/problem+json", "text/html"])
def test_a_client_that_takes_no_svg_gets_a_406_problem(server, http, accept):
    response = _post(server, http, {"plays": ["H7 CAT"]}, Accept=accept)
    assert response.status_code == 406
    assert response.headers["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == "not_acceptable" and problem["field"] == "Accept"
    assert problem["type"].endswith(":not_acceptable") and problem["status"] == 406


def test_a_record_at_a_turn_and_at_the_end(server, http):
    at_two = _tiles(_post(server, http, {"gcg": GCG, "turn": 2}))
    assert set(at_two) == {"H7", "H8", "H9", "H10", "I10"}
    at_end = _tiles(_post(server, http, {"gcg": GCG}))  # Bo's SO taken back, Ann's sO played
    assert "blank" in at_end["H10"].get("class").split()
    assert "blank" not in at_end["I10"].get("class").split()
    empty = _tiles(_post(server, http, {"gcg": GCG, "turn": 0}))
    assert empty == {}
    caption = ET.fromstring(_post(server, http, {"gcg": GCG, "turn": 2}).content)
    texts = [t.text for t in caption.iter(f"{SVG_NS}text") if t.get("class") == "caption"]
    assert texts and texts[0].startswith("2/4 Bo: 10H SO +9")


def test_json_turns_draw_the_same_picture_as_the_gcg(server, http):
    turns = {
        "players": ["Ann", "Bo"],
        "turns": [
            {"player": "Ann", "type": "play", "move": "H7 CAT", "score": 10},
            {"player": "Bo", "type": "play", "move": "10H SO", "score": 9},
            {"player": "Bo", "type": "withdrawn", "score": -9},
            {"player": "Ann", "type": "play", "move": "10H sO", "score": 8},
        ],
    }
    for turn in range(5):
        from_gcg = _post(server, http, {"gcg": GCG, "turn": turn})
        from_turns = _post(server, http, {**turns, "turn": turn})
        assert from_gcg.status_code == from_turns.status_code == 200
        assert from_gcg.content == from_turns.content, turn


@pytest.mark.parametrize(
    "body, status, code, field",
    [
        ({}, 400, "wrong_shape", "gcg"),
        ({"gcg": GCG, "turn": 5}, 400, "out_of_range", "turn"),
        ({"gcg": GCG, "turn": -1}, 400, "out_of_range", "turn"),
        ({"gcg": GCG, "turn": "2"}, 400, "wrong_shape", "turn"),
        ({"gcg": GCG, "turn": None}, 400, "wrong_shape", "turn"),  # absent is the last; null no
        ({"gcg": "no record"}, 422, "bad_record", "gcg"),
        ({"gcg": GCG, "players": ["A", "B", "C", "D", "E"]}, 400, "wrong_shape", "players"),
        ({"board": ["." * 15] * 14}, 400, "bad_board", "board"),
        ({"plays": ["H7 CAT", "A1 ZZZ"]}, 400, "illegal_earlier_play", "plays[1]"),
        ({"plays": ["H7 CAT"], "turn": 1}, 400, "unknown_field", "turn"),
        ({"board": ["." * 15] * 15, "plays": []}, 400, "wrong_shape", "board"),
    ],
)
def test_bad_input_is_a_problem_naming_the_field(server, http, body, status, code, field):
    response = _post(server, http, body, Accept=SVG)
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert (problem["code"], problem.get("field")) == (code, field)


def test_no_such_ruleset_and_not_json(server, http):
    missing = _post(server, http, {"plays": []}, ruleset="nope")
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_ruleset"
    raw = http.post(server.api("/rulesets/naspa/games/board"), data="x", headers={"Accept": SVG})
    assert raw.status_code == 415 and raw.json()["code"] == "not_json"
