"""No route that rules on words goes around the ruling step (`adjudicator.api.ruling`; issue 38,
item 2: each view charged, replayed, counted and recorded its ruling itself, and games/verify
settled its rate count by hand).

The routes are taken from the app's URL map. Each whose answer depends on the word list
(`lexicon_dependent`, the fail-closed default) and is not the jury's words-left read must be
served by the step itself, as declared: a recorded ruling or one counted once answered. Every
route of the disclosure test's registry is sent its requests, and any answer that carries a
ruling id must come from a declared recorded ruling. Then a real request to each declared route
shows each step: a recorded ruling is rate-counted, counts the player's jury words, is in the
audit log, is counted in /metrics, and a retry with its Idempotency-Key is replayed with none of
that again; a counted route is rate-counted once answered and recorded nowhere. The bodies are
the jury routes' and the rate-limit walk's own tables, so a new route is added in one place.
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from prometheus_client import REGISTRY

from adjudicator import create_app, store
from adjudicator.api import ruling
from adjudicator.api.bodies import Labelled, MoveRequest
from adjudicator.audit import chain
from adjudicator.audit.tests.test_jury_routes import GAME, LABELLED, UNLABELLED
from adjudicator.auth import keys, store_time
from adjudicator.auth.guard import access_of
from adjudicator.auth.tests.test_refusals_cost_nothing import ANSWERED
from adjudicator.catalogue import rulesets
from adjudicator.store import Store, migrate
from adjudicator.store.credentials import RateHit
from adjudicator.tests.differential import requests_for
from adjudicator.tests.test_differential import _send
from adjudicator.web.access import COUNTED_WHEN_ANSWERED, LEXICON_DEPENDENT, NOT_A_RULING, RULES

RULESET = "sbnl-punten"  # jury mode: a labelled ruling counts the player's words
JURY_LIMIT = 10
RATE_LIMIT = 3
# What the step's wrappers run: a view served by anything else is not served by the step.
RECORDED_STEP = ruling.recorded("move", MoveRequest)(lambda ruleset, asked: {}).__code__
COUNTED_STEP = ruling.counted_when_answered(lambda: None).__code__


def declared(app) -> dict[str, str]:
    """Endpoint → how the URL map's view of it is declared: 'recorded', 'counted' or ''."""
    out = {}
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        if isinstance(getattr(view, RULES, None), ruling.Ruling):
            out[rule.endpoint] = "recorded" if view.__code__ is RECORDED_STEP else "forged"
        elif getattr(view, COUNTED_WHEN_ANSWERED, False):
            out[rule.endpoint] = "counted" if view.__code__ is COUNTED_STEP else "forged"
        else:
            out[rule.endpoint] = ""
    return out


@pytest.fixture
def app(database_url, lexicon_dir):
    migrate.upgrade(Store(database_url))
    return create_app(
        {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "DATABASE_URL": database_url,
            "MODE": "tournament",
            "RATE_RULINGS_PER_MINUTE": RATE_LIMIT,
            "METRICS": True,
        }
    )


@pytest.fixture
def key(app) -> str:
    with app.app_context(), store.connection(write=True) as conn:
        return keys.create(conn, "scorer", "app", [], set(rulesets()), store_time.now()).key


def test_every_route_that_rules_on_words_is_served_by_the_step(app):
    ways = declared(app)
    assert "forged" not in ways.values(), f"marked but not served by the step: {ways}"
    for endpoint, way in ways.items():
        words = (access_of(app, endpoint) or LEXICON_DEPENDENT) == LEXICON_DEPENDENT
        beside = getattr(app.view_functions[endpoint], NOT_A_RULING, False)
        assert bool(way) == (words and not beside), (
            f"{endpoint} rules on words: declare it with adjudicator.api.ruling"
            if words
            else f"{endpoint} is declared a ruling but is not lexicon_dependent"
        )
    recorded = {e for e, way in ways.items() if way == "recorded"}
    assert recorded == set(LABELLED), "add each recorded ruling to test_jury_routes' LABELLED"
    assert {e for e, way in ways.items() if way} == set(ANSWERED) == recorded | set(UNLABELLED)
    for endpoint in recorded:  # what it judges, under which ruleset and labels
        declaration = getattr(app.view_functions[endpoint], RULES)
        assert issubclass(declaration.model, Labelled)


def test_only_a_declared_ruling_answers_with_a_ruling(database_url, lexicon_dir):
    """Every route of the disclosure registry, sent its requests in open mode: an answer that
    carries a ruling id (a ruling given) comes only from a route declared as recorded."""
    migrate.upgrade(Store(database_url))
    app = create_app(
        {"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": database_url}
    )
    reqs, unknown = requests_for(app, ["dsf-2015", "naspa", RULESET])
    assert not unknown, unknown
    ways, client, ruled = declared(app), app.test_client(), set()
    for _, endpoint, req in reqs:
        answer = _send(client, req)
        said = answer.get_json(silent=True) if answer.get_data() else None
        if isinstance(said, dict) and "ruling_id" in said:
            assert ways[endpoint] == "recorded", f"{endpoint} gave a ruling outside the step"
            ruled.add(endpoint)
    assert ruled == {e for e, way in ways.items() if way == "recorded"}


def _state(app) -> dict[str, Any]:
    """What the steps leave: the audit log's entries, the rate count's rows, the rulings metric."""
    with app.extensions["store"].connection() as conn:
        entries = [s.row for s in chain.stored(conn)]
        hits = conn.execute(sa.select(sa.func.count()).select_from(RateHit.__table__)).scalar()
    rulings = sum(
        sample.value
        for metric in REGISTRY.collect()
        if metric.name == "adjudicator_rulings"
        for sample in metric.samples
        if sample.name.endswith("_total") and sample.labels.get("ruleset") == RULESET
    )
    return {"entries": entries, "hits": hits, "rulings": rulings}


@pytest.mark.parametrize("endpoint", sorted(LABELLED))
def test_a_recorded_ruling_goes_through_every_step(app, key, endpoint):
    body, words = LABELLED[endpoint]
    path = {r.endpoint: r.rule for r in app.url_map.iter_rules()}[endpoint]
    path = path.replace("<ruleset_id>", RULESET)
    client = app.test_client()
    headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": f"{endpoint}-1"}
    asked = body | GAME | {"player": "Bo"}
    before = _state(app)

    first = client.post(path, json=asked, headers=headers)
    assert first.status_code == 200, first.json
    after = _state(app)
    assert after["hits"] == before["hits"] + 1  # the rate count
    assert first.json["queries_remaining"] == JURY_LIMIT - words  # the jury's words
    (entry,) = after["entries"][len(before["entries"]) :]  # the audit record
    assert (entry["ruling_id"], entry["caller_kind"]) == (first.json["ruling_id"], "app")
    assert (entry["ruleset"], entry["game"], entry["player"]) == (RULESET, GAME["game"], "Bo")
    assert after["rulings"] == before["rulings"] + 1  # the metric

    again = client.post(path, json=asked, headers=headers)  # the retry: replayed, nothing else
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_data() == first.get_data()
    replayed = _state(app)
    assert replayed == after
    left = client.get(
        f"/api/v1/rulesets/{RULESET}/jury",
        query_string=GAME | {"player": "Bo"},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert left.json["queries_remaining"] == JURY_LIMIT - words

    statuses = [
        client.post(path, json=asked, headers={"Authorization": f"Bearer {key}"}).status_code
        for _ in range(RATE_LIMIT)
    ]
    assert statuses == [200] * (RATE_LIMIT - 1) + [429]  # the retry used none of the limit


@pytest.mark.parametrize("endpoint", sorted(UNLABELLED))
def test_a_counted_route_is_counted_once_answered_and_records_nothing(app, key, endpoint):
    path = {r.endpoint: r.rule for r in app.url_map.iter_rules()}[endpoint]
    client = app.test_client()
    before = _state(app)
    answer = client.post(
        path.replace("<ruleset_id>", RULESET),
        json=UNLABELLED[endpoint],
        headers={"Authorization": f"Bearer {key}"},
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)
    after = _state(app)
    assert after["hits"] == before["hits"] + 1
    assert (after["entries"], after["rulings"]) == (before["entries"], before["rulings"])
