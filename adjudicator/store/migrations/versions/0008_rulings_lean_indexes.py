"""A ruling writes no index that nothing reads: `ix_rulings_created_at` and
`ix_rulings_ruleset` go. Each index is one more page every ruling dirties and its commit writes
and fsyncs (0.46× and 0.18× of a plain request's CPU, benchmarks/ruling_cost.py). No query
looked up by the time; the directors' search filters by ruleset as by kind and verdict, walking
`seq` downwards to its page of results, and a prune walks `seq` upwards to its first entry kept.

Revision ID: 0008_rulings_lean_indexes
Revises: 0007_audit_checkpoints
Create Date: 2026-12-11
"""

from alembic import op

revision = "0008_rulings_lean_indexes"
down_revision = "0007_audit_checkpoints"
branch_labels = None
depends_on = None

DROPPED = (("ix_rulings_created_at", "created_at"), ("ix_rulings_ruleset", "ruleset"))


def upgrade() -> None:
    for name, _ in DROPPED:
        op.drop_index(name, table_name="rulings")


def downgrade() -> None:
    for name, column in DROPPED:
        op.create_index(name, "rulings", [column])
