"""The worker's socket wrapper sends a response's header and body in one write; the requests
gunicorn refuses itself are answered with a problem document at gunicorn's own status."""

from __future__ import annotations

import ssl
from types import SimpleNamespace

import orjson
import pytest
from gunicorn.config import Config
from gunicorn.http import errors as http_errors
from gunicorn.http.body import Body, ChunkedReader, LengthReader
from gunicorn.workers.base import Worker

from adjudicator.problems import PROBLEM_TYPE_PREFIX
from adjudicator.process.gunicorn_worker import (
    DRAIN_CAP,
    HeldHeaderSocket,
    OneWriteSyncWorker,
    OneWriteThreadWorker,
    leaves_body,
)


class FakeSocket:
    def __init__(self):
        self.writes: list[bytes] = []
        self.sent_files: list[str] = []

    def sendall(self, data: bytes) -> None:
        self.writes.append(data)

    def sendfile(self, name, offset=0, count=None):
        self.sent_files.append(name)

    def fileno(self) -> int:
        return 7

    def gettimeout(self) -> float | None:
        return None

    def setblocking(self, flag: bool) -> None:
        pass

    def getpeername(self):
        return ("127.0.0.1", 1)


def test_header_and_body_leave_in_one_write():
    sock = FakeSocket()
    held = HeldHeaderSocket(sock)
    held.sendall(b"HTTP/1.1 200 OK\r\n\r\n")
    assert sock.writes == []
    held.sendall(b'{"ok": true}')
    held.sendall(b"more")
    held.flush()
    assert sock.writes == [b'HTTP/1.1 200 OK\r\n\r\n{"ok": true}', b"more"]


def test_a_header_only_answer_leaves_on_flush():
    sock = FakeSocket()
    held = HeldHeaderSocket(sock)
    held.sendall(b"HTTP/1.1 304 Not Modified\r\n\r\n")
    held.flush()
    held.flush()
    assert sock.writes == [b"HTTP/1.1 304 Not Modified\r\n\r\n"]


def test_sendfile_and_fileno_send_the_header_first():
    sock = FakeSocket()
    held = HeldHeaderSocket(sock)
    held.sendall(b"HEADER")
    held.sendfile("page.js", offset=0, count=10)
    assert sock.writes == [b"HEADER"] and sock.sent_files == ["page.js"]
    assert held.fileno() == 7 and held.getpeername() == ("127.0.0.1", 1)


# --- gunicorn's own refusals -----------------------------------------------------------------

SECRET = "<script>alert(1)</script>"  # stands for request text: it must never come back


class FakeLog:
    def __init__(self):
        self.calls: list[str] = []

    def warning(self, msg, *args, **kwargs):
        self.calls.append("warning")

    def exception(self, msg, *args, **kwargs):
        self.calls.append("exception")

    def debug(self, msg, *args, **kwargs):
        self.calls.append("debug")

    def access(self, *args, **kwargs):
        self.calls.append("access")


def _bare(cls: type[Worker]) -> Worker:
    """A worker with only what `handle_error` reads: its settings and its log."""
    worker = cls.__new__(cls)
    worker.cfg = Config()
    worker.log = FakeLog()
    return worker


def _answer(cls: type[Worker], exc: BaseException) -> tuple[list[bytes], FakeLog]:
    worker = _bare(cls)
    sock = FakeSocket()
    worker.handle_error(None, sock, ("127.0.0.1", 1), exc)
    return sock.writes, worker.log


REFUSALS = [
    (http_errors.LimitRequestLine(5000, 4094), 414, "request_line_too_long", "limit 4094 bytes"),
    (http_errors.LimitRequestLine(SECRET), 414, "request_line_too_long", "too long"),
    (http_errors.LimitRequestHeaders("limit request headers fields"), 431, "headers_too_large",
     "too many headers (limit 100)"),
    (http_errors.LimitRequestHeaders("limit request headers fields size"), 431,
     "headers_too_large", "too long (limit 8190 bytes)"),
    (http_errors.LimitRequestHeaders("max buffer headers"), 431, "headers_too_large", "large"),
    (http_errors.LimitRequestHeaders(SECRET), 431, "headers_too_large", "large"),
    (http_errors.InvalidRequestLine(SECRET), 400, "malformed_request_line", "request line"),
    (http_errors.InvalidRequestMethod(SECRET), 400, "malformed_request_line", "method"),
    (http_errors.InvalidHTTPVersion(SECRET), 400, "malformed_request_line", "HTTP version"),
    (http_errors.InvalidHeader(SECRET), 400, "malformed_header", "header"),
    (http_errors.InvalidHeaderName(SECRET), 400, "malformed_header", "header's name"),
    (http_errors.ObsoleteFolding(SECRET), 400, "malformed_header", "folding"),
    (http_errors.InvalidSchemeHeaders(), 400, "malformed_header", "scheme"),
    (http_errors.UnsupportedTransferCoding(SECRET), 501, "unsupported_transfer_coding",
     "Transfer-Encoding"),
    (http_errors.ExpectationFailed(SECRET), 417, "expectation_failed", "Expect"),
    (http_errors.InvalidChunkSize(SECRET), 400, "bad_request", "framing"),
    (http_errors.ChunkMissingTerminator(SECRET), 400, "bad_request", "framing"),
    (http_errors.InvalidProxyLine(SECRET), 400, "bad_request", "PROXY"),
    (http_errors.ForbiddenProxyRequest(SECRET), 403, "http_error", "PROXY"),
    (ssl.SSLError(1, SECRET), 403, "http_error", "TLS"),
    (http_errors.InvalidResponseHeader(SECRET), 500, "internal_error", "logged"),
    (http_errors.ConfigurationProblem(SECRET), 500, "internal_error", "logged"),
    (RuntimeError(SECRET), 500, "internal_error", "logged"),
]  # fmt: skip


@pytest.mark.parametrize("cls", [OneWriteThreadWorker, OneWriteSyncWorker])
@pytest.mark.parametrize(("exc", "status", "code", "says"), REFUSALS, ids=repr)
def test_a_refusal_is_a_problem_at_gunicorns_status(cls, exc, status, code, says):
    writes, log = _answer(cls, exc)
    assert len(writes) == 1  # the whole answer in one write, as every other answer
    head, _, body = writes[0].partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    assert lines[0].startswith(f"HTTP/1.1 {status} ")
    assert headers["Content-Type"] == "application/problem+json"
    assert headers["Cache-Control"] == "no-store" and headers["Connection"] == "close"
    assert int(headers["Content-Length"]) == len(body)
    problem = orjson.loads(body)
    assert set(problem) == {"type", "title", "status", "detail", "code"}
    assert problem["status"] == status and problem["code"] == code
    assert problem["type"] == PROBLEM_TYPE_PREFIX + code
    assert says in problem["detail"]
    assert b"script" not in writes[0] and b"<" not in writes[0]  # nothing quoted, no HTML


@pytest.mark.parametrize("exc", [refusal[0] for refusal in REFUSALS], ids=repr)
def test_status_line_and_logging_are_gunicorns_own(exc):
    """The mapping is gunicorn's, read from its answer rather than copied: the status line is
    the one its stock worker sends, and the log gets what it would have."""
    stock, stock_log = _answer(Worker, exc)
    ours, our_log = _answer(OneWriteThreadWorker, exc)
    assert ours[0].split(b"\r\n", 1)[0] == stock[0].split(b"\r\n", 1)[0]
    assert our_log.calls == stock_log.calls


def _request(reader_kind: str, unread: int = 0, buffered: bytes = b"") -> SimpleNamespace:
    req = SimpleNamespace()
    reader = LengthReader(None, unread) if reader_kind == "length" else ChunkedReader(req, None)
    req.body = Body(reader)
    req.body.buf.write(buffered)  # gunicorn keeps what it read ahead so, at the buffer's end
    return req


@pytest.mark.parametrize(
    "req, closes",
    [
        (_request("length", 0), False),  # read whole
        (_request("length", 64 * 1024 - 1), False),  # gunicorn drains it, and reuses
        (_request("length", 64 * 1024), True),  # past what gunicorn drains
        (_request("length", 64 * 1024 - 10, b"x" * 10), True),  # read ahead, not consumed
        (_request("length", 10_000_000), True),
        (_request("chunked"), True),  # its unread length cannot be known
    ],
)
def test_an_answer_says_close_when_gunicorn_will_close(req, closes):
    assert leaves_body(req, cap=64 * 1024) is closes


def test_the_drain_cap_is_read_from_this_gunicorn():
    assert DRAIN_CAP == 64 * 1024  # gunicorn 27's _DRAIN_MAX_BYTES, which the check follows
