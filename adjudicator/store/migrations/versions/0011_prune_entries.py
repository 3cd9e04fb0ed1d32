"""A prune is an entry of the audit chain: `audit prune` appends one at the
head, and `audit verify` takes a checkpoint only with its entry. A checkpoint made before (by
0007's prunes) has none: the newest gets its entry here, marked as recorded by this migration
(`"adopted"`, with the prune's own time, `"pruned_at"`), so a pruned log still verifies, and shows from which upgrade on its prunes were
chained. An older checkpoint needs none: the log starts after the newest.

Revision ID: 0011_prune_entries
Revises: 0010_rate_hits_one_btree
Create Date: 2027-01-20
"""

import getpass

import sqlalchemy as sa
from alembic import op
from sqlalchemy.engine.processors import str_to_datetime

from adjudicator.store import utcnow
from adjudicator.store.entryform import BEFORE_LATER as COLUMNS  # the table as it was here
from adjudicator.store.entryform import entry_hash, prune_entry, prune_id
from adjudicator.store.labelforms import COLUMNS as LABELS
from adjudicator.store.labelforms import canonical_columns

revision = "0011_prune_entries"
down_revision = "0010_rate_hits_one_btree"
branch_labels = None
depends_on = None

JSON_COLUMNS = ("words", "consequence")


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for this uid
        return "adjudicator db upgrade"


def _time(value):
    """A time as stored: SQLite's text (read without the model's type) or a datetime."""
    return str_to_datetime(value) if isinstance(value, str) else value


def upgrade() -> None:
    bind = op.get_bind()
    newest = bind.execute(
        sa.text(
            "SELECT seq, hash, before, entries, pruned_at FROM audit_checkpoints"
            " ORDER BY seq DESC LIMIT 1"
        )
    ).one_or_none()
    if newest is None:
        return
    lock = "" if bind.dialect.name == "sqlite" else " FOR UPDATE"
    head = bind.execute(sa.text(f"SELECT seq, hash FROM audit_head WHERE id = 1{lock}")).one()
    floor = bind.execute(
        sa.text("SELECT max(seq) FROM audit_checkpoints WHERE seq < :seq"), {"seq": newest.seq}
    ).scalar()
    record = prune_entry(
        before=_time(newest.before),
        entries=newest.entries,
        first_seq=(floor or 0) + 1,
        last_seq=newest.seq,
        last_hash=newest.hash,
        by=_user(),
        adopted_at=_time(newest.pruned_at),
    )
    row = record | {
        "ruling_id": prune_id(head.seq + 1),
        "seq": head.seq + 1,
        "created_at": utcnow(),
        "prev_hash": head.hash,
    }
    row["hash"] = entry_hash(row)
    rulings = sa.table(
        "rulings",
        *(sa.column(name, sa.JSON() if name in JSON_COLUMNS else None) for name in COLUMNS),
    )
    bind.execute(rulings.insert().values(**{name: row[name] for name in COLUMNS}))
    labels = sa.table("ruling_labels", *map(sa.column, ("seq", *LABELS, "words")))
    bind.execute(labels.insert().values(seq=row["seq"], **canonical_columns(row)))


def downgrade() -> None:
    pass  # the entry stays: the chain is append-only, and 0010's verify reads it as a ruling
