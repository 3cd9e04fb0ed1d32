"""The hash chain: each entry carries the hash of the one before, so any later edit shows.

An entry's hash is the SHA-256 of its canonical form (`adjudicator.store.entryform`): every
column except `hash` itself, as sorted JSON, `created_at` as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC).
The first entry's `prev_hash` is 64 zeros.

Appends take turns: the writer locks the one `audit_head` row first (`SELECT … FOR UPDATE` on
PostgreSQL; on SQLite `BEGIN IMMEDIATE` has already locked the whole database), so workers and
boxes sharing a database never fork the chain. The head row names the newest entry, so entries
removed from the end show too. The database takes a row only at the head (`seq` the head's + 1,
never below 1) and moves the head to it, in the INSERT's own trigger (migration 0004). One
transaction may append several entries (group commit, `adjudicator.audit.groupcommit`): each is
linked to the one before in memory, then all are inserted in one statement. An append checks
the chain it extends in the statements it runs anyway, not in statements of their own: taking
the lock reads the log's last entry too (`lock_for_append`), and each entry's labels go in only
while the head names the last row appended (`write`; else the trigger is gone: `HeadDidNotMove`).

Verifying reads every row there is, however it was written: a row below the chain or past its
head, or a value the schema does not allow (SQLite keeps any value in any column), is named, and
verification goes on to the end. It reads one snapshot (`Store.snapshot`): rulings appended
meanwhile are not half seen. A pruned log starts after the newest checkpoint, which counts only
with the chained entry its prune appended (`adjudicator.audit.prune`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from typing import Any

import orjson
from sqlalchemy import JSON, Connection, DateTime, Integer, Row, Select, String, column, select
from sqlalchemy.engine.processors import str_to_datetime

from adjudicator.store import driver, utcnow
from adjudicator.store.entryform import COLUMNS as COLUMNS
from adjudicator.store.entryform import LATER, PRUNE_FIELDS, PRUNE_KEY, PRUNE_KIND
from adjudicator.store.entryform import entry_hash as entry_hash
from adjudicator.store.entryform import timestamp as timestamp
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
_searched = itemgetter(*LABEL_COLUMNS[1:])  # the labels and words, from `canonical_columns`
_columns = itemgetter(*COLUMNS)  # an entry's values in the INSERT's order

_insert = RULINGS.insert()
_LATER_EMPTY = dict.fromkeys(LATER)
_LAST = f"FROM {RULINGS.name} ORDER BY seq DESC LIMIT 1"
LAST_ENTRY = f"SELECT seq, hash {_LAST}"  # the log's last entry (seq, hash), when it keeps one


@dataclass
class Head:
    """The chain's newest entry as this transaction sees it, under the append lock."""

    seq: int
    hash: str


class HeadDidNotMove(Exception):
    """The head row did not move with the rows `write` inserted: the log's INSERT trigger
    (`rulings_insert_at_head`) is missing, and the rows would lie outside the chain."""


@dataclass(frozen=True)
class _DriverSQL:
    """The append's statements as the driver takes them: every ruling goes through here, and
    the ORM's per-statement work cost more than the database's (measured in
    benchmarks/store.py)."""

    lock_head: str
    # Under the lock, the log's last entry (seq, hash) as well (none: NULL): SQLite in the
    # locking statement itself (BEGIN IMMEDIATE took the lock, this reads one snapshot);
    # PostgreSQL in a statement of its own after the lock, whose snapshot sees any append that
    # committed while this one waited for the lock (the locking statement's would not).
    lock_for_append: str
    last_entry: str | None
    insert: str
    processors: tuple[tuple[int, Any], ...]  # (position, bind processor) of converted columns
    # `ruling_labels`: text columns and the seq, no conversion needed; a row goes in only while
    # the head names (seq, hash), the last row appended, which only the INSERT trigger moved it to
    insert_labels: str

    @classmethod
    def for_dialect(cls, dialect: Any) -> _DriverSQL:
        sqlite = dialect.name == "sqlite"
        lock = "" if sqlite else " FOR UPDATE"  # BEGIN IMMEDIATE locked it
        lock_head = f"SELECT seq, hash FROM {HEAD.name} WHERE id = 1{lock}"
        # Typed, so that PostgreSQL need not guess what a bare parameter in a SELECT list is.
        labels = ", ".join(
            f"CAST(? AS {'BIGINT' if name == 'seq' else 'TEXT'})" for name in LABEL_COLUMNS
        )
        return cls(
            lock_head=lock_head,
            lock_for_append=(
                f"SELECT seq, hash, (SELECT seq {_LAST}), (SELECT hash {_LAST})"
                f" FROM {HEAD.name} WHERE id = 1"
            )
            if sqlite
            else lock_head,
            last_entry=None if sqlite else LAST_ENTRY,
            insert=f"INSERT INTO {RULINGS.name} {driver.values(COLUMNS)}",
            processors=tuple(
                (i, process)
                for i, c in enumerate(RULINGS.columns)
                if (process := _processor(c, dialect)) is not None
            ),
            insert_labels=f"INSERT INTO {LABELS.name} ({', '.join(LABEL_COLUMNS)})"
            f" SELECT {labels} FROM {HEAD.name} WHERE id = 1 AND seq = ? AND hash = ?",
        )

    def params(self, row: Mapping[str, Any]) -> list[Any]:
        values = list(_columns(row))
        for i, process in self.processors:
            if values[i] is not None:
                values[i] = process(values[i])
        return values


def _processor(column: Any, dialect: Any) -> Any:
    if isinstance(column.type, JSON):  # orjson: the same values as the type writes, faster
        return lambda value: orjson.dumps(value).decode()
    if isinstance(column.type, DateTime):  # as the ORM writes it (not sqlite3's own adapter)
        return driver.to_db(column, dialect)
    return column.type.bind_processor(dialect)


_sql = driver.PerDialect(_DriverSQL.for_dialect)


def current_head(conn: Connection) -> Head | None:
    """The head row's (seq, hash) as `conn` sees it, unlocked; None when the row is missing."""
    found = conn.execute(select(HEAD.c.seq, HEAD.c.hash).where(HEAD.c.id == 1)).one_or_none()
    return None if found is None else Head(*found)


def lock_head(conn: Connection) -> Head:
    """Take the append lock (first, in a write transaction); the head's (seq, hash)."""
    seq, hash_ = driver.one(conn, _sql(conn).lock_head)
    return Head(seq, hash_)


def lock_for_append(conn: Connection) -> tuple[Head, tuple[int, str] | None]:
    """`lock_head`, and the log's last entry (seq, hash) as it stands under the lock (None when
    the log keeps no entry): what `audit.health` checks the head against before an append."""
    sql = _sql(conn)
    found = driver.one(conn, sql.lock_for_append)
    if sql.last_entry is not None:
        found = (*found, *(driver.one(conn, sql.last_entry) or (None, None)))
    seq, hash_, last_seq, last_hash = found
    return Head(seq, hash_), None if last_seq is None else (last_seq, last_hash)


def link(head: Head, entry: dict[str, Any]) -> dict[str, Any]:
    """The row that follows `head` for `entry` (every column but seq, created_at, prev_hash and
    hash); `head` moves on to it. Nothing is written: `write` does that."""
    row = {
        **_LATER_EMPTY,  # an entry made without a later column (a prune, a test) has it empty
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
    words go to `ruling_labels` in the same transaction, each only while the head names `head`:
    when it does not (the trigger is gone), `HeadDidNotMove`, and the caller rolls back."""
    if not rows:
        return
    sql = _sql(conn)
    with closing(driver.cursor(conn)) as cursor:
        if conn.dialect.name != "sqlite":  # one multi-row INSERT (insertmanyvalues), JSON as JSON
            conn.execute(_insert, rows)
        else:
            cursor.executemany(sql.insert, [sql.params(row) for row in rows])
        # In the same transaction: an entry is never without its searched labels and words
        # (every entry has a row), inserted as the driver takes them, like the entry.
        moved = (head.seq, head.hash)
        cursor.executemany(
            sql.insert_labels,
            [(row["seq"], *_searched(canonical_columns(row)), *moved) for row in rows],
        )
        if cursor.rowcount != len(rows):
            raise HeadDidNotMove()


@dataclass(frozen=True)
class Prune:
    """A prune as its chained entry records it (`adjudicator.audit.prune`)."""

    seq: int  # the prune's own entry
    at: str  # when, as `timestamp` writes it
    before: str
    entries: int
    first_seq: int
    last_seq: int
    last_hash: str
    adopted: bool  # recorded by migration 0011 for a checkpoint made before prunes were chained
    pruned_at: Any  # the prune's time: the entry's own, or an adopted checkpoint's as recorded

    def describe(self) -> str:
        adopted = " (recorded at the upgrade, migration 0011)" if self.adopted else ""
        return (
            f"the prune at seq {self.seq} ({self.at}) removed {self.entries} entries,"
            f" seq {self.first_seq}..{self.last_seq}, made before {self.before}{adopted}"
        )


@dataclass
class Verification:
    entries: int
    head_seq: int
    head_hash: str
    problems: list[str]
    pruned: int = 0  # the log starts after this seq (a prune's checkpoint); 0: never pruned
    prunes: list[Prune] = field(default_factory=list)  # the prune entries in the log, in order

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
_SURROGATE = re.compile("[\ud800-\udfff]")  # what no UTF-8 holds


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
    return isinstance(value, str) and _SURROGATE.search(value) is not None


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


def stored(conn: Connection, batch: int = 1000, narrowed: Select = RAW) -> Iterator[Stored]:
    """Every row of the log (those below the chain too), or those `narrowed` (`RAW`, narrowed)
    selects, lowest `seq` first, read in batches so a long log is never held whole."""
    last: int | None = None
    while True:
        stmt = narrowed if last is None else narrowed.where(RULINGS.c.seq > last)
        chunk = read(conn, stmt.order_by(RULINGS.c.seq).limit(batch))
        if not chunk:
            return
        yield from chunk
        last = chunk[-1].row["seq"]


def stored_time(value: Any, shown: Callable[[Any], str] = str) -> str:
    """`timestamp`, or a malformed time as stored (`Stored`), as `shown` writes it."""
    return timestamp(value) if isinstance(value, datetime) else shown(value)


def describe(row: Mapping[str, Any]) -> str:
    """How a verdict names a row: its seq, ruling id and time (each shown safely)."""
    when = stored_time(row["created_at"], _shown)
    ruling = row["ruling_id"]
    ruling = ruling if isinstance(ruling, str) and ruling.isprintable() else _shown(ruling)
    return f"entry seq {row['seq']} (ruling {ruling}, {when})"


def checkpoints(conn: Connection) -> list[Row]:
    """Every prune's checkpoint (`audit_checkpoints`: where a prune cut the log), lowest seq
    first (a handful: one per prune)."""
    return list(conn.execute(select(*CHECKPOINTS.c).order_by(CHECKPOINTS.c.seq)))


def checkpoint(conn: Connection) -> Head:
    """Where the log starts: the newest prune's checkpoint (the last entry it removed), or
    (0, genesis) when it was never pruned."""
    marks = checkpoints(conn)
    return Head(marks[-1].seq, marks[-1].hash) if marks else Head(0, GENESIS_HASH)


def parse_head(text: str) -> Head:
    """`SEQ:HASH` as `audit head` prints it; ValueError naming what is wrong."""
    seq, sep, hash_ = text.strip().partition(":")
    if not sep or not re.fullmatch("[0-9]{1,19}", seq):
        raise ValueError(f"{text!r} is not SEQ:HASH (a seq, a colon, 64 hex digits)")
    if not re.fullmatch("[0-9a-fA-F]{64}", hash_):
        raise ValueError(f"{text!r}: the hash after the colon is not 64 hex digits")
    return Head(int(seq), hash_.lower())


def _prune_of(row: Mapping[str, Any]) -> Prune | None:
    """The prune a `prune` entry records; None when its record is not of that shape."""
    record = row["consequence"]
    pruned = record.get(PRUNE_KEY) if isinstance(record, dict) else None
    if not isinstance(pruned, dict) or not isinstance(row["created_at"], datetime):
        return None
    values = [pruned.get(name) for name in PRUNE_FIELDS]
    before, entries, first_seq, last_seq, last_hash = values
    if not (
        isinstance(before, str)
        and isinstance(last_hash, str)
        and all(type(n) is int for n in (entries, first_seq, last_seq))
    ):
        return None
    at, adopted = timestamp(row["created_at"]), "adopted" in pruned
    return Prune(row["seq"], at, *values, adopted, pruned.get("pruned_at") if adopted else at)


def _prune_problems(
    marks: list[Row], prunes: list[Prune], bad: list[str], times: dict[int, Any]
) -> list[str]:
    """A checkpoint counts only with the entry its prune appended, which must name it exactly
    (seq, hash, date, count, time), count the entries from the checkpoint before it, prune no
    entry made after its date, nor a date after its own time. `times`: each checkpoint's first
    entry kept (seq + 1), by seq, where the log still holds it."""
    problems = [f"{where}: a prune entry whose record is malformed" for where in bad]
    by_seq = {mark.seq: (mark, index) for index, mark in enumerate(marks)}
    recorded = set()
    for prune in prunes:
        where = f"entry seq {prune.seq} (a prune, {prune.at})"
        if prune.last_seq not in by_seq:
            problems.append(f"{where}: names a checkpoint at seq {prune.last_seq} that is missing")
            continue
        mark, index = by_seq[prune.last_seq]
        recorded.add(mark.seq)
        differs = [
            name
            for name, kept, told in (
                ("hash", mark.hash, prune.last_hash),
                ("date", stored_time(mark.before, repr), prune.before),
                ("count", mark.entries, prune.entries),
                ("time", stored_time(mark.pruned_at, repr), prune.pruned_at),
            )
            if kept != told
        ]
        if differs:
            problems.append(
                f"{where}: the checkpoint at seq {mark.seq} differs from it in its"
                f" {', '.join(differs)} (the checkpoint was written around the service)"
            )
        floor = marks[index - 1].seq if index else 0
        if prune.first_seq != floor + 1 or prune.entries != prune.last_seq - floor:
            problems.append(
                f"{where}: counts {prune.entries} entries from seq {prune.first_seq}, but the"
                f" log before it ended at seq {floor} and it cut at seq {prune.last_seq}"
            )
        if isinstance(prune.pruned_at, str) and prune.before > prune.pruned_at:
            problems.append(f"{where}: prunes up to {prune.before}, after its own time")
        kept = times.get(mark.seq)
        if isinstance(kept, datetime) and timestamp(kept) < prune.before:
            problems.append(
                f"{where}: entry seq {mark.seq + 1}, kept, was made before {prune.before},"
                " so it would have been pruned (the entries removed are not those it removed)"
            )
    if marks and marks[-1].seq not in recorded:
        mark = marks[-1]
        problems.append(
            f"the checkpoint at seq {mark.seq} ({mark.entries!r} entries made before"
            f" {stored_time(mark.before, repr)}) has no prune entry in the chain: the entries up to"
            " it were removed around `audit prune`"
        )
    return problems


def _noted_problems(noted: Head, start: Head, found: str | None, last: int) -> list[str]:
    """Whether the log still extends the head a director noted: its entry is there with that
    hash (`found`), or it is the checkpoint of a prune."""
    where = f"the noted head seq {noted.seq}"
    if noted.seq > last:
        return [f"{where} is past the end of the log (seq {last}): entries were removed"]
    if noted.seq <= start.seq:
        if noted.seq == start.seq and noted.hash == start.hash:
            return []  # the last entry pruned: its checkpoint keeps its hash
        return [
            f"{where} was pruned (the log starts after seq {start.seq}): it can no longer be"
            " checked; note the head again after each prune"
        ]
    if found is None:
        return [f"{where} is missing from the log"]
    if found != noted.hash:
        return [f"{where}: the entry there has another hash, so the log does not extend it"]
    return []


def verify(conn: Connection, noted: Head | None = None) -> Verification:
    """Walk every row: each is in the chain (after the last prune's checkpoint, else from seq 1,
    to the head), holds values of its columns' kinds, its hash matches its content, its
    `prev_hash` the entry before (the first kept: the checkpoint's), the sequence has no gap,
    and the head row names the last entry. The checkpoint counts only with its prune's entry
    (`_prune_problems`). With `noted`, the log must still extend that head. Every row at fault
    is named. `conn` should read one snapshot (`Store.snapshot`), as `audit verify` does."""
    problems: list[str] = []
    marks = checkpoints(conn)
    start = checkpoint(conn)
    previous, expected, count = start.hash, start.seq + 1, 0
    prunes: list[Prune] = []
    bad_prunes: list[str] = []
    after_marks = {mark.seq + 1: mark.seq for mark in marks}
    times: dict[int, Any] = {}
    noted_found: str | None = None
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
        if row["kind"] == PRUNE_KIND:
            prune = _prune_of(row)
            if prune is None:
                bad_prunes.append(where)
            else:
                prunes.append(prune)
        if row["seq"] in after_marks:
            times[after_marks[row["seq"]]] = row["created_at"]
        if noted is not None and row["seq"] == noted.seq:
            noted_found = row["hash"]
        previous, expected = row["hash"], row["seq"] + 1
    last = expected - 1
    problems.extend(_prune_problems(marks, prunes, bad_prunes, times))
    if noted is not None:
        problems.extend(_noted_problems(noted, start, noted_found, last))
    head = current_head(conn)
    if head is None:
        problems.append("the chain head row is missing (it was deleted)")
        return Verification(count, 0, "", problems, start.seq, prunes)
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
    return Verification(count, head.seq, head.hash, problems, start.seq, prunes)
