"""nginx (deploy/nginx.conf.template) in front of real gunicorn processes: body limits, rate
limits, slow clients, a killed worker, a stopped instance. Each test is bounded in requests
and seconds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import orjson
import pytest
import requests

from api_tests.conftest import MARK, exchange, free_port, start_server
from api_tests.front import SlowClients, need_nginx, start_nginx
from api_tests.load import MIX, Load, Request, summary, wait_for

# Slow (nginx and gunicorn under load, workers killed): `make test-quick` leaves these out.
pytestmark = pytest.mark.slow

UNLIMITED = {"rate": 100000, "burst": 100000, "connections": 1000}  # every test client is 127.0.0.1


@pytest.fixture(scope="module", autouse=True)
def _nginx_before_any_server():
    """Skip (fail under REQUIRE_NGINX=1) before a server starts, not after."""
    need_nginx()


@pytest.fixture(scope="module")
def backend(tmp_path_factory):
    srv = start_server(tmp_path_factory.mktemp("front-gunicorn"))
    yield srv
    srv.stop()


def _upstream(server) -> str:
    return urlparse(server.url).netloc


def test_body_limits_per_endpoint_and_problem_documents(backend, tmp_path):
    front = start_nginx(tmp_path / "nginx", [_upstream(backend)])
    try:
        big = "x" * 20_000
        r = requests.post(front.api("/rulesets/ssf-1999/challenge"), data=big)
        assert r.status_code == 413 and r.headers["content-type"] == "application/problem+json"
        assert r.json()["code"] == "body_too_large" and r.json()["status"] == 413
        r = requests.post(  # a whole record may be this big: it reaches the service
            front.api("/rulesets/ssf-1999/games/verify"),
            data=big,
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code in (400, 422) and r.json()["code"] != "body_too_large"
        r = requests.post(front.api("/rulesets/ssf-1999/games/verify"), data="x" * 300_000)
        assert r.status_code == 413 and r.json()["code"] == "body_too_large"
        r = requests.post(  # the Idempotency-Key path keeps the same limits
            front.api("/rulesets/ssf-1999/challenge"), data=big, headers={"Idempotency-Key": "k"}
        )
        assert r.status_code == 413
        r = requests.post(front.api("/rulesets/ssf-1999/challenge"), json={"words": ["hej"]})
        assert r.status_code == 200 and r.json()["ruling"] == "valid"
    finally:
        front.stop()


@pytest.mark.parametrize(
    "request_bytes, status, code",
    [
        (
            b"GET /api/v1/healthz?q=" + MARK * 300 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
            414,
            "request_line_too_long",
        ),
        (
            b"GET /api/v1/healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + MARK * 300 + b"\r\n\r\n",
            431,
            "headers_too_large",
        ),
        (b"GET /api/v1/healthz " + MARK + b"\r\nHost: x\r\n\r\n", 400, "bad_request"),
        # the addresses those answers live at are nginx's own, and no client's to ask for
        (
            b"GET /.problem/bad_request?"
            + MARK
            + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            404,
            "not_found",
        ),
    ],
)
def test_nginx_refusals_of_the_request_line_and_headers_are_problems(
    backend, tmp_path, request_bytes, status, code
):
    front = start_nginx(tmp_path / "nginx", [_upstream(backend)])
    try:
        head, _, body = exchange(front.url, request_bytes).partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 %d " % status), head
        assert b"content-type: application/problem+json" in head.lower()
        problem = orjson.loads(body)
        assert (problem["status"], problem["code"]) == (status, code)
        assert b"xssmark" not in head + body  # nothing the client sent comes back
    finally:
        front.stop()


def test_the_services_own_404_passes_through_unchanged(backend, tmp_path):
    front = start_nginx(tmp_path / "nginx", [_upstream(backend)])
    try:
        r = requests.get(front.api("/no-such-thing"), timeout=10)
        served = requests.get(backend.api("/no-such-thing"), timeout=10).json()["detail"]
        assert r.status_code == 404 and r.json()["detail"] == served
    finally:
        front.stop()


def test_no_instance_answering_is_the_documented_503_problem(tmp_path):
    """Issue 35 (break 11): with no instance up, nginx answered 502 (with the 503 document), and
    with an `Idempotency-Key`, which the tablet always sends, its own HTML page. Every request,
    on every location, gets the documented 503 `service_unavailable` problem."""
    nobody = f"127.0.0.1:{free_port()}"  # nothing listens there
    front = start_nginx(tmp_path / "nginx", [nobody])
    requests_sent = [
        ("GET", "/healthz"),
        ("GET", "/rulesets/ssf-1999"),
        ("POST", "/rulesets/ssf-1999/challenge"),
        ("POST", "/rulesets/ssf-1999/moves/validate"),
        ("POST", "/rulesets/ssf-1999/games/verify"),
    ]
    try:
        for method, path in requests_sent:
            for headers in ({}, {"Idempotency-Key": "k-" + method + path}):
                r = requests.request(
                    method, front.api(path), json={"words": ["hej"]}, headers=headers, timeout=30
                )
                where = (method, path, headers)
                assert r.status_code == 503, (where, r.status_code, r.text[:80])
                assert r.headers["content-type"] == "application/problem+json", where
                assert r.headers["Retry-After"] == "1", where
                problem = r.json()
                assert (problem["status"], problem["code"]) == (503, "service_unavailable"), where
    finally:
        front.stop()


def test_per_client_rate_limit_answers_429(backend, tmp_path):
    front = start_nginx(tmp_path / "nginx", [_upstream(backend)], rate=5, burst=5)
    try:
        with requests.Session() as s:
            statuses = [s.get(front.api("/healthz")).status_code for _ in range(30)]
        assert statuses.count(200) >= 5 and statuses.count(429) >= 15
        r = requests.get(front.api("/healthz"))
        assert r.status_code == 429 and r.json()["code"] == "too_many_requests"
        assert r.headers["Retry-After"] == "1"
    finally:
        front.stop()


def test_slow_clients_do_not_starve_others(backend, tmp_path):
    front = start_nginx(tmp_path / "nginx", [_upstream(backend)], **UNLIMITED)
    try:
        host, port = urlparse(front.url).hostname, urlparse(front.url).port
        with SlowClients(host, port, count=50) as slow:
            assert slow.opened == 50
            load = Load(front.url, threads=2, pause=0.02, max_requests=300, max_seconds=30)
            with load:
                outcomes = load.wait()
        fast = [o for o in outcomes if o.ok and o.end - o.start < 1.0]
        assert len(outcomes) == 300, summary(outcomes)
        assert len(fast) >= 0.99 * len(outcomes), summary(outcomes)
    finally:
        front.stop()


def test_a_worker_killed_under_load_loses_no_request(tmp_path):
    server = start_server(tmp_path, ADJUDICATOR_WORKERS="2")
    front = None
    try:
        front = start_nginx(tmp_path / "nginx", [_upstream(server)], **UNLIMITED)
        with Load(front.url, threads=3, max_requests=3000, max_seconds=20) as load:
            for _ in range(2):
                time.sleep(1)
                os.kill(server.workers()[0], signal.SIGKILL)
            time.sleep(1)
        assert len(load.outcomes) > 50 and not load.failures(), summary(load.outcomes)
        ready = requests.get(server.api("/readyz")).json()
        assert ready["workers"]["abnormal_exits"] == 2 and ready["ready"] is True
        os.kill(server.workers()[0], signal.SIGKILL)  # the third within a minute: a crash loop
        time.sleep(1)
        r = requests.get(server.api("/readyz"))
        assert r.status_code == 503 and r.json()["workers"]["abnormal_exits"] == 3
    finally:
        if front is not None:
            front.stop()
        server.stop()


def test_stopping_one_instance_under_load_loses_no_request(tmp_path, postgres_url):
    """Two instances (boxes) sharing one PostgreSQL store behind one nginx upstream."""
    adjudicator = Path(sys.executable).with_name("adjudicator")
    migrated = subprocess.run(
        [str(adjudicator), "db", "upgrade", "--database-url", postgres_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert migrated.returncode == 0, migrated.stderr
    shared = {"ADJUDICATOR_WORKERS": "1", "ADJUDICATOR_DATABASE_URL": postgres_url}
    started = []
    front = None
    try:
        one = start_server(tmp_path / "one", **shared)
        started.append(one)
        two = start_server(tmp_path / "two", **shared)
        started.append(two)
        for server in (one, two):  # each instance keeps its own control socket and pidfile
            ctl = server.run_dir / "gunicorn.ctl"
            wait_for(ctl.is_socket, 10, f"{ctl}")
            assert (server.run_dir / "gunicorn.pid").read_text().strip() == str(server.process.pid)
        front = start_nginx(tmp_path / "nginx", [_upstream(one), _upstream(two)], **UNLIMITED)
        mix = [*MIX, Request("GET", "/api/v1/readyz")]
        with Load(front.url, mix=mix, threads=3, max_requests=3000, max_seconds=20) as load:
            time.sleep(1)
            one.process.send_signal(signal.SIGTERM)
            time.sleep(1.5)
            one.process.kill()
            time.sleep(0.5)
        assert len(load.outcomes) > 50 and not load.failures(), summary(load.outcomes)
        r = requests.get(front.api("/rulesets/ssf-1999"))
        assert r.status_code == 200
    finally:
        if front is not None:
            front.stop()
        for server in started:
            server.stop()
