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

from sqlalchemy import Dialect

from adjudicator.store import driver
from adjudicator.store.credentials import ApiKey, Device, RateHit

_KEYS = ApiKey.__table__
_DEVICES = Device.__table__
_HITS = RateHit.__table__


@dataclass(frozen=True)
class Statements:
    """One dialect's hot statements (its placeholder style) and its datetime conversions."""

    key_by_hash: str
    device_by_hash: str
    nth_newest_hit: str
    add_hit_if_room: str
    add_hit_if_room_for_key: str
    add_hit_if_room_for_device: str
    drop_old_hits: str
    key_in_force: str
    device_in_force: str
    sweep_hits: str
    key_last_use: str
    device_last_use: str
    to_db: Callable[[datetime], Any]
    from_db: Callable[[Any], datetime | None]

    @classmethod
    def for_dialect(cls, dialect: Dialect) -> Statements:
        p = driver.mark(dialect)

        def last_use(table: Any) -> str:
            return (
                f"UPDATE {table.name} SET last_used_at = {p} WHERE id = {p}"
                f" AND (last_used_at IS NULL OR last_used_at <= {p})"
            )

        # One statement counts a ruling: a row added only while fewer than the limit lie in the
        # span (key, at, tie; key, since; limit); with a credential read from the worker's
        # cache (`credcache`), only while that credential is still in force (its id and token
        # digest; a device's also now), so that a revocation is seen by the very next ruling.
        add_hit = (
            f"INSERT INTO {_HITS.name} (key, at, tie) SELECT {p}, {p}, {p}"
            f" WHERE (SELECT count(*) FROM {_HITS.name} WHERE key = {p} AND at > {p}) < {p}"
        )
        # By id and token digest both: a row deleted by hand and its id reused never makes
        # an old token valid again.
        key_in_force = (
            f"SELECT 1 FROM {_KEYS.name} WHERE id = {p} AND key_hash = {p} AND revoked_at IS NULL"
        )
        device_in_force = (
            f"SELECT 1 FROM {_DEVICES.name} WHERE id = {p} AND token_hash = {p}"
            f" AND revoked_at IS NULL AND expires_at > {p}"
        )
        return cls(
            key_by_hash=f"SELECT id, name, scopes, last_used_at FROM {_KEYS.name}"
            f" WHERE key_hash = {p} AND revoked_at IS NULL",
            device_by_hash=f"SELECT id, name, ruleset, last_used_at FROM {_DEVICES.name}"
            f" WHERE token_hash = {p} AND revoked_at IS NULL AND expires_at > {p}",
            nth_newest_hit=f"SELECT at FROM {_HITS.name} WHERE key = {p} AND at > {p}"
            f" ORDER BY at DESC LIMIT 1 OFFSET {p}",
            add_hit_if_room=add_hit,
            add_hit_if_room_for_key=f"{add_hit} AND EXISTS ({key_in_force})",
            add_hit_if_room_for_device=f"{add_hit} AND EXISTS ({device_in_force})",
            drop_old_hits=f"DELETE FROM {_HITS.name} WHERE key = {p} AND at <= {p}",
            key_in_force=key_in_force,
            device_in_force=device_in_force,
            sweep_hits=f"DELETE FROM {_HITS.name} WHERE at <= {p}",
            key_last_use=last_use(_KEYS),
            device_last_use=last_use(_DEVICES),
            to_db=driver.to_db(_HITS.c.at, dialect),
            from_db=driver.from_db(_KEYS.c.last_used_at, dialect),
        )


statements = driver.PerDialect(Statements.for_dialect)
one, change = driver.one, driver.change
