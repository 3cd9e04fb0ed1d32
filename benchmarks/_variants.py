"""The service with one piece of its speed machinery taken out, for `benchmarks/machinery.py`.

Only a benchmark loads this module: the service has no switch for any of these. gunicorn is
pointed at them from the benchmark's command line (`-k` for the worker, the app's import path
for the app, `benchmarks/_ungrouped_app.py`), so the service's own configuration is the same in every variant.
"""

from __future__ import annotations

import threading
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

from adjudicator.audit.groupcommit import GroupCommit
from adjudicator.process.gunicorn_worker import (
    DRAIN_CAP,
    ClosingWhenBodyLeft,
    HeldHeaderSocket,
    ProblemErrors,
    StopSignalsHeld,
    _serving,
)


class UnbalancedThreadWorker(StopSignalsHeld, ProblemErrors, ThreadWorker):
    """The service's gthread worker without the connection balancer: every worker accepts
    whenever it has room, as gunicorn alone does."""

    def load_wsgi(self) -> None:
        super().load_wsgi()
        if DRAIN_CAP is not None:
            self.wsgi = ClosingWhenBodyLeft(self.wsgi)

    def handle_request(self, req: Any, conn: Any) -> Any:
        sock = conn.sock
        held = HeldHeaderSocket(sock)
        conn.sock = held
        _serving.req = req
        try:
            return super().handle_request(req, conn)
        finally:
            _serving.req = None
            conn.sock = sock
            try:
                held.flush()
            except OSError:
                pass


class OneEach(GroupCommit):
    """Group commit taken out: each ruling is committed in a transaction of its own, one at a
    time per process (one connection, as the group commit keeps), under the same append lock."""

    def _reset(self) -> None:
        super()._reset()
        self._one = threading.Lock()

    def submit(self, work: Any) -> Any:
        with self._one:
            return self._transaction([work])[0]
