"""The store: audit log with its chain head, jury counts, idempotency keys.

Revision ID: 0001_store
Revises:
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0001_store"
down_revision = None
branch_labels = None
depends_on = None

GENESIS_HASH = "0" * 64
SEQ = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# The audit log is append-only in the database too: a trigger refuses UPDATE and DELETE (and
# TRUNCATE on PostgreSQL). Someone able to drop the trigger can edit rows; the hash chain is what
# shows it (`adjudicator audit verify`).
SQLITE_TRIGGERS = [
    """CREATE TRIGGER rulings_no_update BEFORE UPDATE ON rulings
       BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END""",
    """CREATE TRIGGER rulings_no_delete BEFORE DELETE ON rulings
       BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END""",
]
POSTGRES_TRIGGERS = [
    """CREATE FUNCTION rulings_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$""",
    """CREATE TRIGGER rulings_no_change BEFORE UPDATE OR DELETE ON rulings
       FOR EACH ROW EXECUTE FUNCTION rulings_append_only()""",
    """CREATE TRIGGER rulings_no_truncate BEFORE TRUNCATE ON rulings
       FOR EACH STATEMENT EXECUTE FUNCTION rulings_append_only()""",
]


def upgrade() -> None:
    op.create_table(
        "rulings",
        sa.Column("seq", SEQ, primary_key=True, autoincrement=True),
        sa.Column("ruling_id", sa.String(32), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False, index=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("ruleset", sa.String(64), nullable=False, index=True),
        sa.Column("lexicon_id", sa.String(64), nullable=False),
        sa.Column("lexicon_sha256", sa.String(64), nullable=False),
        sa.Column("caller_kind", sa.String(16), nullable=False),
        sa.Column("caller_id", sa.String(64), nullable=False),
        sa.Column("caller_name", sa.String(128), nullable=False),
        sa.Column("event", sa.String(64), nullable=True),
        sa.Column("round", sa.String(64), nullable=True),
        sa.Column("table_label", sa.String(64), nullable=True),
        sa.Column("game", sa.String(64), nullable=True),
        sa.Column("player", sa.String(64), nullable=True),
        sa.Column("words", sa.JSON(), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=True),
        sa.Column("consequence", sa.JSON(), nullable=True),
        sa.Column("play", sa.String(64), nullable=True),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False, unique=True),
    )
    head = op.create_table(
        "audit_head",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.bulk_insert(head, [{"id": 1, "seq": 0, "hash": GENESIS_HASH}])
    op.create_table(
        "jury_counts",
        sa.Column("event", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "idempotency_keys",
        sa.Column("caller", sa.String(200), primary_key=True),
        sa.Column("key", sa.String(255), primary_key=True),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False, index=True),
    )
    triggers = SQLITE_TRIGGERS if op.get_bind().dialect.name == "sqlite" else POSTGRES_TRIGGERS
    for statement in triggers:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER rulings_no_truncate ON rulings")
        op.execute("DROP TRIGGER rulings_no_change ON rulings")
        op.execute("DROP FUNCTION rulings_append_only()")
    op.drop_table("idempotency_keys")
    op.drop_table("jury_counts")
    op.drop_table("audit_head")
    op.drop_table("rulings")
