"""Statements sent straight to the database driver, inside a SQLAlchemy transaction.

The few statements every ruling runs (the audit append, the chain head, a credential's lookup,
rate count and last use) cost more in SQLAlchemy's per-call statement building than in the
database (benchmarks/driver_sql.py: about 7 × the CPU through Core or `text()`). Their modules
write them once per dialect as plain SQL (`PerDialect`) and run them on the driver's cursor of
the caller's connection, so the transaction, its BEGIN and COMMIT and its durability stay the
caller's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import fields, replace
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, DateTime, Dialect

T = TypeVar("T")


def _null(value: None) -> None:
    return None


# sqlite3 binds only exact ints, floats and text without its adapter protocol; None goes through
# it (a tuple built, a registry miss, `__adapt__` and `__conform__` looked up): 3,300 machine
# instructions a value, and an audited ruling binds a dozen (its empty labels). Registered, None
# is one lookup and this call, and is bound as NULL just the same.
sqlite3.register_adapter(type(None), _null)


class PerDialect(Generic[T]):
    """`build(dialect)`, made once per dialect and kept: `statements(conn)` gives it. Its
    statements (its `str` fields) are written once, with sqlite3's `?` placeholders, and kept
    in the driver's own style (psycopg's `%s`; so no statement may hold a `?` or `%` of its
    own, which the PostgreSQL tests would show)."""

    def __init__(self, build: Callable[[Dialect], T]):
        self._build = build
        self._made: dict[str, T] = {}

    def __call__(self, conn: Connection) -> T:
        found = self._made.get(conn.dialect.name)
        if found is None:
            found = self._made[conn.dialect.name] = _in_style(self._build(conn.dialect), conn)
        return found


def _in_style(made: T, conn: Connection) -> T:
    if conn.dialect.paramstyle == "qmark":
        return made
    values = {f.name: getattr(made, f.name) for f in fields(made)}  # type: ignore[arg-type]
    statements = {name: sql.replace("?", "%s") for name, sql in values.items() if type(sql) is str}
    return replace(made, **statements)  # type: ignore[type-var]


def values(columns: Sequence[str]) -> str:
    """An INSERT's columns and their placeholders: `(a, b) VALUES (?, ?)`."""
    return f"({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def _or_none(process: Callable[[Any], Any] | None) -> Callable[[Any], Any]:
    if process is None:  # the driver takes and gives the value as it is (psycopg's datetimes)
        return lambda value: value
    return lambda value: None if value is None else process(value)


def to_db(column: Any, dialect: Dialect) -> Callable[[Any], Any]:
    """A value as `column`'s type writes it on this driver (None stays None)."""
    process = column.type.dialect_impl(dialect).bind_processor(dialect)
    if isinstance(column.type, DateTime) and process is not None and _isoformat_matches(process):
        return _as_text(process)
    return _or_none(process)


# SQLite's DATETIME writes `YYYY-MM-DD HH:MM:SS.ffffff` with `%` formatting from a dict of the
# value's fields; `isoformat` writes the same text a third of the time (a ruling in tournament
# mode converts two or three). Used only where the type's own processor is seen to agree, so a
# column of another storage format, or another SQLAlchemy's, keeps its own.
_PROBES = (
    datetime(2026, 12, 4, 23, 5, 9, 123456),
    datetime(5, 1, 2, 3, 4, 5),  # a short year, no microseconds
    datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),  # the zone is not written
)


def _as_text(process: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def to_db(value: Any) -> Any:
        if type(value) is not datetime:  # None, or a date or a subclass: as the type writes it
            return None if value is None else process(value)
        if value.tzinfo is not None:
            value = value.replace(tzinfo=None)
        return value.isoformat(" ", "microseconds")

    return to_db


def _isoformat_matches(process: Callable[[Any], Any]) -> bool:
    try:
        return all(
            process(p) == p.replace(tzinfo=None).isoformat(" ", "microseconds") for p in _PROBES
        )
    except (TypeError, ValueError):  # a processor that takes no such value
        return False


def from_db(column: Any, dialect: Dialect) -> Callable[[Any], Any]:
    """A value of `column` as the driver gives it, as SQLAlchemy would read it back."""
    return _or_none(column.type.dialect_impl(dialect).result_processor(dialect, None))


def cursor(conn: Connection) -> Any:
    """A cursor of the driver's connection, inside `conn`'s transaction."""
    return conn.connection.dbapi_connection.cursor()


def one(conn: Connection, sql: str, params: Sequence[Any] = ()) -> tuple | None:
    """The first row `sql` gives, run on the driver's cursor in `conn`'s transaction."""
    with closing(cursor(conn)) as found:
        found.execute(sql, params)
        return found.fetchone()


def change(conn: Connection, sql: str, params: Sequence[Any]) -> int:
    """Rows changed by `sql`, run as `one` runs it."""
    with closing(cursor(conn)) as found:
        found.execute(sql, params)
        return found.rowcount
