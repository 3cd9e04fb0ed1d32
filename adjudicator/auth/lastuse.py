"""A credential's last use (judge devices and app keys), shown to directors in their lists.

Written at most once a minute per credential, not on every ruling: a ruling should not cost a
row update for a figure nobody reads to the second.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa

LAST_USED_RESOLUTION = timedelta(seconds=60)


def due(last_used_at: datetime | None, now: datetime) -> bool:
    return last_used_at is None or last_used_at <= now - LAST_USED_RESOLUTION


def note(conn: sa.Connection, table: type, row_id: int, now: datetime) -> None:
    """Note a use of row `row_id` of `table` (Device or ApiKey): one UPDATE that changes the
    row only when its last use is older than the resolution, so it needs no read first."""
    conn.execute(
        sa.update(table)
        .where(
            table.id == row_id,
            sa.or_(
                table.last_used_at.is_(None),
                table.last_used_at <= now - LAST_USED_RESOLUTION,
            ),
        )
        .values(last_used_at=now)
    )
