"""`connection(durable=False)`: bookkeeping commits that do not wait for the disk, while every
other transaction on the same pooled connection still does."""

from __future__ import annotations

from sqlalchemy import text


def setting(conn) -> str:
    if conn.dialect.name == "sqlite":
        return {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[
            conn.execute(text("PRAGMA synchronous")).scalar_one()
        ]
    return conn.execute(text("SHOW synchronous_commit")).scalar_one()


def test_only_bookkeeping_skips_the_wait_for_the_disk(store):
    durable, relaxed = ("FULL", "NORMAL") if store.is_sqlite else ("on", "off")
    for _ in range(3):  # the same pooled connection, switched back and forth
        with store.connection(write=True, durable=False) as conn:
            assert setting(conn) == relaxed
        with store.connection(write=True) as conn:
            assert setting(conn) == durable
        with store.connection() as conn:
            assert setting(conn) == durable
