"""Values sent straight to the driver (`store.driver`) are written as SQLAlchemy writes them."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import Column, DateTime, LargeBinary, MetaData, String, Table
from sqlalchemy.dialects import postgresql, sqlite

from adjudicator.store import driver

TABLE = Table(
    "t",
    MetaData(),
    Column("at", DateTime()),
    Column("name", String(10)),
    Column("body", LargeBinary()),
)
SQLITE = sqlite.dialect()


def written(column, dialect, value):
    """What SQLAlchemy's own processor writes."""
    process = column.type.dialect_impl(dialect).bind_processor(dialect)
    return value if process is None or value is None else process(value)


@given(st.datetimes(timezones=st.none() | st.just(UTC) | st.just(timezone(timedelta(hours=2)))))
def test_a_time_is_written_as_sqlalchemy_writes_it(value):
    assert driver.to_db(TABLE.c.at, SQLITE)(value) == written(TABLE.c.at, SQLITE, value)


@pytest.mark.parametrize(
    "value", [None, date(2026, 12, 4), datetime(2026, 12, 4), datetime(5, 1, 1, 0, 0, 0, 7)]
)
def test_none_a_date_and_edge_times_too(value):
    assert driver.to_db(TABLE.c.at, SQLITE)(value) == written(TABLE.c.at, SQLITE, value)


def test_other_columns_and_drivers_keep_their_own_processor():
    assert driver.to_db(TABLE.c.body, SQLITE)(b"x") == written(TABLE.c.body, SQLITE, b"x")
    assert driver.to_db(TABLE.c.name, SQLITE)("x") == "x"
    now = datetime(2026, 12, 4, 1, 2, 3)
    assert driver.to_db(TABLE.c.at, postgresql.psycopg.dialect())(now) is now


def test_none_is_bound_as_null_without_the_adapter_protocol():
    """sqlite3 sends None through its adapter protocol (3,300 machine instructions a value, a
    dozen in an audited ruling); `driver` registers it, and it is still bound as NULL."""
    import sqlite3

    assert (type(None), sqlite3.PrepareProtocol) in sqlite3.adapters
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (a TEXT, b INTEGER)")
    db.execute("INSERT INTO t VALUES (?, ?)", (None, None))
    assert db.execute("SELECT a IS NULL, b IS NULL, typeof(a) FROM t").fetchone() == (1, 1, "null")
    db.close()
