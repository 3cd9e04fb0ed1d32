"""Ruling ids: random, so that they encode nothing about the ruling or its words.

Drawn from the operating system's random source in batches rather than one system call per
ruling; each process (gunicorn worker) starts a batch of its own after a fork, so no two workers
ever hand out the same id.
"""

from __future__ import annotations

import os
import threading

_BATCH = 4096
_ID_BYTES = 16
_lock = threading.Lock()
_pool = b""
_next = 0


def _forget_pool() -> None:
    global _pool, _next
    _pool, _next = b"", 0


os.register_at_fork(after_in_child=_forget_pool)


def new_ruling_id() -> str:
    """32 hex digits from the OS's cryptographic random source."""
    global _pool, _next
    with _lock:
        if _next + _ID_BYTES > len(_pool):
            _pool, _next = os.urandom(_BATCH), 0
        chunk = _pool[_next : _next + _ID_BYTES]
        _next += _ID_BYTES
    return chunk.hex()


_HEX = frozenset("0123456789abcdef")


def typed_ruling_id(text: str) -> str | None:
    """A ruling id (or part of one) as a director types it from the tablet, which shows it in
    groups of four (`groupedId` in static/judge/result.js): spaces dropped, lower case. None when
    the text is no hex at all, so only a text that can be an id is searched this way."""
    compact = "".join(text.split()).lower()
    return compact if compact and set(compact) <= _HEX else None
