"""App keys and judge devices this worker has resolved, so that a ruling in tournament mode does
not read its credential from the store before its own transaction.

A cached credential is never trusted alone: the ruling's transaction counts it against its
rate limit with one statement that also checks that it is still in force (not revoked, a
device's pairing not expired; `ratelimit.hit`), so a revocation is seen by the very next
ruling, in every worker, as before. So the guard takes a credential from here only for a
ruling it leaves to that transaction (`@rules`, tournament mode, counted) and without an
`Idempotency-Key` (a replay skips the count, and so the check); every other request reads the
store. What is kept (name, scopes, a device's ruleset) never changes for a credential; its last
use is kept up to date here when noted, so that it is still written at most once a minute.

Keyed by the token's digest (the raw token is not kept), bounded (least recently used leave
first), one per process: emptied in a forked child.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import replace
from datetime import datetime

from adjudicator.auth.caller import Caller

SIZE = 4096  # credentials a worker keeps: a room of tablets and apps many times over

_lock = threading.Lock()
_found: OrderedDict[str, Caller] = OrderedDict()


def get(digest: str) -> Caller | None:
    with _lock:
        found = _found.get(digest)
        if found is not None:
            _found.move_to_end(digest)
        return found


def put(digest: str, caller: Caller) -> None:
    with _lock:
        _found[digest] = caller
        _found.move_to_end(digest)
        while len(_found) > SIZE:
            _found.popitem(last=False)


def noted(digest: str, at: datetime) -> None:
    """Its last use was written at `at`."""
    with _lock:
        found = _found.get(digest)
        if found is not None:
            _found[digest] = replace(found, last_used_at=at)


def forget(digest: str) -> None:
    with _lock:
        _found.pop(digest, None)


def clear() -> None:
    global _lock
    _lock = threading.Lock()  # in a child, the parent's may be held by a thread not there
    _found.clear()


os.register_at_fork(after_in_child=clear)
