"""The audit log can be pruned (`adjudicator audit prune --before DATE`): each prune
appends a checkpoint naming the last entry it removed (its seq and hash), so that `audit verify`
checks the entries kept against it. Checkpoints are append-only, as the log is.

Revision ID: 0007_audit_checkpoints
Revises: 0006_searched_words
Create Date: 2026-12-11
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_audit_checkpoints"
down_revision = "0006_searched_words"
branch_labels = None
depends_on = None

SEQ = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
SQLITE_TRIGGERS = [
    """CREATE TRIGGER audit_checkpoints_no_update BEFORE UPDATE ON audit_checkpoints
       BEGIN SELECT RAISE(ABORT, 'the audit checkpoints are append-only'); END""",
    """CREATE TRIGGER audit_checkpoints_no_delete BEFORE DELETE ON audit_checkpoints
       BEGIN SELECT RAISE(ABORT, 'the audit checkpoints are append-only'); END""",
]
# 0001's function raises 'the audit log is append-only': one message for both tables.
POSTGRES_TRIGGERS = [
    """CREATE TRIGGER audit_checkpoints_no_change BEFORE UPDATE OR DELETE ON audit_checkpoints
       FOR EACH ROW EXECUTE FUNCTION rulings_append_only()""",
    """CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON audit_checkpoints
       FOR EACH STATEMENT EXECUTE FUNCTION rulings_append_only()""",
]


def upgrade() -> None:
    op.create_table(
        "audit_checkpoints",
        sa.Column("seq", SEQ, primary_key=True, autoincrement=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("before", sa.DateTime(), nullable=False),
        sa.Column("entries", sa.Integer(), nullable=False),
        sa.Column("pruned_at", sa.DateTime(), nullable=False),
    )
    sqlite = op.get_bind().dialect.name == "sqlite"
    for statement in SQLITE_TRIGGERS if sqlite else POSTGRES_TRIGGERS:
        op.execute(statement)


def downgrade() -> None:
    op.drop_table("audit_checkpoints")  # its triggers go with it
