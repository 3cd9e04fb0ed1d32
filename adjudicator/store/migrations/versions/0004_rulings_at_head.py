"""The audit log grows only at its head: a CHECK refuses a `seq` below 1, and
an INSERT trigger takes a row only when its `seq` is the head's + 1 and moves the head to it, so
each row of a multi-row INSERT follows the one before. Until now a row could be inserted below
the chain (or past its head) with no trigger dropped.

Rows already outside the chain are kept, as evidence for `adjudicator audit verify`: on
PostgreSQL the CHECK then stays NOT VALID (new rows are checked, old ones not), and on SQLite the
table is copied with CHECKs off.

Revision ID: 0004_rulings_at_head
Revises: 0003_rate_hits
Create Date: 2026-12-10
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_rulings_at_head"
down_revision = "0003_rate_hits"
branch_labels = None
depends_on = None

CHECK = "ck_rulings_seq_positive"
REFUSED = "the audit log grows only at its head"

SQLITE_INSERT_TRIGGER = f"""CREATE TRIGGER rulings_insert_at_head AFTER INSERT ON rulings
    BEGIN
        SELECT RAISE(ABORT, '{REFUSED}')
        WHERE NEW.seq IS NOT (SELECT seq + 1 FROM audit_head WHERE id = 1);
        UPDATE audit_head SET seq = NEW.seq, hash = NEW.hash WHERE id = 1;
    END"""
# SQLite drops a table's triggers with it: the copy that adds the CHECK needs 0001's again.
SQLITE_APPEND_ONLY = [
    """CREATE TRIGGER rulings_no_update BEFORE UPDATE ON rulings
       BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END""",
    """CREATE TRIGGER rulings_no_delete BEFORE DELETE ON rulings
       BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END""",
]
# BEFORE, so that the next row of the same statement sees the head moved (PostgreSQL fires
# AFTER ROW triggers at the end of the statement).
POSTGRES_INSERT_TRIGGER = [
    f"""CREATE FUNCTION rulings_at_head() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
           UPDATE audit_head SET seq = NEW.seq, hash = NEW.hash
           WHERE id = 1 AND seq = NEW.seq - 1;
           IF NOT FOUND THEN RAISE EXCEPTION '{REFUSED}'; END IF;
           RETURN NEW;
       END $$""",
    """CREATE TRIGGER rulings_insert_at_head BEFORE INSERT ON rulings
       FOR EACH ROW EXECUTE FUNCTION rulings_at_head()""",
]


def _sqlite_copy(add_check: bool) -> None:
    """Copy the table with or without the CHECK, its rows as they are (checks off meanwhile)."""
    op.execute("PRAGMA ignore_check_constraints = ON")
    with op.batch_alter_table("rulings", recreate="always") as batch:
        if add_check:
            batch.create_check_constraint(CHECK, "seq > 0")
        else:
            batch.drop_constraint(CHECK, type_="check")
    op.execute("PRAGMA ignore_check_constraints = OFF")
    for statement in SQLITE_APPEND_ONLY:
        op.execute(statement)


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_copy(add_check=True)
        op.execute(SQLITE_INSERT_TRIGGER)
        return
    op.execute(f"ALTER TABLE rulings ADD CONSTRAINT {CHECK} CHECK (seq > 0) NOT VALID")
    if (
        not op.get_bind()
        .execute(sa.text("SELECT EXISTS (SELECT 1 FROM rulings WHERE seq < 1)"))
        .scalar()
    ):
        op.execute(f"ALTER TABLE rulings VALIDATE CONSTRAINT {CHECK}")  # NOT VALID only if needed
    for statement in POSTGRES_INSERT_TRIGGER:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER rulings_insert_at_head")
        _sqlite_copy(add_check=False)
        return
    op.execute("DROP TRIGGER rulings_insert_at_head ON rulings")
    op.execute("DROP FUNCTION rulings_at_head()")
    op.execute(f"ALTER TABLE rulings DROP CONSTRAINT {CHECK}")
