"""Rate limits over any 60 seconds: one row per allowed ruling (`rate_hits`) replaces the count
per fixed minute (`rate_counters`), which let a credential have twice its limit across a minute
boundary. The old counts are only about the current minute, so nothing is carried over.

Revision ID: 0003_rate_hits
Revises: 0002_auth
Create Date: 2026-12-09
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_rate_hits"
down_revision = "0002_auth"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "rate_hits",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_rate_hits_key_at", "rate_hits", ["key", "at"])
    op.drop_table("rate_counters")


def downgrade() -> None:
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("window", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("count", sa.Integer(), nullable=False),
    )
    op.drop_index("ix_rate_hits_key_at", table_name="rate_hits")
    op.drop_table("rate_hits")
