"""A ruling writes no index on its hash: the UNIQUE constraint on `rulings.hash` goes, and its
index with it, one more B-tree page (on a random key) that every ruling dirtied and its commit
wrote. No query looks an entry up by its hash: verifying walks the log by `seq` and recomputes
each hash from the entry, so two entries with one hash (which SHA-256 over `seq` and `prev_hash`
does not make) would show there as a broken link, not as a refused INSERT.

SQLite cannot drop a constraint: the table is rebuilt as SQLite's documented procedure does it
(new table, rows copied as they are, old table dropped, new one renamed), with its CHECK on `seq`
(kept off for the copy, as 0004 did, so rows outside the chain stay as evidence), the unique
`ruling_id`, and every trigger and index the table carried, read from `sqlite_master` before the
old table is dropped (a dropped table takes its triggers with it, silently). The table has no
AUTOINCREMENT (its `seq` is the rowid, set by the chain: the head's + 1), so there is no
`sqlite_sequence` row to carry. PostgreSQL drops the constraint by its name.

Revision ID: 0014_rulings_hash_not_indexed
Revises: 0013_lexicon_editions
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_rulings_hash_not_indexed"
down_revision = "0013_lexicon_editions"
branch_labels = None
depends_on = None

COPY = "rulings_0014"
# The table as 0001-0013 left it (the columns in that order), with or without UNIQUE (hash).
COLUMNS = (
    "seq, ruling_id, created_at, kind, ruleset, lexicon_id, lexicon_sha256, caller_kind,"
    " caller_id, caller_name, event, round, table_label, game, player, words, verdict,"
    " consequence, play, prev_hash, hash, lexicon_version, lexicon_in_force_from"
)
TABLE = """CREATE TABLE {name} (
    seq INTEGER NOT NULL,
    ruling_id VARCHAR(32) NOT NULL,
    created_at DATETIME NOT NULL,
    kind VARCHAR(16) NOT NULL,
    ruleset VARCHAR(64) NOT NULL,
    lexicon_id VARCHAR(64) NOT NULL,
    lexicon_sha256 VARCHAR(64) NOT NULL,
    caller_kind VARCHAR(16) NOT NULL,
    caller_id VARCHAR(64) NOT NULL,
    caller_name VARCHAR(128) NOT NULL,
    event VARCHAR(64),
    round VARCHAR(64),
    table_label VARCHAR(64),
    game VARCHAR(64),
    player VARCHAR(64),
    words JSON NOT NULL,
    verdict VARCHAR(16),
    consequence JSON,
    play VARCHAR(64),
    prev_hash VARCHAR(64) NOT NULL,
    hash VARCHAR(64) NOT NULL,
    lexicon_version TEXT,
    lexicon_in_force_from VARCHAR(10),
    PRIMARY KEY (seq),
    CONSTRAINT ck_rulings_seq_positive CHECK (seq > 0),
    UNIQUE (ruling_id){unique_hash}
)"""
UNIQUE_HASH = ",\n    UNIQUE (hash)"


def _sqlite_rebuild(unique_hash: bool) -> None:
    """Rebuild `rulings` with or without UNIQUE (hash): its rows as they are, its triggers and
    (named) indexes as they were."""
    bind = op.get_bind()
    kept = bind.execute(
        sa.text(
            "SELECT sql FROM sqlite_master WHERE tbl_name = 'rulings'"
            " AND type IN ('trigger', 'index') AND sql IS NOT NULL ORDER BY type DESC, rowid"
        )
    ).scalars()
    kept = list(kept)  # the triggers, then the indexes (the automatic ones come with the table)
    op.execute(TABLE.format(name=COPY, unique_hash=UNIQUE_HASH if unique_hash else ""))
    op.execute("PRAGMA ignore_check_constraints = ON")  # rows below the chain stay as evidence
    op.execute(f"INSERT INTO {COPY} ({COLUMNS}) SELECT {COLUMNS} FROM rulings")
    op.execute("PRAGMA ignore_check_constraints = OFF")
    op.execute("DROP TABLE rulings")  # and its triggers: recreated below
    op.execute(f"ALTER TABLE {COPY} RENAME TO rulings")
    for statement in kept:
        op.execute(statement)


def _postgres_hash_constraint() -> str | None:
    """The name of the UNIQUE constraint on `rulings (hash)` alone (0001 left it to PostgreSQL:
    `rulings_hash_key`), or None when there is none."""
    return (
        op.get_bind()
        .execute(
            sa.text(
                "SELECT c.conname FROM pg_constraint c"
                " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)"
                " WHERE c.conrelid = 'rulings'::regclass AND c.contype = 'u'"
                " AND cardinality(c.conkey) = 1 AND a.attname = 'hash'"
            )
        )
        .scalar_one_or_none()
    )


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_rebuild(unique_hash=False)
        return
    name = _postgres_hash_constraint()
    if name is not None:
        op.execute(f'ALTER TABLE rulings DROP CONSTRAINT "{name}"')


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_rebuild(unique_hash=True)
        return
    op.execute("ALTER TABLE rulings ADD CONSTRAINT rulings_hash_key UNIQUE (hash)")
