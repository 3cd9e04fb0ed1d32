"""Every ruling records the edition it rested on (000 §2.1's yearly update, 002's
supplement, 003's "geldende uitgaven"): the lexicon's version and the date it is in force from,
beside its id and sha256, which the entries held from the start. Both are empty in the entries
written before, which therefore hash as they did (`adjudicator.store.entryform.LATER`).

Revision ID: 0013_lexicon_editions
Revises: 0012_precis_labels
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_lexicon_editions"
down_revision = "0012_precis_labels"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rulings", sa.Column("lexicon_version", sa.Text(), nullable=True))
    op.add_column("rulings", sa.Column("lexicon_in_force_from", sa.String(10), nullable=True))


def downgrade() -> None:
    op.drop_column("rulings", "lexicon_in_force_from")
    op.drop_column("rulings", "lexicon_version")
