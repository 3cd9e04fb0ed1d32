"""The hash chain: each entry carries the hash of the one before, so any later edit shows.

An entry's hash is the SHA-256 of its canonical form: every column except `hash` itself (so
`seq` and `prev_hash` too), as JSON with keys sorted, no whitespace, UTF-8 text unescaped, and
`created_at` as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC). The first entry's `prev_hash` is 64 zeros.

Appends take turns: the writer locks the one `audit_head` row first (`SELECT … FOR UPDATE` on
PostgreSQL; `BEGIN IMMEDIATE` has already locked the whole SQLite database), so workers and boxes
sharing a database never fork the chain. The head row names the newest entry, so entries removed
from the end show too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import Connection, Row, select

from adjudicator.store import utcnow
from adjudicator.store.models import GENESIS_HASH, AuditHead, Ruling

RULINGS = Ruling.__table__
HEAD = AuditHead.__table__
COLUMNS = tuple(c.name for c in RULINGS.columns)
HASHED = tuple(name for name in COLUMNS if name != "hash")

_lock_head = select(HEAD.c.seq, HEAD.c.hash).where(HEAD.c.id == 1).with_for_update()
_insert = RULINGS.insert()
_move_head = HEAD.update().where(HEAD.c.id == 1)


def timestamp(value: datetime) -> str:
    return value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def canonical(row: Mapping[str, Any]) -> bytes:
    content = {name: row[name] for name in HASHED}
    content["created_at"] = timestamp(row["created_at"])
    return orjson.dumps(content, option=orjson.OPT_SORT_KEYS)


def entry_hash(row: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(row)).hexdigest()


def lock_head(conn: Connection) -> Row:
    """Take the append lock (first, in a write transaction); the head's (seq, hash)."""
    return conn.execute(_lock_head).one()


def append(conn: Connection, head: Row, entry: dict[str, Any]) -> dict[str, Any]:
    """Add `entry` (every column but seq, created_at, prev_hash and hash) after `head`, under
    the lock `lock_head` took in this transaction. The full row as written."""
    row = {
        **entry,
        "seq": head.seq + 1,
        "created_at": utcnow(),
        "prev_hash": head.hash,
    }
    row["hash"] = entry_hash(row)
    conn.execute(_insert, row)
    conn.execute(_move_head, {"seq": row["seq"], "hash": row["hash"]})
    return row


@dataclass
class Verification:
    entries: int
    head_seq: int
    head_hash: str
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def _describe(row: Mapping[str, Any]) -> str:
    return f"entry seq {row['seq']} (ruling {row['ruling_id']}, {timestamp(row['created_at'])})"


def rows(conn: Connection, batch: int = 1000) -> Iterator[Mapping[str, Any]]:
    """Every entry in chain order, read in batches so a long log is never held whole."""
    last = 0
    while True:
        chunk = (
            conn.execute(
                select(RULINGS).where(RULINGS.c.seq > last).order_by(RULINGS.c.seq).limit(batch)
            )
            .mappings()
            .all()
        )
        if not chunk:
            return
        yield from chunk
        last = chunk[-1]["seq"]


def verify(conn: Connection) -> Verification:
    """Walk the chain: every entry's hash matches its content, every `prev_hash` the entry
    before, the sequence has no gap, and the head row names the last entry."""
    problems: list[str] = []
    previous, expected, count = GENESIS_HASH, 1, 0
    for row in rows(conn):
        count += 1
        where = _describe(row)
        if row["seq"] != expected:
            problems.append(f"{where}: entries {expected}..{row['seq'] - 1} are missing")
        if row["prev_hash"] != previous:
            problems.append(f"{where}: does not follow the entry before (its prev_hash differs)")
        if entry_hash(row) != row["hash"]:
            problems.append(f"{where}: its content does not match its hash (it was edited)")
        previous, expected = row["hash"], row["seq"] + 1
    head = conn.execute(select(HEAD.c.seq, HEAD.c.hash).where(HEAD.c.id == 1)).one()
    if head.seq != expected - 1 or head.hash != previous:
        problems.append(
            f"the chain head names entry seq {head.seq}, but the log ends at seq {expected - 1}"
            " (entries were removed from the end, or the head was changed)"
        )
    return Verification(count, head.seq, head.hash, problems)
