"""Alembic environment: migrate the Store passed in `config.attributes["store"]`.

Migrations run in one transaction holding the write lock: `BEGIN IMMEDIATE` on SQLite, an
advisory lock on PostgreSQL, so boxes started together do not migrate the same database twice.
"""

from alembic import context
from sqlalchemy import text

from adjudicator.store import Store
from adjudicator.store.models import Base

store: Store = context.config.attributes["store"]
MIGRATION_LOCK = 0x5C4AB1E  # an arbitrary advisory lock id for "migrating"

with store.connection(write=True) as conn:
    if not store.is_sqlite:
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
    context.configure(
        connection=conn,
        target_metadata=Base.metadata,
        render_as_batch=store.is_sqlite,  # SQLite alters tables by copying them
        transactional_ddl=True,
    )
    context.run_migrations()
