"""The hash chain: each entry carries the hash of the one before, so any later edit shows.

An entry's hash is the SHA-256 of its canonical form: every column except `hash` itself (so
`seq` and `prev_hash` too), as JSON with keys sorted, no whitespace, UTF-8 text unescaped, and
`created_at` as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC). The first entry's `prev_hash` is 64 zeros.

Appends take turns: the writer locks the one `audit_head` row first (`SELECT … FOR UPDATE` on
PostgreSQL; on SQLite `BEGIN IMMEDIATE` has already locked the whole database), so workers and
boxes sharing a database never fork the chain. The head row names the newest entry, so entries
removed from the end show too. The database takes a row only at the head (`seq` the head's + 1,
never below 1) and moves the head to it, in the INSERT's own trigger (migration 0004). One
transaction may append several entries (group commit, `adjudicator.audit.groupcommit`): each is
linked to the one before in memory, then all are inserted in one statement.

Verifying reads every row there is, however it was written: a row below the chain or past its
head, or a value the schema does not allow (SQLite keeps any value in any column), is named, and
verification goes on to the end.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import JSON, Connection, DateTime, Integer, Select, String, column, select
from sqlalchemy.engine.processors import str_to_datetime

from adjudicator.store import driver, utcnow
from adjudicator.store.labelforms import canonical_columns
from adjudicator.store.models import (
    GENESIS_HASH,
    AuditCheckpoint,
    AuditHead,
    Ruling,
    RulingLabels,
)

RULINGS = Ruling.__table__
HEAD = AuditHead.__table__
CHECKPOINTS = AuditCheckpoint.__table__  # where a pruned log starts (`adjudicator.audit.prune`)
LABELS = RulingLabels.__table__  # the entries' labels as searched, beside the chain
LABEL_COLUMNS = tuple(c.name for c in LABELS.columns)  # seq, then the labels
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
    insert: str
    processors: tuple[tuple[str, Any], ...]  # (column, bind processor or None), in order
    insert_labels: str  # `ruling_labels`: text columns and the seq, no conversion needed

    @classmethod
    def for_dialect(cls, dialect: Any) -> _DriverSQL:
        lock = "" if dialect.name == "sqlite" else " FOR UPDATE"  # BEGIN IMMEDIATE locked it
        return cls(
            lock_head=f"SELECT seq, hash FROM {HEAD.name} WHERE id = 1{lock}",
            insert=f"INSERT INTO {RULINGS.name} ({', '.join(COLUMNS)})"
            f" VALUES ({driver.marks(dialect, len(COLUMNS))})",
            processors=tuple((c.name, _processor(c, dialect)) for c in RULINGS.columns),
            insert_labels=f"INSERT INTO {LABELS.name} ({', '.join(LABEL_COLUMNS)})"
            f" VALUES ({driver.marks(dialect, len(LABEL_COLUMNS))})",
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


_sql = driver.PerDialect(_DriverSQL.for_dialect)
_cursor = driver.cursor


def lock_head(conn: Connection) -> Head:
    """Take the append lock (first, in a write transaction); the head's (seq, hash)."""
    seq, hash_ = driver.one(conn, _sql(conn).lock_head)
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
    """Insert `rows` (linked in order after the locked head, which has moved on to the last) in
    the transaction that took the lock, in one statement: the database's INSERT trigger moves
    the head row with each row it takes, so it ends at `head` too. Their canonical labels and
    words go to `ruling_labels` in the same transaction."""
    if not rows:
        return
    if conn.dialect.name != "sqlite":  # one multi-row INSERT (insertmanyvalues), JSON as JSON
        conn.execute(_insert, rows)
    else:
        sql = _sql(conn)
        cursor = _cursor(conn)
        cursor.executemany(sql.insert, [sql.params(row) for row in rows])
        cursor.close()
    # In the same transaction: an entry is never without its searched labels and words (every
    # entry has a row), inserted as the driver takes them, like the entry.
    searched = [{"seq": row["seq"], **canonical_columns(row)} for row in rows]
    cursor = _cursor(conn)
    cursor.executemany(
        _sql(conn).insert_labels, [tuple(row[name] for name in LABEL_COLUMNS) for row in searched]
    )
    cursor.close()


@dataclass
class Verification:
    entries: int
    head_seq: int
    head_hash: str
    problems: list[str]
    pruned: int = 0  # the log starts after this seq (a prune's checkpoint); 0: never pruned

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Stored:
    """One row as the database holds it: its values as the schema's types, except any that is
    not one (tampering): kept as stored, and `faults` says which and why."""

    row: dict[str, Any]
    faults: tuple[str, ...] = ()


def _as_time(value: Any) -> Any:
    """A time as SQLite stores it (ISO text), or as PostgreSQL's driver gives it."""
    return str_to_datetime(value) if isinstance(value, str) else value


def _as_json(value: Any) -> Any:
    """JSON as SQLite stores it (text), or as PostgreSQL's driver gives it (decoded)."""
    return orjson.loads(value) if isinstance(value, str | bytes) else value


# How each column's stored value is read, what it must then be, and how a verdict says so. The
# reading is the same on every database, so that one whose column types were changed is still
# read by content. The JSON columns hold an array (`words`) or an object (`consequence`).
_KINDS: tuple[tuple[type, Callable[[Any], Any] | None, tuple[type, ...], str], ...] = (
    (DateTime, _as_time, (datetime,), "a time"),
    (Integer, None, (int,), "an integer"),
    (String, None, (str,), "text"),
    (JSON, _as_json, (list, dict), "a JSON array or object"),
)
_READERS = tuple(
    next(
        (c.name, read, types, wording, bool(c.nullable))
        for base, read, types, wording in _KINDS
        if isinstance(c.type, base)
    )
    for c in RULINGS.columns
)
# Every column's value as the driver gives it: narrow it (where, order, limit) and `read` it.
RAW = select(*(column(name) for name in COLUMNS)).select_from(RULINGS)
SHOWN_MAX = 40  # characters of a malformed value a verdict shows
_UNREAD = object()  # a value its reader refused


def _shown(value: Any) -> str:
    """A stored value for a verdict: escaped, so a tampered value cannot drive the terminal."""
    text = ascii(value)
    return text if len(text) <= SHOWN_MAX else text[: SHOWN_MAX - 1] + "…"


def _decoded(raw: Mapping[str, Any]) -> Stored:
    row: dict[str, Any] = {}
    faults: list[str] = []
    for name, read, types, wording, nullable in _READERS:
        value = raw[name]
        try:
            decoded = value if read is None or value is None else read(value)
        except (ValueError, TypeError):  # orjson.JSONDecodeError is a ValueError
            decoded = _UNREAD
        if decoded is None:
            row[name] = None
            if not nullable:
                faults.append(f"its {name} is missing")
        elif isinstance(decoded, types) and not _broken_text(decoded):
            row[name] = decoded
        else:
            faults.append(f"its {name} is not {wording} (stored: {_shown(value)})")
            row[name] = _storable(value)
    return Stored(row, tuple(faults))


def _broken_text(value: Any) -> bool:
    """Text that was not UTF-8 in the database (`_undecoded_text` kept its bytes as lone
    surrogates, which UTF-8 cannot encode)."""
    if not isinstance(value, str) or value.isascii():
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _storable(value: Any) -> Any:
    """A malformed value as stored, in a form an export can write (bytes as SQL's x'…')."""
    if isinstance(value, bytes | bytearray | memoryview):
        return f"x'{bytes(value).hex()}'"
    if isinstance(value, str) and _broken_text(value):
        return ascii(value)
    return value


@contextmanager
def _undecoded_text(conn: Connection) -> Iterator[None]:
    """SQLite hands back text that is not UTF-8 (written around the service) with its bytes
    kept, for `_decoded` to name, rather than failing the whole read."""
    if conn.dialect.name != "sqlite":  # PostgreSQL's text is always valid in its encoding
        yield
        return
    dbapi_connection = conn.connection.dbapi_connection
    saved = dbapi_connection.text_factory
    dbapi_connection.text_factory = lambda data: data.decode("utf-8", "surrogateescape")
    try:
        yield
    finally:
        dbapi_connection.text_factory = saved


def read(conn: Connection, stmt: Select) -> list[Stored]:
    """The rows `stmt` (`RAW`, narrowed) selects: a value of the wrong kind is a fault of its
    row, never an error of the read."""
    with _undecoded_text(conn):
        found = conn.execute(stmt).mappings().all()
    return [_decoded(raw) for raw in found]


def stored(conn: Connection, batch: int = 1000) -> Iterator[Stored]:
    """Every row of the log, lowest `seq` first (those below the chain too), read in batches so
    a long log is never held whole."""
    last: int | None = None
    while True:
        stmt = RAW if last is None else RAW.where(RULINGS.c.seq > last)
        chunk = read(conn, stmt.order_by(RULINGS.c.seq).limit(batch))
        if not chunk:
            return
        yield from chunk
        last = chunk[-1].row["seq"]


def rows(conn: Connection, batch: int = 1000) -> Iterator[dict[str, Any]]:
    """Every row's values, lowest `seq` first (`stored`, without the faults)."""
    for found in stored(conn, batch):
        yield found.row


def stored_time(value: Any) -> str:
    """`timestamp`, or a malformed time as stored (`Stored`), as text."""
    return timestamp(value) if isinstance(value, datetime) else str(value)


def describe(row: Mapping[str, Any]) -> str:
    """How a verdict names a row: its seq, ruling id and time (each shown safely)."""
    when = row["created_at"]
    when = timestamp(when) if isinstance(when, datetime) else _shown(when)
    ruling = row["ruling_id"]
    ruling = ruling if isinstance(ruling, str) and ruling.isprintable() else _shown(ruling)
    return f"entry seq {row['seq']} (ruling {ruling}, {when})"


def checkpoint(conn: Connection) -> Head:
    """Where the log starts: the newest prune's checkpoint (the last entry it removed), or
    (0, genesis) when it was never pruned."""
    found = conn.execute(
        select(CHECKPOINTS.c.seq, CHECKPOINTS.c.hash).order_by(CHECKPOINTS.c.seq.desc()).limit(1)
    ).one_or_none()
    return Head(0, GENESIS_HASH) if found is None else Head(found.seq, found.hash)


def verify(conn: Connection) -> Verification:
    """Walk every row: each is in the chain (after the last prune's checkpoint, else from seq 1,
    to the head), holds values of its columns' kinds, its hash matches its content, its
    `prev_hash` the entry before (the first kept: the checkpoint's), the sequence has no gap,
    and the head row names the last entry. Every row at fault is named."""
    problems: list[str] = []
    start = checkpoint(conn)
    previous, expected, count = start.hash, start.seq + 1, 0
    for found in stored(conn):
        row = found.row
        count += 1
        where = describe(row)
        if row["seq"] < 1:
            problems.append(f"{where}: below the chain, which starts at seq 1 (inserted around it)")
            continue
        if row["seq"] <= start.seq:
            problems.append(
                f"{where}: at or below the checkpoint of a prune (seq {start.seq}), which"
                " removed it (inserted around the chain since)"
            )
            continue
        if row["seq"] != expected:
            problems.append(f"{where}: entries {expected}..{row['seq'] - 1} are missing")
        if row["prev_hash"] != previous:
            problems.append(f"{where}: does not follow the entry before (its prev_hash differs)")
        if found.faults:
            problems.extend(f"{where}: {fault}" for fault in found.faults)
        elif entry_hash(row) != row["hash"]:
            problems.append(f"{where}: its content does not match its hash (it was edited)")
        previous, expected = row["hash"], row["seq"] + 1
    last = expected - 1
    head = conn.execute(select(HEAD.c.seq, HEAD.c.hash).where(HEAD.c.id == 1)).one_or_none()
    if head is None:
        problems.append("the chain head row is missing (it was deleted)")
        return Verification(count, 0, "", problems, start.seq)
    if last > head.seq:
        first = head.seq + 1
        span = f"entry seq {last} is" if last == first else f"entries seq {first}..{last} are"
        problems.append(
            f"{span} past the chain head (seq {head.seq}): inserted without moving the head,"
            " or the head was moved back"
        )
    elif head.seq != last or head.hash != previous:
        problems.append(
            f"the chain head names entry seq {head.seq}, but the log ends at seq {last}"
            " (entries were removed from the end, or the head was changed)"
        )
    return Verification(count, head.seq, head.hash, problems, start.seq)
