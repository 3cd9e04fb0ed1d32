"""The hash chain: each entry carries the hash of the one before, so any later edit shows.

An entry's hash is the SHA-256 of its canonical form: every column except `hash` itself (so
`seq` and `prev_hash` too), as JSON with keys sorted, no whitespace, UTF-8 text unescaped, and
`created_at` as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC). The first entry's `prev_hash` is 64 zeros.

Appends take turns: the writer locks the one `audit_head` row first (`SELECT … FOR UPDATE` on
PostgreSQL; on SQLite `BEGIN IMMEDIATE` has already locked the whole database), so workers and
boxes sharing a database never fork the chain. The head row names the newest entry, so entries
removed from the end show too. One transaction may append several entries (group commit,
`adjudicator.audit.groupcommit`): each is linked to the one before in memory, then all are
inserted and the head moved once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import JSON, Connection, select

from adjudicator.audit.labels import canonical_columns
from adjudicator.store import utcnow
from adjudicator.store.models import GENESIS_HASH, AuditHead, Ruling, RulingLabels

RULINGS = Ruling.__table__
HEAD = AuditHead.__table__
LABELS = RulingLabels.__table__  # the entries' labels as searched, beside the chain
COLUMNS = tuple(c.name for c in RULINGS.columns)
HASHED = tuple(name for name in COLUMNS if name != "hash")

_insert = RULINGS.insert()


def timestamp(value: datetime) -> str:
    """`YYYY-MM-DDTHH:MM:SS.ffffffZ` from the naive UTC value as stored (any zone ignored).

    `isoformat` rather than `strftime`, which rewrites its `%f` format on every call."""
    return value.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def canonical(row: Mapping[str, Any]) -> bytes:
    content = {name: row[name] for name in HASHED}
    content["created_at"] = timestamp(row["created_at"])
    return orjson.dumps(content, option=orjson.OPT_SORT_KEYS)


def entry_hash(row: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(row)).hexdigest()


@dataclass
class Head:
    """The chain's newest entry as this transaction sees it, under the append lock."""

    seq: int
    hash: str


@dataclass(frozen=True)
class _DriverSQL:
    """The append's statements as the driver takes them: every ruling goes through here, and
    the ORM's per-statement work cost more than the database's (measured in
    benchmarks/store.py)."""

    lock_head: str
    move_head: str
    insert: str
    processors: tuple[tuple[str, Any], ...]  # (column, bind processor or None), in order

    @classmethod
    def for_dialect(cls, dialect: Any) -> _DriverSQL:
        mark = "?" if dialect.paramstyle == "qmark" else "%s"
        lock = "" if dialect.name == "sqlite" else " FOR UPDATE"  # BEGIN IMMEDIATE locked it
        return cls(
            lock_head=f"SELECT seq, hash FROM {HEAD.name} WHERE id = 1{lock}",
            move_head=f"UPDATE {HEAD.name} SET seq = {mark}, hash = {mark} WHERE id = 1",
            insert=f"INSERT INTO {RULINGS.name} ({', '.join(COLUMNS)})"
            f" VALUES ({', '.join(mark for _ in COLUMNS)})",
            processors=tuple((c.name, _processor(c, dialect)) for c in RULINGS.columns),
        )

    def params(self, row: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(
            row[name] if process is None or row[name] is None else process(row[name])
            for name, process in self.processors
        )


def _processor(column: Any, dialect: Any) -> Any:
    if isinstance(column.type, JSON):  # orjson: the same values as the type writes, faster
        return lambda value: orjson.dumps(value).decode()
    return column.type.bind_processor(dialect)


_driver_sql: dict[str, _DriverSQL] = {}


def _cursor(conn: Connection) -> Any:
    """A cursor of the driver's connection, inside `conn`'s transaction."""
    return conn.connection.dbapi_connection.cursor()


def _sql(conn: Connection) -> _DriverSQL:
    name = conn.dialect.name
    found = _driver_sql.get(name)
    if found is None:
        found = _driver_sql[name] = _DriverSQL.for_dialect(conn.dialect)
    return found


def lock_head(conn: Connection) -> Head:
    """Take the append lock (first, in a write transaction); the head's (seq, hash)."""
    cursor = _cursor(conn)
    cursor.execute(_sql(conn).lock_head)
    seq, hash_ = cursor.fetchone()
    cursor.close()
    return Head(seq, hash_)


def link(head: Head, entry: dict[str, Any]) -> dict[str, Any]:
    """The row that follows `head` for `entry` (every column but seq, created_at, prev_hash and
    hash); `head` moves on to it. Nothing is written: `write` does that."""
    row = {
        **entry,
        "seq": head.seq + 1,
        "created_at": utcnow(),
        "prev_hash": head.hash,
    }
    row["hash"] = entry_hash(row)
    head.seq, head.hash = row["seq"], row["hash"]
    return row


def write(conn: Connection, head: Head, rows: list[dict[str, Any]]) -> None:
    """Insert `rows` (linked in order after the locked head) and move the head row to the last,
    in the transaction that took the lock: one statement for all rows, one for the head (and
    one for the canonical labels of those that have any, `ruling_labels`)."""
    if not rows:
        return
    sql = _sql(conn)
    if conn.dialect.name != "sqlite":  # one multi-row INSERT (insertmanyvalues), JSON as JSON
        conn.execute(_insert, rows)
    cursor = _cursor(conn)
    if conn.dialect.name == "sqlite":
        cursor.executemany(sql.insert, [sql.params(row) for row in rows])
    cursor.execute(sql.move_head, (head.seq, head.hash))
    cursor.close()
    labels = [
        {"seq": row["seq"], **found}
        for row in rows
        if (found := canonical_columns(row)) is not None
    ]
    if labels:  # in the same transaction: an entry is never without its searched labels
        conn.execute(LABELS.insert(), labels)


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
