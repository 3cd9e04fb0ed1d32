"""A device's or app key's bookkeeping: its rate count (tournament mode) and its last use.

Resolving a credential is a read; these are the only writes a request's credential costs, and
only a real device or key gets them: a junk token or a stale cookie is refused (or treated as
anonymous) without ever taking the store's write turn, where it would queue with the audit
log's commits. The last use (shown to directors in their lists) is written at most once a minute
per credential, not on every ruling: a ruling should not cost a row update for a figure nobody
reads to the second; so in open mode most requests write nothing at all.

For the routes that rule on words (`api.ruling`: a recorded ruling, a verification, a board
picture) the guard defers both to the ruling step: a recorded ruling settles them in its own
transaction (one write, not two), before its audit entry (refused past the limit, 429; a retried
request with its `Idempotency-Key` is not counted again), the others once they have answered;
so a request refused before it is ruled on costs nothing. Any other endpoint settles them in a short
transaction of its own before its view runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import g

from adjudicator import store
from adjudicator.auth import credcache, prepared, ratelimit
from adjudicator.auth.caller import Caller
from adjudicator.problems import Problem
from adjudicator.store import driver
from adjudicator.web.errors import ApiError

COUNTED_KINDS = ("device", "app")
LAST_USED_RESOLUTION = timedelta(seconds=60)


@dataclass(frozen=True)
class Pending:
    caller: Caller  # a device or an app key: its key is what the rate limit counts
    limit: int | None  # rulings in any 60 seconds; None: not counted (open mode, not a ruling)
    note_use: bool  # its last use is due to be written
    at: datetime
    # The digest of its token when the worker keeps it (`credcache`): the count then also
    # checks that the credential is still in force, and the cache learns of its last use.
    cached: str | None = None


def owed(
    found: Caller, limit: int | None, at: datetime, cached: str | None = None
) -> Pending | None:
    """What `found` owes the store for a request at `at`: None for a director or an anonymous
    caller, and for a device or key with nothing to count and a last use noted recently."""
    if found.kind not in COUNTED_KINDS:
        return None
    last = found.last_used_at
    note_use = last is None or last <= at - LAST_USED_RESOLUTION
    if limit is None and not note_use:
        return None
    return Pending(found, limit, note_use, at, cached)


def defer(pending: Pending | None) -> None:
    g.bookkeeping = pending


def pending() -> Pending | None:
    """This request's deferred bookkeeping, if the guard left any (read in the request)."""
    return g.get("bookkeeping")


def settle(conn: sa.Connection, pending: Pending) -> None:
    """Count the request and note the use, in a write transaction; refuses past the limit
    (nothing else of the transaction has happened for this request yet)."""
    caller = pending.caller
    if pending.limit is not None:
        cached = pending.cached
        in_force = None if cached is None else (caller.kind, int(caller.id), cached)
        try:
            wait = ratelimit.hit(conn, caller.key, pending.limit, pending.at, in_force)
        except ratelimit.NotInForce:
            credcache.forget(pending.cached)  # type: ignore[arg-type]
            raise not_in_force() from None
        if wait:
            raise ApiError(
                Problem.RATE_LIMITED,
                f"at most {pending.limit} rulings in any 60 seconds for this {caller.kind}:"
                f" wait {wait} s",
                headers={"Retry-After": str(wait)},
            )
    if pending.note_use:
        # One UPDATE that changes the row only when its last use is older than the resolution,
        # so it needs no read first (a prepared statement, `auth.prepared`).
        sql = prepared.statements(conn)
        statement = sql.device_last_use if caller.kind == "device" else sql.key_last_use
        since = pending.at - LAST_USED_RESOLUTION
        driver.change(conn, statement, (sql.to_db(pending.at), int(caller.id), sql.to_db(since)))
        if pending.cached is not None:
            credcache.noted(pending.cached, pending.at)


def check_in_force(pending: Pending | None) -> None:
    """Before a request is refused anything else, when its credential may have come from the
    worker's cache (`credcache`): 401 if it was revoked (or its pairing expired) since, as it
    would be uncached, so that a revoked credential learns nothing of its request. A ruling's
    own count checks it (`settle`); this read runs only on the way to a refusal."""
    if pending is None or pending.cached is None:
        return
    caller = pending.caller
    with store.reading() as conn:
        if ratelimit.still_in_force(conn, caller.kind, int(caller.id), pending.cached, pending.at):
            return
    credcache.forget(pending.cached)
    raise not_in_force()


def not_in_force() -> ApiError:
    """The credential is unknown, expired or revoked (the guard's own refusal)."""
    return ApiError(
        Problem.CREDENTIAL_INVALID,
        "the key or device token is unknown, expired or revoked",
        headers={"WWW-Authenticate": 'Bearer realm="adjudicator", error="invalid_token"'},
    )
