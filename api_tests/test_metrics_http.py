"""/metrics under gunicorn with two workers: the counts of all workers add up in every scrape.
The same server logs JSON lines (ADJUDICATOR_LOG_FORMAT=json), and no line holds a word."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from adjudicator.tests.test_metrics import rulings, value
from api_tests.conftest import start_server

WORDS = [["hej", "ord"], ["hej", "zyxqvw"]]  # zyxqvw: a phony, to be found in no log line
REQUESTS = 40


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = start_server(
        tmp_path_factory.mktemp("metrics"),
        ADJUDICATOR_METRICS="1",
        ADJUDICATOR_WORKERS="2",
        ADJUDICATOR_LOG_FORMAT="json",
        ADJUDICATOR_JURY_LIMIT="on",  # the jury limit counts at this event
    )
    try:
        yield server
    finally:
        server.stop()


def _challenge(server, i: int) -> int:
    # no session: a new connection each time, so the two workers share the load
    r = requests.post(
        server.api("/rulesets/ssf-1999/challenge"), json={"words": WORDS[i % 2]}, timeout=10
    )
    return r.status_code


def test_counts_add_up_across_workers(served):
    before = requests.get(served.url + "/metrics", timeout=10).text
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(lambda i: _challenge(served, i), range(REQUESTS)))
    assert statuses == [200] * REQUESTS
    labels = {"ruleset": "ssf-1999", "kind": "challenge"}
    endpoint = {"endpoint": "/api/v1/rulesets/<ruleset_id>/challenge", "method": "POST"}
    for _ in range(8):  # each scrape lands on either worker and must see every worker's counts
        text = requests.get(served.url + "/metrics", timeout=10).text
        for verdict in ("valid", "invalid"):
            got = value(text, "adjudicator_rulings_total", verdict=verdict, **labels)
            assert got - value(before, "adjudicator_rulings_total", verdict=verdict, **labels) == (
                REQUESTS // 2
            )
        served_now = value(text, "adjudicator_requests_total", status="200", **endpoint)
        assert served_now - value(
            before, "adjudicator_requests_total", status="200", **endpoint
        ) == (REQUESTS)
        assert "zyxqvw" not in text.lower()


def test_only_rulings_given_are_counted_whichever_worker_answers(served):
    """Issue 27, break 6: a jury query past the limit (409) and the replays of a retried
    request gave no ruling, so no verdict is counted for them."""
    before = requests.get(served.url + "/metrics", timeout=10).text
    query = {"words": ["woord"], "game": "metrics-1", "player": "Anna"}
    jury = served.api("/rulesets/sbnl-punten/challenge")
    statuses = [requests.post(jury, json=query, timeout=10).status_code for _ in range(11)]
    assert statuses == [200] * 10 + [409]
    retried = {"Idempotency-Key": "metrics-retry-1"}
    challenge = served.api("/rulesets/ssf-1999/challenge")
    for _ in range(3):
        answer = requests.post(challenge, json={"words": ["hej"]}, headers=retried, timeout=10)
        assert answer.status_code == 200
    after = requests.get(served.url + "/metrics", timeout=10).text
    assert rulings(after, "sbnl-punten") - rulings(before, "sbnl-punten") == 10
    assert rulings(after, "ssf-1999") - rulings(before, "ssf-1999") == 1


def test_json_logs_never_hold_a_word(served):
    requests.post(
        served.api("/rulesets/ssf-1999/challenge"), json={"words": ["zyxqvw"]}, timeout=10
    )
    requests.post(
        served.api("/rulesets/ssf-1999/challenge"), json={"words": ["zyx1qvw"]}, timeout=10
    )
    requests.get(served.api("/rulesets/ssf-1999/exchange-allowed?bag=zyxqvw"), timeout=10)
    served.stop()
    lines = [line for line in served.log.read_text("utf-8").splitlines() if line.strip()]
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    access = [e for e in entries if e.get("message") == "request"]
    assert {"time", "level", "pid", "method", "path", "status", "ms"} <= set(access[-1])
    assert any(e["path"] == "/api/v1/rulesets/ssf-1999/challenge" for e in access)
    assert any(e["status"] == 400 for e in access)
    assert all("zyx" not in line.lower() for line in lines)
