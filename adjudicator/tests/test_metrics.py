"""/metrics in process: off by default, operators only, counts per ruling, never a word."""

from __future__ import annotations

import sqlite3

import pytest
from prometheus_client.parser import text_string_to_metric_families

from adjudicator import create_app

CHALLENGE = "/api/v1/rulesets/{}/challenge"
MOVE = "/api/v1/rulesets/dsf-2015/moves/validate"


def samples(text: str) -> dict[tuple[str, tuple], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(text: str, name: str, **labels: str) -> float:
    return samples(text).get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def metrics_client(lexicon_dir):
    config = {"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "METRICS": "1"}
    return create_app(config).test_client()


def scrape(client) -> str:
    r = client.get("/metrics")
    assert r.status_code == 200 and r.mimetype == "text/plain"
    return r.get_data(as_text=True)


def test_metrics_are_off_by_default(client):
    assert client.get("/metrics").status_code == 404


def test_rulings_counted_per_ruling_and_verdict_never_words(metrics_client):
    before = scrape(metrics_client)
    for words in (["hej", "ord"], ["hej", "qxzzy"], ["ord"]):
        assert (
            metrics_client.post(CHALLENGE.format("ssf-1999"), json={"words": words}).status_code
            == 200
        )
    metrics_client.post(CHALLENGE.format("ssf-1999"), json={"words": []})  # 400: no ruling
    after = scrape(metrics_client)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    ruling = {"ruleset": "ssf-1999", "kind": "challenge"}
    assert delta("adjudicator_rulings_total", verdict="valid", **ruling) == 2
    assert delta("adjudicator_rulings_total", verdict="invalid", **ruling) == 1  # one per play
    endpoint = "/api/v1/rulesets/<ruleset_id>/challenge"
    ok = {"endpoint": endpoint, "method": "POST"}
    assert delta("adjudicator_requests_total", status="200", **ok) == 3
    assert delta("adjudicator_requests_total", status="400", **ok) == 1
    assert delta("adjudicator_request_duration_seconds_count", endpoint=endpoint) == 4
    for word in ("HEJ", "hej", "QXZZY", "qxzzy", "ORD"):
        assert word not in after


def test_audit_commits_are_observed(metrics_client):
    before = scrape(metrics_client)
    for _ in range(3):  # one request at a time: each ruling commits alone
        r = metrics_client.post(CHALLENGE.format("ssf-1999"), json={"words": ["hej"]})
        assert r.status_code == 200
    after = scrape(metrics_client)

    def delta(name):
        return value(after, name) - value(before, name)

    assert delta("adjudicator_audit_batch_rulings_count") == 3
    assert delta("adjudicator_audit_batch_rulings_sum") == 3
    assert delta("adjudicator_audit_lock_wait_seconds_count") == 3
    assert delta("adjudicator_audit_lock_held_seconds_count") == 3
    assert delta("adjudicator_audit_lock_held_seconds_sum") > 0


def test_moves_count_only_legal_plays(metrics_client):
    before = scrape(metrics_client)
    url = "/api/v1/rulesets/dsf-2015/moves/validate"
    metrics_client.post(url, json={"play": "8H KAT"})
    metrics_client.post(url, json={"play": "1A KAT"})  # illegal: no ruling
    after = scrape(metrics_client)
    labels = {"ruleset": "dsf-2015", "kind": "move", "verdict": "valid"}
    assert (
        value(after, "adjudicator_rulings_total", **labels)
        - value(before, "adjudicator_rulings_total", **labels)
        == 1
    )
    assert "path" not in after and "8H" not in after


def rulings(text: str, ruleset: str) -> float:
    """Every ruling counted under `ruleset`, whatever its kind and verdict."""
    return sum(
        s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name == "adjudicator_rulings_total" and s.labels["ruleset"] == ruleset
    )


@pytest.fixture
def make_metrics_app(lexicon_dir, tmp_path):
    def make(**config):
        settings = {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "METRICS": "1",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'store.db'}",
        }
        return create_app(settings | config)

    return make


# Issue 27, break 6: a ruling refused on its way to the audit log was never given, so no verdict
# is counted for it: past the jury's limit (409), past the rate limit (429), or with the store
# down (503).


def test_a_jury_query_past_the_limit_is_not_counted(make_metrics_app):
    client = make_metrics_app(JURY_LIMIT="on").test_client()  # counted at this event
    before = scrape(client)
    query = {"words": ["woord"], "game": "g1", "player": "Anna"}
    url = CHALLENGE.format("sbnl-punten")
    statuses = [client.post(url, json=query).status_code for _ in range(11)]
    assert statuses == [200] * 10 + [409]
    assert rulings(scrape(client), "sbnl-punten") - rulings(before, "sbnl-punten") == 10


def test_a_ruling_past_the_rate_limit_is_not_counted(make_metrics_app):
    from adjudicator.auth.tests.conftest import add_key, bearer

    app = make_metrics_app(MODE="tournament", RATE_RULINGS_PER_MINUTE=1)
    client, key = app.test_client(), add_key(app)
    before = scrape(client)
    challenged = [
        client.post(CHALLENGE.format("dsf-2015"), json={"words": ["ord"]}, headers=bearer(key))
        for _ in range(2)
    ]
    assert [answer.status_code for answer in challenged] == [200, 429]
    moved = client.post(MOVE, json={"play": "8H KAT"}, headers=bearer(key))
    assert moved.status_code == 429
    assert rulings(scrape(client), "dsf-2015") - rulings(before, "dsf-2015") == 1


def test_a_ruling_the_store_cannot_record_is_not_counted(make_metrics_app, monkeypatch):
    app = make_metrics_app()
    client = app.test_client()

    def store_down(work):
        raise sqlite3.OperationalError("disk I/O error")  # one of the store's outages

    monkeypatch.setattr(app.extensions["group_commit"], "submit", store_down)
    before = scrape(client)
    assert client.post(CHALLENGE.format("dsf-2015"), json={"words": ["ord"]}).status_code == 503
    assert client.post(MOVE, json={"play": "8H KAT"}).status_code == 503
    assert rulings(scrape(client), "dsf-2015") == rulings(before, "dsf-2015")


def test_a_replayed_ruling_is_not_counted_again(metrics_client):
    """A retry with the same Idempotency-Key gets the recorded answer: no second ruling."""
    before = scrape(metrics_client)
    headers = {"Idempotency-Key": "table-3-0001"}
    for _ in range(3):
        answer = metrics_client.post(
            CHALLENGE.format("ssf-1999"), json={"words": ["hej"]}, headers=headers
        )
        assert answer.status_code == 200
    assert rulings(scrape(metrics_client), "ssf-1999") - rulings(before, "ssf-1999") == 1


def test_unmatched_paths_are_one_label(metrics_client):
    metrics_client.get("/api/v1/secret-word-zyzzyva")
    text = scrape(metrics_client)
    assert "zyzzyva" not in text
    assert (
        value(
            text, "adjudicator_requests_total", endpoint="<unmatched>", method="GET", status="404"
        )
        >= 1
    )


def test_lexicon_and_ruleset_identity_as_labels(metrics_client):
    text = scrape(metrics_client)
    found = [
        s.labels
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name == "adjudicator_lexicon_info"
    ]
    assert {labels["lexicon"] for labels in found} == {
        "wdanish",
        "wdanish-egennavne",
        "wswedish",
        "wdutch",
        "wamerican-huge",
    }
    assert all(len(labels["sha256"]) == 64 and labels["stand_in"] == "true" for labels in found)
    assert value(text, "adjudicator_ruleset_available", ruleset="ssf-1999", lexicon="wswedish") == 1


def test_only_allowed_networks_may_scrape(lexicon_dir):
    config = {"LEXICON_DIR": str(lexicon_dir), "METRICS": True, "METRICS_ALLOW": "10.0.0.0/8"}
    client = create_app(config).test_client()
    r = client.get("/metrics")  # the test client comes from 127.0.0.1
    assert r.status_code == 403 and r.json["code"] == "metrics_forbidden"
    assert client.get("/metrics", environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 200
