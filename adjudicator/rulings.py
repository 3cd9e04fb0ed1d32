"""Ruling ids: random, so that they encode nothing about the ruling or its words.

Each is drawn from the operating system's random source (`secrets`), so a forked gunicorn worker
never hands out its parent's: a pool drawn in batches per process measured no faster (about
0.5 µs an id either way, next to the hundreds of µs of a ruling) and had to be forgotten after
every fork.
"""

from __future__ import annotations

import secrets


def new_ruling_id() -> str:
    """32 hex digits from the OS's cryptographic random source."""
    return secrets.token_hex(16)


_HEX = frozenset("0123456789abcdef")


def typed_ruling_id(text: str) -> str | None:
    """A ruling id (or part of one) as a director types it from the tablet, which shows it in
    groups of four (`groupedId` in static/judge/result.js): spaces dropped, lower case. None when
    the text is no hex at all, so only a text that can be an id is searched this way."""
    compact = "".join(text.split()).lower()
    return compact if compact and set(compact) <= _HEX else None
