"""gunicorn's workers (sync and gthread), sending each response's header and first body bytes
in one write.

gunicorn writes the header, then the body: two writes. A worker killed between them (SIGKILL,
the OOM killer) leaves nginx holding a header and no body, an answer already begun that no proxy
may retry, and the client gets a broken response. With one write per response (all of ours are
small), a killed worker leaves either nothing, which nginx retries where that is safe, or the
whole answer.
"""

from __future__ import annotations

import os

from gunicorn.workers.gthread import ThreadWorker
from gunicorn.workers.sync import SyncWorker

DEFAULT_THREADS = 8


def configured_threads() -> int:
    """Threads per worker: `ADJUDICATOR_THREADS`, else 8; 1 means gunicorn's sync worker."""
    return int(os.environ.get("ADJUDICATOR_THREADS", DEFAULT_THREADS))


def worker_class(threads: int) -> str:
    """The worker class for that many threads, each sending an answer in one write."""
    name = "OneWriteThreadWorker" if threads > 1 else "OneWriteSyncWorker"
    return f"{__name__}.{name}"


class HeldHeaderSocket:
    """The client socket, holding the first write (the header) until the body comes."""

    def __init__(self, sock):
        self._sock = sock
        self._held: bytes | None = None
        self._started = False

    def sendall(self, data: bytes) -> None:
        if not self._started:
            self._started = True
            self._held = bytes(data)
            return
        self.flush(data)

    def flush(self, data: bytes = b"") -> None:
        held, self._held = self._held or b"", None
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


class OneWriteSyncWorker(SyncWorker):
    def handle_request(self, listener, req, client, addr):
        held = HeldHeaderSocket(client)
        try:
            return super().handle_request(listener, req, held, addr)
        finally:
            try:
                held.flush()  # a header-only answer (204, 304, HEAD) leaves here
            except OSError:
                pass  # the client is gone; gunicorn has already logged what it could


class OneWriteThreadWorker(ThreadWorker):
    """gthread: a thread per request in flight, so that rulings waiting for their commit can
    share it (adjudicator.audit.groupcommit); keep-alive connections are kept."""

    def handle_request(self, req, conn):
        sock = conn.sock
        held = HeldHeaderSocket(sock)
        conn.sock = held
        try:
            return super().handle_request(req, conn)
        finally:
            conn.sock = sock  # the poller watches the real socket between requests
            try:
                held.flush()
            except OSError:
                pass
