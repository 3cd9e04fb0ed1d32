"""A rate hit writes one B-tree: `rate_hits` is keyed by (key, at, tie), the order
the count reads it in, with no index beside it; on SQLite it has no rowid. Each ruling in
tournament mode adds its credential's row and drops the rows older than a minute: before, that
touched the table's newest page, the page of each row dropped and the (key, at) index, every
one written and fsynced with the ruling; now they are neighbours in one tree. `tie` tells apart
two hits of one key at the same microsecond (random when written; here the old id, unique).

Revision ID: 0010_rate_hits_one_btree
Revises: 0009_labels_event_partial_index
Create Date: 2026-12-12
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_rate_hits_one_btree"
down_revision = "0009_labels_event_partial_index"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "rate_hits_next",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("at", sa.DateTime(), primary_key=True),
        sa.Column("tie", sa.BigInteger(), primary_key=True, autoincrement=False),
        sqlite_with_rowid=False,
    )
    op.execute("INSERT INTO rate_hits_next (key, at, tie) SELECT key, at, id FROM rate_hits")
    op.drop_table("rate_hits")  # its index with it
    op.rename_table("rate_hits_next", "rate_hits")


def downgrade() -> None:
    op.create_table(
        "rate_hits_prev",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
    )
    op.execute("INSERT INTO rate_hits_prev (key, at) SELECT key, at FROM rate_hits ORDER BY at")
    op.drop_table("rate_hits")
    op.rename_table("rate_hits_prev", "rate_hits")
    op.create_index("ix_rate_hits_key_at", "rate_hits", ["key", "at"])
