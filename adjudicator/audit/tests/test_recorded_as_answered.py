"""What the audit log records of a ruling is exactly what was answered (issue 36, item 11: an
illegal play, A1 KAT off the centre, answered `score: null`, but its entry kept the engine's
18 and the rulings page said "ulovligt, 18 point").

Every route whose answer is a recorded ruling (`@rules`) is taken from the app's URL map and
sent legal and illegal plays, valid and invalid words, under rulesets of both policies; a route
the table below does not know fails the test.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator import create_app, store
from adjudicator.audit import chain
from adjudicator.auth import directors, store_time
from adjudicator.store import Store, migrate
from adjudicator.web.access import RULES

PASSWORD = "correct horse battery staple"

# Endpoint → (ruleset, body) pairs: a ruling of each kind the route gives.
REQUESTS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "challenge.challenge": [
        ("dsf-2015", {"words": ["kat"]}),
        ("dsf-2015", {"words": ["kat", "qqq"]}),
        ("naspa", {"words": ["cat", "zzz"]}),  # `word` policy: a verdict per word
        ("sbnl-punten", {"words": ["woord"], "game": "g1", "player": "Anna"}),  # the jury
        ("dk-home", {"words": ["qqq"], "free_challenge": True}),
    ],
    "moves.validate": [
        ("dsf-2015", {"play": "A1 KAT"}),  # illegal: the centre is not covered
        ("dsf-2015", {"play": "8H KAT", "rack": "KATXYZE"}),
        ("dsf-2015", {"plays": ["H7 KAT"], "play": "10H QQ"}),
        ("naspa", {"play": "8H CAT"}),
        ("naspa", {"play": "8H ZZZ"}),
        ("sbnl-punten", {"play": "1A KAT", "game": "g1", "player": "Bo"}),  # illegal
    ],
}


@pytest.fixture
def app(database_url, lexicon_dir):
    migrate.upgrade(Store(database_url))
    app = create_app(
        {"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": database_url}
    )
    with app.app_context(), store.connection(write=True) as conn:
        directors.add(conn, "anna", PASSWORD, store_time.now())
    return app


def ruling_routes(app) -> dict[str, str]:
    return {
        rule.endpoint: rule.rule
        for rule in app.url_map.iter_rules()
        if getattr(app.view_functions[rule.endpoint], RULES, False)
    }


def recorded(app, ruling_id: str) -> dict[str, Any]:
    with app.extensions["store"].connection() as conn:
        (row,) = [s.row for s in chain.stored(conn) if s.row["ruling_id"] == ruling_id]
    return row


def test_every_ruling_route_is_known(app):
    unknown = set(ruling_routes(app)) - set(REQUESTS)
    assert not unknown, f"add requests for these ruling routes to REQUESTS: {sorted(unknown)}"


@pytest.mark.parametrize(
    ("endpoint", "ruleset", "body"),
    [(endpoint, *request) for endpoint, requests in REQUESTS.items() for request in requests],
)
def test_the_entry_says_what_the_answer_said(app, endpoint, ruleset, body):
    path = ruling_routes(app)[endpoint].replace("<ruleset_id>", ruleset)
    response = app.test_client().post(path, json=body)
    assert response.status_code == 200, response.json
    answer = response.json
    entry = recorded(app, answer["ruling_id"])
    assert entry["lexicon_id"] == answer["lexicon"]["id"]
    assert entry["lexicon_sha256"] == answer["lexicon"]["sha256"]
    assert entry["words"] == answer["words"]
    assert entry["verdict"] == answer["ruling"]
    assert entry["play"] == answer.get("notation")
    if "consequence" in answer:
        assert entry["consequence"] == answer["consequence"]
    else:  # a move's: its legality, placement errors and score, each as answered
        consequence = entry["consequence"]
        assert set(consequence) == {"legal", "errors", "score"}
        assert consequence["legal"] == answer["legal"]
        assert consequence["errors"] == [error["code"] for error in answer["errors"]]
        assert consequence["score"] == answer["score"]


def test_the_rulings_page_gives_an_illegal_play_no_points(app):
    answer = app.test_client().post(
        "/api/v1/rulesets/dsf-2015/moves/validate", json={"play": "A1 KAT"}
    )
    assert answer.json["legal"] is False and answer.json["score"] is None
    director = app.test_client()
    director.post("/director/login", data={"name": "anna", "password": PASSWORD})
    page = director.get("/director/rulings?lang=da").get_data(as_text=True)
    row = page[page.index(answer.json["ruling_id"]) :].split("</tr>")[0]
    assert "ulovlig" in row.lower() and "point" not in row
