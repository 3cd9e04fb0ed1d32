"""Each gunicorn internal the service's worker (adjudicator.process.gunicorn_worker) relies on:
that it exists in the gunicorn installed, and behaves as the worker assumes. pyproject.toml pins
gunicorn to the range these were tested on; a new gunicorn that moves one fails here, by name,
before it fails in production."""

from __future__ import annotations

import inspect
import time
from types import SimpleNamespace

import gunicorn
import pytest
from gunicorn import util
from gunicorn.config import Config
from gunicorn.http import errors as http_errors
from gunicorn.http import parser as http_parser
from gunicorn.http.body import ChunkedReader, LengthReader
from gunicorn.http.message import DEFAULT_MAX_HEADERFIELD_SIZE, MAX_HEADERS
from gunicorn.http.parser import RequestParser
from gunicorn.workers.base import Worker
from gunicorn.workers.gthread import ThreadWorker
from gunicorn.workers.sync import SyncWorker

from adjudicator.process import gunicorn_worker


def _parse(raw: bytes, **cfg) -> RequestParser:
    config = Config()
    for name, value in cfg.items():
        config.set(name, value)
    return RequestParser(config, iter([raw]), ("127.0.0.1", 1))


def _post(body: bytes, headers: str = "") -> bytes:
    return (
        f"POST /x HTTP/1.1\r\nHost: a\r\n{headers}Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )


def test_the_installed_gunicorn_is_in_the_tested_range():
    assert (27, 0) <= gunicorn.version_info[:2] < (28, 0)


def test_a_declared_length_is_read_by_a_length_reader_counting_down():
    # leaves_body: reader.length is what is left unread, and what was read ahead is kept in
    # body.buf written up to its position.
    parser = _parse(_post(b"x" * 3000))
    req = next(parser)
    assert isinstance(req.body.reader, LengthReader)
    assert req.body.reader.length + req.body.buf.tell() == 3000
    assert req.body.read(40) == b"x" * 40
    assert req.body.reader.length + req.body.buf.tell() == 2960
    assert gunicorn_worker.leaves_body(req, cap=2960) and not gunicorn_worker.leaves_body(req)


def test_a_chunked_body_is_read_by_a_chunked_reader():
    raw = b"POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
    req = next(_parse(raw))
    assert isinstance(req.body.reader, ChunkedReader)
    assert req.body.read() == b"abc"


def test_the_drain_cap_is_what_gunicorn_drains_before_it_closes():
    # DRAIN_CAP: a body left unread up to the cap is drained (the connection kept); past it,
    # not (gunicorn closes the connection after the answer).
    assert gunicorn_worker.DRAIN_CAP == http_parser._DRAIN_MAX_BYTES == 64 * 1024
    for size, kept in ((1000, True), (gunicorn_worker.DRAIN_CAP + 1024, False)):
        parser = _parse(_post(b"x" * size))
        next(parser)
        assert parser.finish_body(deadline=time.monotonic() + 60) is kept


def test_header_limits_are_the_constants_and_messages_the_worker_names():
    # _headers_detail: gunicorn's fixed messages tell the limits apart, and a limit of 0 (or
    # past MAX_HEADERS) falls back to these constants.
    assert (DEFAULT_MAX_HEADERFIELD_SIZE, MAX_HEADERS) == (8190, 32768)
    long_header = f"X-Long: {'a' * DEFAULT_MAX_HEADERFIELD_SIZE}\r\n"
    with pytest.raises(http_errors.LimitRequestHeaders) as caught:
        next(_parse(_post(b"", long_header), limit_request_field_size=0))
    assert caught.value.msg == "limit request headers fields size"
    many = "".join(f"X-{i}: v\r\n" for i in range(5))
    with pytest.raises(http_errors.LimitRequestHeaders) as caught:
        next(_parse(_post(b"", many), limit_request_fields=3))
    assert caught.value.msg == "limit request headers fields"
    with pytest.raises(http_errors.LimitRequestLine) as caught:
        next(_parse(b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\n\r\n"))
    assert caught.value.max_size == 4094  # the limit the problem's detail names


class _Socket:
    def __init__(self, timeout: float | None):
        self.timeout, self.sent, self.blocking = timeout, [], []

    def gettimeout(self):
        return self.timeout

    def setblocking(self, flag):
        self.blocking.append(flag)

    def sendall(self, data):
        self.sent.append(bytes(data))


def test_write_nonblock_sends_in_one_call_and_leaves_a_timeout_of_zero_alone():
    # ProblemErrors sends the problem with it; CaughtErrorPage answers gettimeout() with 0.0.
    sock = _Socket(0.0)
    util.write_nonblock(sock, b"whole answer")
    assert sock.sent == [b"whole answer"] and sock.blocking == []


def test_handle_error_writes_its_page_through_sendall_and_logs_the_refusal_warning():
    # CaughtErrorPage reads the status line of what handle_error writes through sendall;
    # UnquotedRefusals recognises its warning by REFUSAL_WARNING.
    worker = Worker.__new__(Worker)
    worker.cfg = Config()
    warnings: list[str] = []
    worker.log = SimpleNamespace(warning=warnings.append, debug=lambda *a: None)
    sock = _Socket(None)
    worker.handle_error(None, sock, ("127.0.0.1", 1), http_errors.InvalidRequestLine("x"))
    assert b"".join(sock.sent).startswith(b"HTTP/1.1 400 Bad Request\r\n")
    assert warnings and warnings[0].startswith(gunicorn_worker.REFUSAL_WARNING)


def test_the_worker_methods_overridden_have_the_signatures_assumed():
    params = lambda f: list(inspect.signature(f).parameters)  # noqa: E731
    assert params(SyncWorker.handle_request) == ["self", "listener", "req", "client", "addr"]
    assert params(ThreadWorker.handle_request) == ["self", "req", "conn"]
    assert params(Worker.handle_error) == ["self", "req", "client", "addr", "exc"]
    for name in ("init_signals", "init_process", "load_wsgi", "handle_exit"):
        assert callable(getattr(Worker, name))
