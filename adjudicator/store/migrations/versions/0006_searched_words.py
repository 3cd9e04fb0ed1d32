"""The directors' search looks words up case-folded: `ruling_labels.words` holds each
entry's words in the labels' canonical form (`adjudicator.store.labelforms.canonical_words`), so
`blåbær` finds BLÅBÆR whatever the store's `lower()` and JSON escapes do. Every entry now has a
row there; the entries so far get theirs here.

Revision ID: 0006_searched_words
Revises: 0005_canonical_labels
Create Date: 2027-01-14
"""

import orjson
import sqlalchemy as sa
from alembic import op

from adjudicator.store.labelforms import canonical_words

revision = "0006_searched_words"
down_revision = "0005_canonical_labels"
branch_labels = None
depends_on = None


def _words(stored: object) -> str | None:
    """The canonical words of a value as stored (text on SQLite, decoded on PostgreSQL)."""
    if isinstance(stored, (str, bytes)):
        try:
            stored = orjson.loads(stored)
        except orjson.JSONDecodeError:
            return None  # a row written around the service: `audit verify` names it
    return canonical_words(stored)


def upgrade() -> None:
    op.add_column("ruling_labels", sa.Column("words", sa.Text(), nullable=True))
    bind = op.get_bind()
    rulings = sa.table("rulings", sa.column("seq"), sa.column("words", sa.Text()))
    labels = sa.table("ruling_labels", sa.column("seq"), sa.column("words", sa.Text()))
    known = {row.seq for row in bind.execute(sa.select(labels.c.seq))}
    found = bind.execute(sa.select(rulings.c.seq, sa.cast(rulings.c.words, sa.Text))).all()
    for seq, stored in found:
        words = _words(stored)
        if seq in known:
            bind.execute(labels.update().where(labels.c.seq == seq).values(words=words))
        else:
            bind.execute(labels.insert().values(seq=seq, words=words))


def downgrade() -> None:
    labels = sa.table(
        "ruling_labels", *map(sa.column, ("event", "round", "table_label", "game", "player"))
    )
    op.execute(labels.delete().where(sa.and_(*(c.is_(None) for c in labels.c))))
    op.drop_column("ruling_labels", "words")
