"""The service with group commit taken out, for `benchmarks/machinery.py`'s "no group commit".

Only a benchmark loads this module: the service has no switch for it. gunicorn is pointed at
it by the app's import path, so the service's own configuration is the same in every variant.
"""

from __future__ import annotations

import threading
from typing import Any

from adjudicator.audit.groupcommit import GroupCommit
from adjudicator.process.wsgi import app


class OneEach(GroupCommit):
    """Each ruling committed in a transaction of its own, one at a time per process (on the one
    connection group commit keeps), under the same append lock."""

    def _reset(self) -> None:
        super()._reset()
        self._one = threading.Lock()

    def submit(self, work: Any) -> Any:
        with self._one:
            return self._transaction([work])[0]


_writer = app.extensions["group_commit"]
app.extensions["group_commit"] = OneEach(_writer.store, _writer.observe)
