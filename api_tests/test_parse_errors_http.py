"""Requests gunicorn refuses before Flask sees them (a request line over the limit, a malformed
request line or header, too many or too large headers) get a problem document like every other
error, from the threaded worker and the sync one (`ADJUDICATOR_THREADS=1`) alike, at the status
gunicorn chose, with nothing of the request quoted back (gunicorn's own page quotes it)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import orjson
import pytest

from adjudicator.problems import PROBLEM_MIMETYPE, PROBLEM_TYPE_PREFIX
from api_tests.conftest import MARK, Server, exchange, start_server


@pytest.fixture(scope="module")
def sync_server(tmp_path_factory) -> Iterator[Server]:
    """The service with one thread per worker, so gunicorn's sync worker (our subclass)."""
    srv = start_server(
        tmp_path_factory.mktemp("sync"), ADJUDICATOR_THREADS="1", ADJUDICATOR_WORKERS="1"
    )
    yield srv
    srv.stop()


@pytest.fixture(params=["gthread", "sync"])
def any_server(request) -> Server:
    return request.getfixturevalue("server" if request.param == "gthread" else "sync_server")


def _problem(data: bytes, status: int, code: str) -> str:
    """Check the answer is the problem document for `status` and `code`; its detail."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith(f"HTTP/1.1 {status} "), data[:300]
    headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines[1:])}
    assert headers["content-type"] == PROBLEM_MIMETYPE
    assert headers["cache-control"] == "no-store"
    assert int(headers["content-length"]) == len(body)
    problem = orjson.loads(body)
    assert set(problem) == {"type", "title", "status", "detail", "code"}
    assert problem["status"] == status and problem["code"] == code
    assert problem["type"] == PROBLEM_TYPE_PREFIX + code and problem["title"]
    assert b"xssmark" not in data and b"script" not in data  # nothing quoted back
    assert b"<" not in data and b"Traceback" not in data  # no HTML, no traceback
    return problem["detail"]


def test_the_sync_server_runs_the_sync_worker(sync_server):
    assert "Using worker: adjudicator.process.gunicorn_worker.OneWriteSyncWorker" in (
        sync_server.log.read_text(errors="replace")
    )


def test_a_request_line_over_the_limit_is_a_414_problem(any_server):
    target = b"/api/v1/healthz?q=" + MARK * 200  # about 6,600 bytes; the limit is 4,094
    data = exchange(any_server.url, b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    detail = _problem(data, 414, "request_line_too_long")
    assert detail == "the request line is too long (limit 4094 bytes)"


@pytest.mark.parametrize(
    "line, says",
    [
        (b"GET /" + MARK, "request line is malformed"),  # no HTTP version
        (b"GET " + MARK + b" HTTP/1.1", "request line is malformed"),  # a target without "/"
        (b"G<ET> /" + MARK + b" HTTP/1.1", "request method is not valid"),
        (b"GET /" + MARK + b" HTTP/7.<script>", "HTTP version is not valid"),
    ],
)
def test_a_malformed_request_line_is_a_400_problem(any_server, line, says):
    data = exchange(any_server.url, line + b"\r\nHost: x\r\n\r\n")
    assert says in _problem(data, 400, "malformed_request_line")


@pytest.mark.parametrize(
    "header, says",
    [
        (b"X-No-Colon " + MARK, "a request header is malformed"),
        (b"X-" + MARK + b": 1", "a request header's name is not valid"),
    ],
)
def test_a_malformed_header_is_a_400_problem(any_server, header, says):
    request = b"GET /api/v1/healthz HTTP/1.1\r\nHost: x\r\n" + header + b"\r\n\r\n"
    assert says in _problem(exchange(any_server.url, request), 400, "malformed_header")


def test_a_header_over_the_limit_is_a_431_problem(any_server):
    header = b"X-Long: " + MARK * 300  # about 10,000 bytes; the limit is 8,190
    request = b"GET /api/v1/healthz HTTP/1.1\r\nHost: x\r\n" + header + b"\r\n\r\n"
    detail = _problem(exchange(any_server.url, request), 431, "headers_too_large")
    assert detail == "a request header is too long (limit 8190 bytes)"


def test_too_many_headers_is_a_431_problem(any_server):
    headers = b"".join(b"X-%d: " % i + MARK + b"\r\n" for i in range(120))  # limit 100
    request = b"GET /api/v1/healthz HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n"
    detail = _problem(exchange(any_server.url, request), 431, "headers_too_large")
    assert detail == "the request has too many headers (limit 100)"


def test_the_log_names_a_refusal_and_quotes_nothing(any_server):
    """gunicorn's own warning quotes the request line; ours names the refusal instead."""
    _problem(exchange(any_server.url, b"GET " + MARK + b" HTTP/1.1\r\nHost: x\r\n\r\n"), 400,
             "malformed_request_line")  # fmt: skip
    exchange(any_server.url, b"GET /api/v1/healthz HTTP/1.1\r\nX-" + MARK + b": 1\r\n\r\n")
    deadline = time.monotonic() + 5
    while True:  # the worker's log line may land a moment after its answer
        log = any_server.log.read_text(errors="replace")
        if (
            log.count("InvalidHeaderName (the request is not quoted)")
            or time.monotonic() > deadline
        ):
            break
        time.sleep(0.05)
    assert "InvalidRequestLine (the request is not quoted)" in log
    assert "InvalidHeaderName (the request is not quoted)" in log
    assert "xssmark" not in log


def test_after_the_refusals_the_service_answers_and_logged_no_traceback(any_server, http):
    assert http.get(any_server.api("/healthz"), timeout=5).status_code == 200
    assert "Traceback" not in any_server.log.read_text(errors="replace")
