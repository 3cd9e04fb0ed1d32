"""The service with its audit log's write taken out, for `benchmarks/store.py`'s reference row.

Every ruling is still built, linked and hashed as for the chain, but nothing reaches the
database: what is left of the challenge's cost is everything but the store. Only a benchmark
loads this module; the service itself has no switch that turns the audit log off.
"""

from __future__ import annotations

from adjudicator.audit import chain
from adjudicator.audit.groupcommit import Batch
from adjudicator.process.wsgi import app
from adjudicator.store.models import GENESIS_HASH


class _Unwritten:
    """Stands in for `GroupCommit`: runs each ruling's work at once, with no connection."""

    def submit(self, work):
        return work(None, Batch(chain.Head(0, GENESIS_HASH)))


app.extensions["group_commit"] = _Unwritten()
