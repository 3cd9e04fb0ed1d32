"""The store over HTTP against a real gunicorn, on SQLite and on PostgreSQL: the audit log and
its verification (a tampered row included), idempotent retries, the jury limit, and durability
of an acknowledged ruling through SIGKILL of the workers and of the database."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from sqlalchemy import create_engine, text

from api_tests.conftest import Server, address, start_server, store_cli
from conftest import new_cluster
from testsupport.pgcluster import Cluster

# Slow (servers killed and restarted on both stores, two minutes): `make test-quick` leaves these out.
pytestmark = pytest.mark.slow

JURY = "/rulesets/sbnl-punten/challenge"


def upgrade(url: str) -> None:
    """The one documented command, as an operator runs it."""
    done = store_cli(url, "db", "upgrade")
    assert done.returncode == 0, done.stderr


@pytest.fixture
def served(database_url, tmp_path) -> Iterator[tuple[Server, str]]:
    upgrade(database_url)
    # an event that counts jury queries (sbnl-punten's own rule: at tournaments only)
    server = start_server(
        tmp_path, ADJUDICATOR_DATABASE_URL=database_url, ADJUDICATOR_JURY_LIMIT="on"
    )
    yield server, database_url
    server.stop()


def post(server: Server, path: str, body: dict, **headers: str) -> requests.Response:
    return requests.post(server.api(path), json=body, headers=headers, timeout=10)


def export(url: str) -> list[dict]:
    done = store_cli(url, "audit", "export", "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_ruling_is_in_the_verified_chain(served):
    server, url = served
    ids = [
        post(server, "/rulesets/ssf-1999/challenge", {"words": ["HEJ", "QXZVQ"]}).json(),
        post(server, JURY, {"words": ["WOORD"], "game": "r1-t3", "player": "Anna"}).json(),
        post(server, "/rulesets/dsf-2015/moves/validate", {"play": "8H HEJ"}).json(),
    ]
    log = export(url)
    assert [e["ruling_id"] for e in log] == [a["ruling_id"] for a in ids]
    assert [e["kind"] for e in log] == ["challenge", "jury", "move"]
    done = store_cli(url, "audit", "verify")
    assert done.returncode == 0 and "3 entries; chain intact" in done.stdout


def test_a_damaged_log_refuses_every_ruling_and_is_not_ready(served):
    """Issue 35, item 4: with the log's INSERT trigger dropped, every ruling was a 500 with an
    IntegrityError in the log (the first one even wrote its entry beside the chain). Now each
    worker answers 503 `store_refuses_writes`, writes nothing, and readyz names the cause."""
    server, url = served
    assert post(server, "/rulesets/ssf-1999/challenge", {"words": ["HEJ"]}).status_code == 200
    engine = create_engine(url)
    with engine.begin() as conn:
        on = "" if url.startswith("sqlite") else " ON rulings"
        conn.execute(text(f"DROP TRIGGER rulings_insert_at_head{on}"))
    engine.dispose()
    rulings = [
        ("/rulesets/ssf-1999/challenge", {"words": ["ORD"]}),
        (JURY, {"words": ["WOORD"], "game": "g1", "player": "Anna"}),
        ("/rulesets/dsf-2015/moves/validate", {"play": "8H HEJ"}),
    ] * 3  # every worker meets it
    for path, body in rulings:
        refused = post(server, path, body, **{"Idempotency-Key": f"{path}-{len(body)}"})
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "store_refuses_writes"
        assert refused.json()["cause"] == "audit_log_damaged"
    ready = requests.get(server.api("/readyz"), timeout=30)
    assert ready.status_code == 503
    assert ready.json()["store"] == {
        "reachable": True,
        "writable": False,
        "cause": "audit_log_damaged",
    }
    assert len(export(url)) == 1  # nothing written half-way
    logged = server.log.read_text("utf-8", "replace")
    assert "IntegrityError" not in logged and "Traceback" not in logged
    assert "rulings_insert_at_head" in logged  # the operator's log says what is wrong


def test_concurrent_rulings_are_each_answered_once_and_logged(served):
    """16 clients at once over 2 workers of 8 threads, so rulings share commits (group commit):
    every request is answered 200 within its timeout, every ruling id is distinct, and the log
    holds exactly those rulings. (The rare interleavings are forced one by one in
    adjudicator/audit/tests/test_groupcommit.py; this is the whole path under real load.)"""
    server, url = served

    def client(n: int) -> list[str]:
        with requests.Session() as session:
            answers = [
                session.post(
                    server.api("/rulesets/ssf-1999/challenge"),
                    json={"words": ["HEJ", "QX" + chr(65 + n) + chr(65 + i)]},
                    timeout=10,
                )
                for i in range(20)
            ]
        assert [a.status_code for a in answers] == [200] * len(answers)
        return [a.json()["ruling_id"] for a in answers]

    with ThreadPoolExecutor(max_workers=16) as pool:
        ids = [ruling for answers in pool.map(client, range(16)) for ruling in answers]
    assert len(set(ids)) == len(ids) == 320
    assert sorted(e["ruling_id"] for e in export(url)) == sorted(ids)
    done = store_cli(url, "audit", "verify")
    assert done.returncode == 0 and "320 entries; chain intact" in done.stdout


def _tamper(url: str) -> None:
    """Edit a verdict behind the service's back, as someone with the database's password could
    (the append-only trigger must be dropped first: it refuses the UPDATE)."""
    if url.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
            try:
                db.execute("UPDATE rulings SET verdict = 'valid' WHERE seq = 2")
                raise AssertionError("the trigger let an UPDATE through")
            except sqlite3.DatabaseError as exc:
                assert "append-only" in str(exc)
            db.execute("DROP TRIGGER rulings_no_update")
            db.execute("UPDATE rulings SET verdict = 'valid' WHERE seq = 2")
    else:
        import psycopg

        conninfo = url.replace("postgresql+psycopg", "postgresql")
        with psycopg.connect(conninfo, autocommit=True) as db:
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                db.execute("UPDATE rulings SET verdict = 'valid' WHERE seq = 2")
            db.execute("DROP TRIGGER rulings_no_change ON rulings")
            db.execute("UPDATE rulings SET verdict = 'valid' WHERE seq = 2")


def test_a_tampered_row_is_named(served):
    server, url = served
    for words in (["HEJ"], ["QXZVQ"], ["ORD"]):
        assert post(server, "/rulesets/dsf-2015/challenge", {"words": words}).status_code == 200
    ruling = export(url)[1]["ruling_id"]
    _tamper(url)
    done = store_cli(url, "audit", "verify")
    assert done.returncode == 1
    assert f"entry seq 2 (ruling {ruling}" in done.stdout and "edited" in done.stdout
    assert "entry seq 1 " not in done.stdout and "entry seq 3 " not in done.stdout


def test_a_retry_returns_the_original_ruling_once(served):
    server, url = served
    body = {"words": ["WOORD"], "game": "g7", "player": "Bo"}
    first = post(server, JURY, body, **{"Idempotency-Key": "tablet-3-17"})
    # several retries: whichever worker takes them, the answer is the first one
    retries = [post(server, JURY, body, **{"Idempotency-Key": "tablet-3-17"}) for _ in range(4)]
    assert all(r.content == first.content for r in retries)
    assert all(r.headers["Idempotent-Replayed"] == "true" for r in retries)
    assert [e["ruling_id"] for e in export(url)] == [first.json()["ruling_id"]]
    other = post(server, JURY, {**body, "words": ["HALLO"]}, **{"Idempotency-Key": "tablet-3-17"})
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert other.headers["Content-Type"] == "application/problem+json"
    nxt = post(server, JURY, body, **{"Idempotency-Key": "tablet-3-18"}).json()
    assert nxt["queries_remaining"] == first.json()["queries_remaining"] - 1


def post_from(server: Server, source: str, path: str, body: dict, **headers: str) -> dict:
    """POST from the loopback address `source` (all of 127/8 reaches the server): another
    client as the server sees it, with no proxy in front."""
    host, port = address(server.url)
    connection = http.client.HTTPConnection(host, port, timeout=10, source_address=(source, 0))
    try:
        sent = {"Content-Type": "application/json", **headers}
        connection.request("POST", f"/api/v1{path}", json.dumps(body), sent)
        answer = connection.getresponse()
        assert answer.status == 200, answer.read()
        return {"body": answer.read(), "replayed": answer.getheader("Idempotent-Replayed")}
    finally:
        connection.close()


def test_anonymous_clients_do_not_share_idempotency_keys(served):
    """Issue 27, break 8: in open mode a client sending another's key and body gets a ruling of
    its own (logged), never the other's ruling id; its own retry is still a replay."""
    server, url = served
    path, body, key = "/rulesets/ssf-1999/challenge", {"words": ["HEJ"]}, {"Idempotency-Key": "k"}
    mine = post_from(server, "127.0.0.1", path, body, **key)
    theirs = post_from(server, "127.0.0.2", path, body, **key)
    again = post_from(server, "127.0.0.1", path, body, **key)
    ids = [json.loads(a["body"])["ruling_id"] for a in (mine, theirs)]
    assert ids[0] != ids[1] and theirs["replayed"] is None
    assert again["body"] == mine["body"] and again["replayed"] == "true"
    assert [e["ruling_id"] for e in export(url)] == ids


def test_the_jury_limit_holds_across_workers(served):
    server, url = served
    body = {"words": ["WOORD"], "event": "NK", "game": "r2-t5", "player": "Cees"}
    with requests.Session() as a, requests.Session() as b:  # two connections: both workers
        answers = [
            (a if i % 2 else b).post(server.api(JURY), json=body, timeout=10) for i in range(11)
        ]
    assert [r.json().get("queries_remaining") for r in answers[:10]] == list(range(9, -1, -1))
    refused = answers[10]
    assert refused.status_code == 409 and refused.json()["code"] == "jury_limit_reached"
    assert "Limiet bereikt" in refused.json()["detail"]
    assert len(export(url)) == 10


def _kill_gunicorn(server: Server) -> None:
    pids = subprocess.run(
        ["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True
    ).stdout.split()
    for pid in [*map(int, pids), server.process.pid]:
        os.kill(pid, signal.SIGKILL)
    server.process.wait(timeout=10)


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    """A cluster of its own, since this test kills it."""
    cluster = new_cluster()
    yield cluster
    cluster.stop()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_acknowledged_ruling_survives_sigkill(kind, tmp_path, request):
    cluster = request.getfixturevalue("own_cluster") if kind == "postgresql" else None
    url = cluster.create_database("durable") if cluster else f"sqlite:///{tmp_path / 'a.db'}"
    upgrade(url)
    server = start_server(tmp_path, ADJUDICATOR_DATABASE_URL=url)
    try:
        answer = post(server, "/rulesets/ssf-1999/challenge", {"words": ["HEJ"]}).json()
        _kill_gunicorn(server)  # right after the answer: the workers and the master
        if cluster:
            cluster.kill()  # the postmaster and every backend, SIGKILL
            time.sleep(0.2)
            cluster.start()  # crash recovery replays the WAL
    finally:
        server.stop()
    log = export(url)
    assert [e["ruling_id"] for e in log] == [answer["ruling_id"]]
    assert store_cli(url, "audit", "verify").returncode == 0
    restarted = start_server(tmp_path, ADJUDICATOR_DATABASE_URL=url)
    try:
        post(restarted, "/rulesets/ssf-1999/challenge", {"words": ["ORD"]})
    finally:
        restarted.stop()
    assert [e["seq"] for e in export(url)] == [1, 2]


def test_a_database_outage_is_503_and_not_ready_until_it_heals(own_cluster, tmp_path):
    """PostgreSQL dies under a running service (SIGKILL of the postmaster and its backends):
    a ruling that cannot be recorded is not given, but refused with 503 `store_unavailable` and
    Retry-After, readiness says not ready (so nginx or a balancer can route around the box),
    and when the database is back the same service rules again, on the same chain. It was a
    500, with readiness still 200."""
    url = own_cluster.create_database("outage")
    upgrade(url)
    server = start_server(tmp_path, ADJUDICATOR_DATABASE_URL=url)
    challenge = "/rulesets/ssf-1999/challenge"
    try:
        first = post(server, challenge, {"words": ["HEJ"]}, **{"Idempotency-Key": "k1"})
        assert first.status_code == 200
        own_cluster.kill()
        refused = post(server, challenge, {"words": ["ORD"]}, **{"Idempotency-Key": "k2"})
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "store_unavailable"
        assert int(refused.headers["Retry-After"]) > 0
        ready = requests.get(server.api("/readyz"), timeout=30)
        down = {"reachable": False, "writable": False, "cause": None}
        assert ready.status_code == 503 and ready.json()["store"] == down
        own_cluster.start()  # crash recovery
        retried = post(server, challenge, {"words": ["ORD"]}, **{"Idempotency-Key": "k2"})
        assert retried.status_code == 200 and "Idempotent-Replayed" not in retried.headers
        ready = requests.get(server.api("/readyz"), timeout=30)
        up = {"reachable": True, "writable": True, "cause": None}
        assert ready.status_code == 200 and ready.json()["store"] == up
    finally:
        server.stop()
    log = export(url)
    assert [e["ruling_id"] for e in log] == [first.json()["ruling_id"], retried.json()["ruling_id"]]
    assert store_cli(url, "audit", "verify").returncode == 0
