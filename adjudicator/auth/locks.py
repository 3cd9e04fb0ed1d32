"""Taking turns on one name (a credential's rate count, an account's failed attempts) across
every worker and box, for the rest of the current transaction.

A check-then-write ("fewer than N? then add one") is only exact if no other transaction checks
the same thing in between. On SQLite the store's write transactions already take turns: they
begin with `BEGIN IMMEDIATE` (`store.connection(write=True)`), which holds the database's write
lock until the end. PostgreSQL's READ COMMITTED lets two transactions both see N-1 and both add,
so there each name gets a transaction-level advisory lock, released by COMMIT or ROLLBACK.

The lock id is computed here (two 32-bit keys: this module's namespace and the first four bytes
of the name's SHA-256), not with the server's undocumented `hashtext`. Two names that share an
id only take turns needlessly. The two-key form never collides with the migrations' one-key
advisory lock: PostgreSQL keeps the two key spaces apart.
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa

NAMESPACE = 0x41555448  # "AUTH"


def lock_id(scope: str, name: str) -> int:
    digest = hashlib.sha256(f"{scope}\0{name}".encode()).digest()
    return int.from_bytes(digest[:4], "big", signed=True)


def take_turns(conn: sa.Connection, scope: str, name: str) -> None:
    """Wait for, then hold until this transaction ends, the turn on (scope, name)."""
    if conn.dialect.name == "postgresql":
        conn.execute(
            sa.text("SELECT pg_advisory_xact_lock(:namespace, :id)"),
            {"namespace": NAMESPACE, "id": lock_id(scope, name)},
        )
    elif not conn.get_execution_options().get("store_write", False):
        # A plain BEGIN would let another writer in between this transaction's read and write.
        raise RuntimeError(f"{scope} counts need a write transaction: store.connection(write=True)")
