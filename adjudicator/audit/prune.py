"""Retention: `adjudicator audit prune --before DATE` removes the oldest entries of the audit log
and keeps what is left verifiable.

A prune removes the longest run of entries from the start of the log that were all made before
DATE (an entry made on or after DATE is never removed, even if a clock that went back put an
older one after it), with their searched labels; appends a checkpoint (`audit_checkpoints`)
naming the last one removed by seq and hash, so `chain.verify` starts from it (the first entry
kept must follow it exactly as it followed the entry removed); and records itself as an entry of
the chain at its head, of kind `prune`: when, the date, how many entries, from which seq to
which, and the last one's hash. A checkpoint counts only with that entry, so rows deleted
behind the service's back and a checkpoint inserted to cover them show, and the head moves: a
head noted before still checks (`audit verify --head`), and the log names every prune since.
A chain that does not verify is not pruned: the broken entries are the evidence. The prune runs
under the append lock, in one transaction, and takes the log's no-delete trigger off only
inside it. Holding the lock, it reads the log as it stands: no ruling can be appended meanwhile,
so its statements all see the same log (one snapshot, at PostgreSQL's READ COMMITTED too).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, delete, insert, select, text

from adjudicator.audit import chain
from adjudicator.store import entryform, utcnow

# 0001's trigger, taken off and put back in the prune's own transaction (DDL is transactional
# on both databases, so a failed prune leaves it in place).
_SQLITE_NO_DELETE = """CREATE TRIGGER rulings_no_delete BEFORE DELETE ON rulings
       BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"""
_POSTGRES_NO_CHANGE = "ALTER TABLE rulings {} TRIGGER rulings_no_change"


class PruneRefused(Exception):
    """The log cannot be pruned as it is (its chain is broken); the message says why."""


@dataclass(frozen=True)
class Pruned:
    entries: int  # removed by this prune
    seq: int  # the checkpoint: the last entry removed (0 when none was)
    hash: str
    entry: chain.Head | None = None  # the prune's own entry, the new head (None: nothing removed)


def prune(conn: Connection, before: datetime, by: str = "adjudicator audit prune") -> Pruned:
    """Remove the entries made before `before` (naive UTC, not after now) from the start of the
    log, in `conn`'s write transaction, and record the prune at the head, asked by `by`;
    refuse (`PruneRefused`) when the chain does not verify."""
    head = chain.lock_head(conn)  # first: no ruling is appended meanwhile
    if before > utcnow():
        raise PruneRefused(
            f"{entryform.timestamp(before)} is in the future: a prune removes entries made"
            " before a date that has passed"
        )
    checked = chain.verify(conn)
    if not checked.ok:
        raise PruneRefused(
            "the chain does not verify, so nothing was pruned (run `audit verify`): "
            + checked.problems[0]
        )
    rulings = chain.RULINGS
    # Walks seq upwards to the first entry kept (the time is not indexed: migration 0008).
    first_kept = conn.execute(
        select(rulings.c.seq).where(rulings.c.created_at >= before).order_by(rulings.c.seq).limit(1)
    ).scalar()
    last = head.seq if first_kept is None else first_kept - 1
    floor = chain.checkpoint(conn)
    if last <= floor.seq:
        return Pruned(0, floor.seq, floor.hash)
    last_hash = conn.execute(select(rulings.c.hash).where(rulings.c.seq == last)).scalar_one()
    count = last - floor.seq  # the chain verified: no gap, nothing outside it
    record = entryform.prune_entry(
        before=before,
        entries=count,
        first_seq=floor.seq + 1,
        last_seq=last,
        last_hash=last_hash,
        by=by,
    )
    row = chain.link(head, record | {"ruling_id": entryform.prune_id(head.seq + 1)})
    conn.execute(
        insert(chain.CHECKPOINTS).values(
            seq=last, hash=last_hash, before=before, entries=count, pruned_at=row["created_at"]
        )
    )
    conn.execute(delete(chain.LABELS).where(chain.LABELS.c.seq <= last))
    if conn.dialect.name == "sqlite":
        off, on = "DROP TRIGGER rulings_no_delete", _SQLITE_NO_DELETE
    else:
        off, on = _POSTGRES_NO_CHANGE.format("DISABLE"), _POSTGRES_NO_CHANGE.format("ENABLE")
    conn.execute(text(off))
    conn.execute(delete(rulings).where(rulings.c.seq <= last))
    conn.execute(text(on))
    try:
        chain.write(conn, head, [row])  # at the head, which moves to it
    except chain.HeadDidNotMove:  # the caller's rollback puts the deleted entries back
        raise PruneRefused(
            "the log's INSERT trigger (rulings_insert_at_head) is missing: the prune's entry "
            "would lie outside the chain; nothing was pruned"
        ) from None
    return Pruned(count, last, last_hash, chain.Head(row["seq"], row["hash"]))
