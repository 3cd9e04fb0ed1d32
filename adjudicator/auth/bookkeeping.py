"""A ruling's bookkeeping in tournament mode, settled in the ruling's own transaction.

A judge device or app key asking for a ruling is counted against its rate limit, and its last
use is noted. For the endpoints whose answer is a recorded ruling (marked `@rules` in the
guard), the guard resolves the credential in a read transaction and leaves both writes here: the
ruling's transaction (shared with the rulings answered at the same moment, group commit) makes
them before its audit entry and refuses the ruling past the limit (429). So a ruling costs one
write transaction, not two, and a retried request (`Idempotency-Key`) is not counted again. A
request refused before it is ruled on (a malformed body, say) is not counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from flask import g

from adjudicator.auth import lastuse, ratelimit
from adjudicator.auth.models import ApiKey, Device
from adjudicator.errors import ApiError


@dataclass(frozen=True)
class Pending:
    kind: str  # device | app
    id: str
    key: str  # the caller's key: what the rate limit counts
    limit: int  # rulings in any 60 seconds
    at: datetime


def rate_limited(kind: str, limit: int, wait: int) -> ApiError:
    return ApiError(
        429,
        "rate_limited",
        f"at most {limit} rulings in any 60 seconds for this {kind}: wait {wait} s",
        headers={"Retry-After": str(wait)},
    )


def defer(pending: Pending) -> None:
    g.bookkeeping = pending


def pending() -> Pending | None:
    """This request's deferred bookkeeping, if the guard left any (read in the request)."""
    return g.get("bookkeeping")


def settle(conn: sa.Connection, pending: Pending) -> None:
    """Count the ruling and note the use, in the ruling's write transaction; refuses past the
    limit (nothing else of the transaction has happened for this ruling yet)."""
    wait = ratelimit.hit(conn, pending.key, pending.limit, pending.at)
    if wait:
        raise rate_limited(pending.kind, pending.limit, wait)
    table = Device if pending.kind == "device" else ApiKey
    lastuse.note(conn, table, int(pending.id), pending.at)
