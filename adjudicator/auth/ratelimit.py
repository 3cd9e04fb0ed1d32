"""Rulings per credential per minute, counted in the store so that every worker and box shares
the count: a judge device or an app key cannot be used as a word list however it spreads its
requests. One counter per credential, never one for everybody."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from adjudicator.auth.clock import epoch_seconds
from adjudicator.auth.models import RateCounter

WINDOW = 60

_INSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}


def hit(conn: sa.Connection, key: str, limit: int, now: datetime) -> int:
    """Count one ruling for `key`; the seconds to wait when it is over `limit`, else 0."""
    seconds = epoch_seconds(now)
    window = int(seconds // WINDOW)
    c = RateCounter
    stmt = (
        _INSERTS[conn.dialect.name](c)
        .values(key=key, window=window, count=1)
        .on_conflict_do_update(index_elements=[c.key, c.window], set_={"count": c.count + 1})
        .returning(c.count)
    )
    count = conn.execute(stmt).scalar_one()
    if count == 1:  # a new minute: drop this key's older minutes
        conn.execute(sa.delete(c).where(c.key == key, c.window < window))
    if count > limit:
        return max(1, int((window + 1) * WINDOW - seconds + 0.999))
    return 0
