"""Alembic, driven from code: the migrations ship inside the package (`migrations/`), so an
installed service upgrades its database with `adjudicator db upgrade` and no alembic.ini."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.exc import SQLAlchemyError

from adjudicator.store import Store, StoreError, describe_error

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def _config(store: Store | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["store"] = store
    return config


@functools.cache
def heads() -> tuple[str, ...]:
    """The head revision(s) of the shipped migrations (read once per process)."""
    return tuple(ScriptDirectory.from_config(_config()).get_heads())


@contextmanager
def _failing(doing: str, store: Store) -> Iterator[None]:
    """A database error, as one line for the operator naming the database (`StoreError`)."""
    try:
        yield
    except SQLAlchemyError as exc:
        where = store.url.render_as_string()
        raise StoreError(f"cannot {doing} {where}: {describe_error(exc)}") from None


def current(store: Store) -> tuple[str, ...]:
    """The revision(s) the database is at; empty for a database never migrated."""
    with _failing("read the database", store), store.engine.connect() as conn:
        return tuple(MigrationContext.configure(conn).get_current_heads())


def upgrade(store: Store, revision: str = "heads") -> None:
    with _failing("migrate", store):
        command.upgrade(_config(store), revision)


def require_head(store: Store) -> None:
    at = set(current(store))
    if at != set(heads()):
        state = ", ".join(sorted(at)) or "empty"
        raise StoreError(
            f"the database {store.url.render_as_string()} is at revision {state}, not"
            f" {', '.join(heads())}: run `adjudicator db upgrade`"
        )
