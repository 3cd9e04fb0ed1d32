"""Retention: `adjudicator audit prune --before DATE` removes the oldest entries of the audit log
and keeps what is left verifiable.

A prune removes the longest run of entries from the start of the log that were all made before
DATE (an entry made on or after DATE is never removed, even if a clock that went back put an
older one after it), with their searched labels, and appends a checkpoint (`audit_checkpoints`)
naming the last one removed by seq and hash: `chain.verify` then starts from it, so the first
entry kept must follow it exactly as it followed the entry removed. The head is untouched, so a
head hash noted before still checks. A chain that does not verify is not pruned: the broken
entries are the evidence. The prune runs under the append lock, in one transaction, and takes
the log's no-delete trigger off only inside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, delete, func, insert, select, text

from adjudicator.audit import chain
from adjudicator.store import utcnow

CHECKPOINTS = chain.CHECKPOINTS
# 0001's trigger, taken off and put back in the prune's own transaction (DDL is transactional
# on both databases, so a failed prune leaves it in place).
_SQLITE_NO_DELETE = """CREATE TRIGGER rulings_no_delete BEFORE DELETE ON rulings
       BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"""


class PruneRefused(Exception):
    """The log cannot be pruned as it is (its chain is broken); the message says why."""


@dataclass(frozen=True)
class Pruned:
    entries: int  # removed by this prune
    seq: int  # the checkpoint: the last entry removed (0 when none was)
    hash: str


def prune(conn: Connection, before: datetime) -> Pruned:
    """Remove the entries made before `before` (naive UTC) from the start of the log, in `conn`'s
    write transaction; refuse (`PruneRefused`) when the chain does not verify."""
    head = chain.lock_head(conn)  # first: no ruling is appended meanwhile
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
    count = (
        checked.entries
        - conn.execute(
            select(func.count()).select_from(rulings).where(rulings.c.seq > last)
        ).scalar_one()
    )
    conn.execute(
        insert(CHECKPOINTS).values(
            seq=last, hash=last_hash, before=before, entries=count, pruned_at=utcnow()
        )
    )
    conn.execute(delete(chain.LABELS).where(chain.LABELS.c.seq <= last))
    if conn.dialect.name == "sqlite":
        conn.execute(text("DROP TRIGGER rulings_no_delete"))
        conn.execute(delete(rulings).where(rulings.c.seq <= last))
        conn.execute(text(_SQLITE_NO_DELETE))
    else:
        conn.execute(text("ALTER TABLE rulings DISABLE TRIGGER rulings_no_change"))
        conn.execute(delete(rulings).where(rulings.c.seq <= last))
        conn.execute(text("ALTER TABLE rulings ENABLE TRIGGER rulings_no_change"))
    return Pruned(count, last, last_hash)
