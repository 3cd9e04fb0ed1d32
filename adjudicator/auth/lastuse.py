"""A credential's last use (judge devices and app keys), shown to directors in their lists.

Written at most once a minute per credential, not on every ruling: a ruling should not cost a
row update for a figure nobody reads to the second.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa

from adjudicator.auth import prepared

LAST_USED_RESOLUTION = timedelta(seconds=60)


def due(last_used_at: datetime | None, now: datetime) -> bool:
    return last_used_at is None or last_used_at <= now - LAST_USED_RESOLUTION


def note(conn: sa.Connection, kind: str, row_id: int, now: datetime) -> None:
    """Note a use of device or app key `row_id` (`kind` "device" or "app"): one UPDATE that
    changes the row only when its last use is older than the resolution, so it needs no read
    first (a prepared statement, `auth.prepared`)."""
    sql = prepared.statements(conn)
    statement = sql.device_last_use if kind == "device" else sql.key_last_use
    prepared.change(
        conn, statement, (sql.to_db(now), row_id, sql.to_db(now - LAST_USED_RESOLUTION))
    )
