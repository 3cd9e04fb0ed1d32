"""Labels are compared in one canonical form (since 0011, `adjudicator.store.labelforms.key`,
their PRECIS profile's; a store upgraded through here gets that form, and 0011 reports what it
joined).

The jury limit counts words, per (event, game, player) in that form: `jury_words` replaces
`jury_counts` (queries, per label as typed). Existing counts are carried over as words (a query
was at least one word) under their labels' canonical form, so counts kept apart only by
spelling (`Anna`, `ANNA`) are added up.

The directors' search looks labels up in that form too: `ruling_labels` holds each entry's
labels canonical (the entry keeps them as typed, hashed), filled here for the entries so far.

Revision ID: 0005_canonical_labels
Revises: 0004_rulings_at_head
Create Date: 2026-12-10
"""

from collections import Counter
from collections.abc import Callable
from datetime import datetime

import sqlalchemy as sa
from alembic import op

from adjudicator.store.labelforms import COLUMNS as LABEL_COLUMNS
from adjudicator.store.labelforms import stored_key

revision = "0005_canonical_labels"
down_revision = "0004_rulings_at_head"
branch_labels = None
depends_on = None

KEY = ("event", "game", "player")
SEQ = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _key_columns() -> list[sa.Column]:
    return [sa.Column(name, sa.String(64), primary_key=True) for name in KEY]


def _carry(source: str, amount: str, target: sa.Table, fold: Callable[[str, str], str]) -> None:
    """Copy `source`'s counts (its column `amount`) into `target`, each key folded and the counts
    of one key added up."""
    old = sa.table(
        source,
        *(sa.column(name, sa.String()) for name in KEY),
        sa.column(amount, sa.Integer()),
        sa.column("updated_at", sa.DateTime()),  # typed: SQLite keeps it as text
    )
    counts: Counter[tuple[str, ...]] = Counter()
    latest: dict[tuple[str, ...], datetime] = {}
    for row in op.get_bind().execute(sa.select(old)).mappings():
        key = tuple(fold(name, row[name]) for name in KEY)
        counts[key] += row[amount]
        latest[key] = max(latest.get(key, row["updated_at"]), row["updated_at"])
    new_amount = next(c.name for c in target.c if c.name in ("words", "count"))
    op.bulk_insert(
        target,
        [
            {**dict(zip(KEY, key, strict=True)), new_amount: n, "updated_at": latest[key]}
            for key, n in counts.items()
        ],
    )


def upgrade() -> None:
    words = op.create_table(
        "jury_words",
        *_key_columns(),
        sa.Column("words", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    # canonical() can only lengthen a label past 64 characters in rare NFKC expansions: cut.
    _carry("jury_counts", "count", words, _key)
    op.drop_table("jury_counts")
    labels = op.create_table(
        "ruling_labels",
        sa.Column("seq", SEQ, primary_key=True, autoincrement=False),
        *(sa.Column(name, sa.String(64), nullable=True) for name in LABEL_COLUMNS),
    )
    op.create_index("ix_ruling_labels_event", "ruling_labels", ["event"])
    rulings = sa.table("rulings", sa.column("seq"), *map(sa.column, LABEL_COLUMNS))
    labelled = sa.or_(*(rulings.c[name].isnot(None) for name in LABEL_COLUMNS))
    found = op.get_bind().execute(sa.select(rulings).where(labelled)).mappings()
    op.bulk_insert(
        labels,
        [
            {"seq": row["seq"]}
            | {name: None if row[name] is None else _key(name, row[name]) for name in LABEL_COLUMNS}
            for row in found
        ],
    )


def _key(column: str, label: str) -> str:
    """A stored label's canonical form; cut to the column (an NFKC expansion of a label stored
    before this revision can outgrow it; read_labels refuses such labels from now on)."""
    return stored_key(column, label)[0][:64]


def downgrade() -> None:
    op.drop_index("ix_ruling_labels_event", table_name="ruling_labels")
    op.drop_table("ruling_labels")
    counts = op.create_table(
        "jury_counts",
        *_key_columns(),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    _carry("jury_words", "words", counts, lambda _column, label: label)
    op.drop_table("jury_words")
