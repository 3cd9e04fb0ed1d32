"""gunicorn's workers (sync and gthread), sending each response's header and first body bytes
in one write.

gunicorn writes the header, then the body: two writes. A worker killed between them (SIGKILL,
the OOM killer) leaves nginx holding a header and no body, an answer already begun that no proxy
may retry, and the client gets a broken response. With one write per response (all of ours are
small), a killed worker leaves either nothing, which nginx retries where that is safe, or the
whole answer.

A request gunicorn cannot parse (a request line over `limit_request_line`, a malformed request
line or header, too many or too large headers) never reaches Flask: gunicorn answers it from
`Worker.handle_error` with an HTML page that quotes the offending line back. Both workers keep
gunicorn's status and logging and send a problem document (adjudicator.web.errors) in its place,
whose detail names what was wrong and quotes nothing of the request. gunicorn's warning about
such a request quotes it too (the request line with its query, a header's name); the log says
which refusal it was instead, so that nothing a client sent reaches a log pipeline that way.

The gthread worker also keeps its keep-alive promise (`ClosingWhenBodyLeft`): gunicorn answers
`Connection: keep-alive`, then drains a body the app did not read (a 413, a refusal before the
body) only up to 64 KiB, and closes the connection past that. The client, told it could reuse
the connection, sent its next request into a closed socket and lost it. Such an answer now says
`Connection: close`, as does the answer to any chunked request (its unread length is unknown).

A worker stops on the stop signals (INT, QUIT, TERM) from its first instant (`StopSignalsHeld`).
Until it installs its own handlers, a forked worker runs the master's, which only queue the
signal in the worker's copy of the master's queue, where nothing reads it: a Ctrl-C (or the
master's SIGQUIT after it) landing there was lost, and the worker served on until the master
killed it at `graceful_timeout`, logging "was sent SIGKILL! Perhaps out of memory?". So the
master holds those signals (blocks them) across the fork, and the worker lets them through once
its handlers are in place: one that came meanwhile is then delivered, and stops it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import ssl
import threading
from typing import Any

from gunicorn import util
from gunicorn.http import errors as http_errors
from gunicorn.http import parser as http_parser
from gunicorn.http.body import ChunkedReader, LengthReader
from gunicorn.http.message import DEFAULT_MAX_HEADERFIELD_SIZE, MAX_HEADERS
from gunicorn.workers.gthread import ThreadWorker
from gunicorn.workers.sync import SyncWorker

from adjudicator.problems import Problem
from adjudicator.web.errors import HTTP_CODES, ApiError


def worker_class(threads: int) -> str:
    """The worker class for that many threads, each sending an answer in one write."""
    name = "OneWriteThreadWorker" if threads > 1 else "OneWriteSyncWorker"
    return f"{__name__}.{name}"


# The signals that stop a worker: INT (a terminal's Ctrl-C reaches the whole process group),
# QUIT (the master's quick stop), TERM (the master's graceful stop, systemd's stop).
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGQUIT, signal.SIGTERM})
# In the master: the stop signals blocked for the fork about to happen. The child forgets them:
# it releases them itself, once it can handle them (`StopSignalsHeld`).
_held: set[signal.Signals] = set()


def hold_stop_signals() -> None:
    """In the master, just before it forks a worker (gunicorn's `pre_fork`): block the stop
    signals, so the new worker inherits them blocked. The master lets them through again as soon
    as the fork returns (`_release_after_fork`); a signal meanwhile waits, it is not lost."""
    _held.update(STOP_SIGNALS)
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)


def release_stop_signals() -> None:
    """Deliver any stop signal that came while they were held, to the handlers now in place."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def _release_after_fork() -> None:
    """After a fork, in the parent: only a fork that `hold_stop_signals` prepared."""
    if _held:
        _held.clear()
        release_stop_signals()


os.register_at_fork(after_in_parent=_release_after_fork, after_in_child=_held.clear)


class StopSignalsHeld:
    """Mixed into both workers: the stop signals held since the fork (`hold_stop_signals`)
    are let through once the worker's own handlers are installed."""

    def init_signals(self) -> None:
        super().init_signals()  # type: ignore[misc]
        release_stop_signals()


class HeldHeaderSocket:
    """The client socket, holding the first write (the header) until the body comes."""

    def __init__(self, sock):
        self._sock = sock
        self._held: bytes | None = None  # None until the first write; b"" once it has left

    def sendall(self, data: bytes) -> None:
        if self._held is None:
            self._held = bytes(data)
        else:
            self.flush(data)

    def flush(self, data: bytes = b"") -> None:
        held, self._held = self._held or b"", b""
        if held or data:
            self._sock.sendall(held + data)

    def sendfile(self, *args, **kwargs):
        self.flush()
        return self._sock.sendfile(*args, **kwargs)

    def fileno(self) -> int:
        self.flush()
        return self._sock.fileno()

    def __getattr__(self, name: str):
        return getattr(self._sock, name)

    def __enter__(self) -> HeldHeaderSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        # A header-only answer (204, 304, HEAD) leaves here. An OSError: the client is gone;
        # gunicorn has already logged what it could.
        with contextlib.suppress(OSError):
            self.flush()


class CaughtErrorPage:
    """Stands in for the client socket while gunicorn's `handle_error` runs: it keeps the page
    gunicorn writes, of which only the status line is read, so that gunicorn alone decides the
    status (and logs as it always does) and none of its HTML reaches the client."""

    def __init__(self, sock: Any):
        self._sock = sock
        self.written = bytearray()

    def sendall(self, data: bytes) -> None:
        self.written += data

    def gettimeout(self) -> float:
        return 0.0  # util.write_nonblock then leaves the real socket's mode alone

    def __getattr__(self, name: str):
        return getattr(self._sock, name)

    def status(self) -> tuple[int, str]:
        """gunicorn's status and reason phrase; 500 if its page could not be read."""
        parts = bytes(self.written).split(b"\r\n", 1)[0].split(b" ", 2)
        if len(parts) == 3 and parts[0].startswith(b"HTTP/") and parts[1].isdigit():
            return int(parts[1]), parts[2].decode("latin-1")
        return 500, "Internal Server Error"


# gunicorn's refusals of a request it could not read, by the exception's class (its nearest
# base class listed): the problem's code (None: the one Werkzeug's errors of that status get)
# and our detail, quoting nothing of the request.
_LINE, _HEADER = Problem.MALFORMED_REQUEST_LINE, Problem.MALFORMED_HEADER
_FRAMING = (None, "the request body's framing is malformed")  # as adjudicator.web.requests says
REFUSALS: dict[type[BaseException], tuple[Problem | None, str]] = {
    http_errors.InvalidRequestMethod: (_LINE, "the request method is not valid"),
    http_errors.InvalidHTTPVersion: (_LINE, "the request's HTTP version is not valid"),
    http_errors.InvalidRequestLine: (_LINE, "the request line is malformed"),
    http_errors.InvalidHeaderName: (_HEADER, "a request header's name is not valid"),
    http_errors.ObsoleteFolding: (
        _HEADER,
        "a request header is folded over several lines (obsolete line folding)",
    ),
    http_errors.InvalidSchemeHeaders: (
        _HEADER,
        "the request's scheme headers contradict each other",
    ),
    http_errors.InvalidHeader: (_HEADER, "a request header is malformed"),
    http_errors.UnsupportedTransferCoding: (
        Problem.UNSUPPORTED_TRANSFER_CODING,
        "the request's Transfer-Encoding is not supported",
    ),
    http_errors.ExpectationFailed: (
        Problem.EXPECTATION_FAILED,
        "the request's Expect header asks for something the service does not do",
    ),
    http_errors.InvalidChunkSize: _FRAMING,
    http_errors.ChunkMissingTerminator: _FRAMING,
    http_errors.InvalidChunkExtension: _FRAMING,
    http_errors.ForbiddenProxyRequest: (
        None,
        "PROXY protocol lines are not accepted from this address",
    ),
    http_errors.InvalidProxyLine: (None, "the PROXY protocol line is malformed"),
    ssl.SSLError: (None, "the TLS connection could not be set up"),
    BaseException: (None, "the request could not be read"),
}


def parse_error_problem(exc: BaseException, status: int, cfg: Any) -> ApiError:
    """The problem for an error gunicorn answered itself, at gunicorn's status. The detail is
    ours: gunicorn's messages quote the request line or header, which must not be echoed."""
    if status >= 500 and not isinstance(exc, http_errors.UnsupportedTransferCoding):
        # Not the client's fault (an invalid response header, a configuration problem, a bug):
        # gunicorn has logged the exception; the client learns no more than from the app's 500.
        code, detail = Problem.INTERNAL_ERROR, "the service failed; the error has been logged"
    elif isinstance(exc, http_errors.LimitRequestLine):
        code, detail = Problem.REQUEST_LINE_TOO_LONG, "the request line is too long"
        if isinstance(exc.max_size, int):  # gunicorn's C parser (gunicorn_h1c) gives no limit
            detail += f" (limit {exc.max_size} bytes)"
    elif isinstance(exc, http_errors.LimitRequestHeaders):
        code, detail = Problem.HEADERS_TOO_LARGE, _headers_detail(exc, cfg)
    else:
        code, detail = next(REFUSALS[kind] for kind in type(exc).__mro__ if kind in REFUSALS)
    return ApiError(code or HTTP_CODES.get(status, Problem.HTTP_ERROR), detail, status=status)


def _headers_detail(exc: http_errors.LimitRequestHeaders, cfg: Any) -> str:
    """Which header limit was hit, told apart by gunicorn's own fixed wording (never request
    text), with the limit as gunicorn's parser applies it."""
    if exc.msg == "limit request headers fields":
        fields = cfg.limit_request_fields
        limit = fields if 0 < fields <= MAX_HEADERS else MAX_HEADERS
        return f"the request has too many headers (limit {limit})"
    if exc.msg == "limit request headers fields size":
        size = cfg.limit_request_field_size
        limit = size if size > 0 else DEFAULT_MAX_HEADERFIELD_SIZE
        return f"a request header is too long (limit {limit} bytes)"
    return "the request's headers are too large"


def problem_bytes(status: int, reason: str, problem: ApiError) -> bytes:
    """The whole answer, in one write, framed as gunicorn frames its error pages: the problem
    as the app answers it (`ApiError.response`: its media type, `Cache-Control` and headers)."""
    answer = problem.response()
    head = f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in answer.headers.items())
    return (head + "\r\n").encode("latin-1") + answer.get_data()


REFUSAL_WARNING = "Invalid request from ip="  # how gunicorn's handle_error begins its warning
_refusing = threading.local()  # the exception handle_error is answering, in this thread


class UnquotedRefusals(logging.Filter):
    """On gunicorn's error log: its warning about a refused request names the refusal (the
    exception's class) instead of quoting what the client sent."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = getattr(_refusing, "exc", None)
        message = record.msg
        if exc is not None and isinstance(message, str) and message.startswith(REFUSAL_WARNING):
            ip = message[len(REFUSAL_WARNING) :].split(": ", 1)[0]  # no ": " in an address
            record.msg = f"{REFUSAL_WARNING}{ip}: {type(exc).__name__} (the request is not quoted)"
            record.args = ()
        return True


class ProblemErrors:
    """Mixed into both workers: gunicorn's `handle_error` decides the status and logs (warning,
    access line); what leaves is a problem document instead of its HTML page."""

    def init_process(self) -> None:
        self.log.error_log.addFilter(UnquotedRefusals())
        super().init_process()

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        page = CaughtErrorPage(client)
        _refusing.exc = exc
        try:
            super().handle_error(req, page, addr, exc)
        finally:
            _refusing.exc = None
        status, reason = page.status()
        problem = parse_error_problem(exc, status, self.cfg)
        try:
            util.write_nonblock(client, problem_bytes(status, reason, problem))
        except Exception:
            self.log.debug("Failed to send error message.")  # gunicorn's wording and level


class OneWriteSyncWorker(StopSignalsHeld, ProblemErrors, SyncWorker):
    def handle_request(self, listener, req, client, addr):
        with HeldHeaderSocket(client) as held:
            return super().handle_request(listener, req, held, addr)


# What gunicorn drains of a body the app left unread before it reuses a connection; past it, it
# closes the connection. An internal of gunicorn's, pinned in pyproject.toml and tested
# (adjudicator/tests/test_gunicorn_internals.py), as is every other one used here.
DRAIN_CAP: int = http_parser._DRAIN_MAX_BYTES


def leaves_body(req: Any, cap: int = DRAIN_CAP) -> bool:
    """Whether gunicorn may close the connection after this answer because of a body the app
    did not read: unread bytes of a declared length reaching `cap`, or any chunked body, whose
    unread length cannot be known without reading it (rare here: browsers and the usual
    clients declare a length, and a new connection is all it costs)."""
    body = getattr(req, "body", None)
    reader = getattr(body, "reader", None)
    if isinstance(reader, LengthReader):
        buffered = body.buf.tell()  # gunicorn keeps what it read ahead written, at its end
        return reader.length + buffered >= cap
    return isinstance(reader, ChunkedReader)


_serving = threading.local()  # the gunicorn request each worker thread is serving


class ClosingWhenBodyLeft:
    """The app, wrapped so that an answer after which gunicorn will close the connection says
    so (`Connection: close`) instead of promising keep-alive. The request is the one this
    thread is serving (`_serving`): the app is called in the request's own thread."""

    def __init__(self, app: Any):
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        def start(status: str, headers: Any, exc_info: Any = None) -> Any:
            req = getattr(_serving, "req", None)
            if req is not None and leaves_body(req):
                req.must_close = True  # gunicorn then writes `Connection: close`, and closes
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


class OneWriteThreadWorker(StopSignalsHeld, ProblemErrors, ThreadWorker):
    """gthread: a thread per request in flight, so that rulings waiting for their commit can
    share it (adjudicator.audit.groupcommit); keep-alive connections are kept, and closed only
    when an answer says so (ClosingWhenBodyLeft)."""

    def load_wsgi(self) -> None:
        super().load_wsgi()
        self.wsgi = ClosingWhenBodyLeft(self.wsgi)

    def handle_request(self, req, conn):
        sock = conn.sock
        _serving.req = req
        with HeldHeaderSocket(sock) as held:
            conn.sock = held
            try:
                return super().handle_request(req, conn)
            finally:
                _serving.req = None
                conn.sock = sock  # the poller watches the real socket between requests
