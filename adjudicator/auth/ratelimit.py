"""Rulings per credential in any 60 seconds, counted in the store so that every worker and box
shares the count: a judge device or an app key cannot be used as a word list however it spreads
its requests. One count per credential, never one for everybody.

The count is exact over every span of 60 seconds, not per calendar minute: a count per fixed
minute lets a credential send its limit just before a minute ends and again just after, twice
the limit within a second. Each allowed ruling is one row (`rate_hits`), kept a minute or two; a
new ruling is allowed while fewer than `limit` rows of its credential lie in the 60 seconds
before it. (A token bucket or GCRA with a burst of `limit` still allows almost twice the limit
in some 60 s spans, and the estimate from two minutes' counters assumes the earlier minute's
rulings were spread evenly; both are cheaper only when limits are in the thousands.)

A hit takes the credential's turn (`locks.take_turns`), then one statement adds its row only
while fewer than the limit of the credential's rows lie in the last minute (kept in (key, at)
order); when it added none, the hit is refused, with the seconds until the oldest of the rows
that fill the limit leaves the span; when it did, the credential's rows older than the span
are dropped, at most once a minute per credential and process (`_dropped`): a row is kept one
to two minutes, never counted after its first, and most rulings run one statement here
(benchmarks/ruling_cost.py). The rows live in one B-tree in that order, with no index beside it
(migration 0010), so a hit's new row and the old ones it drops are neighbours: about one page
written and fsynced with the ruling.
Refused hits add nothing, so a client retrying while refused is let in as soon as Retry-After
says.
"""

from __future__ import annotations

import itertools
import random
from datetime import datetime, timedelta

import sqlalchemy as sa

from adjudicator.auth import locks, prepared
from adjudicator.auth.store_time import seconds_until
from adjudicator.store import driver

SPAN = timedelta(seconds=60)
SCOPE = "rate"
SWEEP_EVERY = 500  # allowed hits per process between sweeps of every key's old rows
_hits = itertools.count(1)
# When this process last dropped each key's old rows (the hit's time): at most once a span, so
# that a key's rows older than the span leave within the next one. Emptied at each sweep.
_dropped: dict[str, datetime] = {}


class NotInForce(Exception):
    """The credential a cached caller named was revoked (or its pairing expired) since."""


def hit(
    conn: sa.Connection,
    key: str,
    limit: int,
    now: datetime,
    in_force: tuple[str, int, str] | None = None,
) -> int:
    """Count one ruling for `key` at `now`; 0 when it is allowed, else the whole seconds to wait
    (Retry-After) before one would be. `conn` must be a write transaction. With `in_force`
    (the kind, id and token digest of a credential read from the worker's cache), the same
    statement checks that it is still in force, and raises `NotInForce` when not. Runs on every
    ruling in tournament mode: prepared statements (`auth.prepared`)."""
    locks.take_turns(conn, SCOPE, key)
    sql = prepared.statements(conn)
    at, since = sql.to_db(now), sql.to_db(now - SPAN)
    params: tuple = (key, at, random.getrandbits(63), key, since, limit)
    statement = sql.add_hit_if_room
    if in_force is not None:
        check, check_params = _in_force(sql, *in_force, at)
        statement, params = f"{statement} AND EXISTS ({check})", params + check_params
    if driver.change(conn, statement, params) == 1:
        dropped = _dropped.get(key)
        if dropped is None or not now - SPAN < dropped <= now:
            driver.change(conn, sql.drop_old_hits, (key, since))
            _dropped[key] = now
        if next(_hits) % SWEEP_EVERY == 0:  # keys no longer used (a revoked device) leave too
            driver.change(conn, sql.sweep_hits, (since,))
            _dropped.clear()
        return 0
    if in_force is not None and not still_in_force(conn, *in_force, now):
        raise NotInForce()
    # Allowed again once all but limit-1 of these have left the span: the limit-th newest.
    (oldest,) = driver.one(conn, sql.nth_newest_hit, (key, since, limit - 1))
    return seconds_until(sql.from_db(oldest) + SPAN, now)


def _in_force(
    sql: prepared.Statements, kind: str, row_id: int, token_digest: str, at: object
) -> tuple[str, tuple]:
    """The statement that finds a cached credential still in force, and its parameters."""
    if kind == "device":
        return sql.device_in_force, (row_id, token_digest, at)
    return sql.key_in_force, (row_id, token_digest)


def still_in_force(
    conn: sa.Connection, kind: str, row_id: int, token_digest: str, now: datetime
) -> bool:
    """Whether a credential read from the worker's cache (its kind, id and token digest) is
    still in force at `now`, as `hit` checks it."""
    sql = prepared.statements(conn)
    return driver.one(conn, *_in_force(sql, kind, row_id, token_digest, sql.to_db(now))) is not None
