"""An unlabelled ruling writes no event index page: `ix_ruling_labels_event` keeps
only the rows that have an event. Every ruling has a `ruling_labels` row (its words are
searched), but most carry no event (open mode, most apps), and an index entry for each of their
NULLs was one more page each ruling dirtied and its commit wrote and fsynced. A search by event
(`event = …`) implies `event IS NOT NULL`, so SQLite's and PostgreSQL's planners still use it.

Revision ID: 0009_labels_event_partial_index
Revises: 0008_rulings_lean_indexes
Create Date: 2026-12-12
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_labels_event_partial_index"
down_revision = "0008_rulings_lean_indexes"
branch_labels = None
depends_on = None

NAME = "ix_ruling_labels_event"
WHERE = "event IS NOT NULL"


def upgrade() -> None:
    op.drop_index(NAME, table_name="ruling_labels")
    op.create_index(
        NAME,
        "ruling_labels",
        ["event"],
        sqlite_where=sa.text(WHERE),
        postgresql_where=sa.text(WHERE),
    )


def downgrade() -> None:
    op.drop_index(NAME, table_name="ruling_labels")
    op.create_index(NAME, "ruling_labels", ["event"])
