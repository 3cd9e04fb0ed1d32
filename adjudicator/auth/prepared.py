"""The statements every ruling runs, written once per dialect and sent straight to the driver.

A ruling in tournament mode looks up its credential, counts it against its rate limit and notes
its last use. Through SQLAlchemy Core each of those statements costs more in building (coercion,
cache keys, result set-up) than in the database: about 25 µs a statement on SQLite, through
Core or `sqlalchemy.text()` alike, against 4 µs on the driver (benchmarks/driver_sql.py). So the
hot statements are plain SQL held here, run on the driver's cursor inside the caller's
SQLAlchemy transaction (same connection, same BEGIN and COMMIT, same durability); the schema,
the migrations and everything off the hot path keep using SQLAlchemy. Values are converted by
the columns' own bind and result processors, so a value written here reads back through the ORM
exactly as if the ORM had written it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adjudicator.store import driver
from adjudicator.store.credentials import ApiKey, Device, RateHit

_KEYS = ApiKey.__table__
_DEVICES = Device.__table__
_HITS = RateHit.__table__


def _last_use(table: Any) -> str:
    return (
        f"UPDATE {table.name} SET last_used_at = ? WHERE id = ?"
        " AND (last_used_at IS NULL OR last_used_at <= ?)"
    )


@dataclass(frozen=True)
class Statements:
    """One dialect's datetime conversions and its hot statements, written here with `?` and
    given in the driver's placeholder style (`driver.PerDialect`)."""

    to_db: Callable[[datetime], Any]
    from_db: Callable[[Any], datetime | None]
    key_by_hash: str = (
        f"SELECT id, name, scopes, last_used_at FROM {_KEYS.name}"
        " WHERE key_hash = ? AND revoked_at IS NULL"
    )
    device_by_hash: str = (
        f"SELECT id, name, ruleset, last_used_at FROM {_DEVICES.name}"
        " WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?"
    )
    nth_newest_hit: str = (
        f"SELECT at FROM {_HITS.name} WHERE key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?"
    )
    # One statement counts a ruling: a row added only while fewer than the limit lie in the
    # span (key, at, tie; key, since; limit); with a credential read from the worker's cache
    # (`credcache`), only while that credential is still in force (`AND EXISTS` one of the two
    # below), so that a revocation is seen by the very next ruling.
    add_hit_if_room: str = (
        f"INSERT INTO {_HITS.name} (key, at, tie) SELECT ?, ?, ?"
        f" WHERE (SELECT count(*) FROM {_HITS.name} WHERE key = ? AND at > ?) < ?"
    )
    drop_old_hits: str = f"DELETE FROM {_HITS.name} WHERE key = ? AND at <= ?"
    # By id and token digest both: a row deleted by hand and its id reused never makes an old
    # token valid again. A device's also needs its pairing unexpired (now).
    key_in_force: str = (
        f"SELECT 1 FROM {_KEYS.name} WHERE id = ? AND key_hash = ? AND revoked_at IS NULL"
    )
    device_in_force: str = (
        f"SELECT 1 FROM {_DEVICES.name} WHERE id = ? AND token_hash = ?"
        " AND revoked_at IS NULL AND expires_at > ?"
    )
    sweep_hits: str = f"DELETE FROM {_HITS.name} WHERE at <= ?"
    key_last_use: str = _last_use(_KEYS)
    device_last_use: str = _last_use(_DEVICES)


statements = driver.PerDialect(
    lambda dialect: Statements(
        driver.to_db(_HITS.c.at, dialect), driver.from_db(_KEYS.c.last_used_at, dialect)
    )
)
