"""The store: the service's durable state (audit log, counts, idempotency keys, accounts).

SQLAlchemy 2 on SQLite (the embedded default, `instance/adjudicator.db`, WAL mode) or PostgreSQL
(`ADJUDICATOR_DATABASE_URL=postgresql+psycopg://…`, for several boxes). Alembic migrations are
the only source of the schema; `adjudicator db upgrade` applies them.

Interface for other features
----------------------------

- Tables: declare ORM classes on `adjudicator.store.Base` (typed, `Mapped[...]`) in a module of
  your feature, and import that module from `adjudicator/store/models.py`'s import list so that
  `Base.metadata` knows every table (the migration test compares it with the migrated schema).
  Add a new Alembic revision under `adjudicator/store/migrations/versions/` whose
  `down_revision` is the current head (`adjudicator db heads` prints it); never edit a landed
  revision. Write it by hand with `op.create_table(...)`, portable between SQLite and
  PostgreSQL (no server-side defaults that differ, timestamps as naive UTC `DateTime`).
- `store.connection(write=True)`: a SQLAlchemy Core `Connection` in one transaction; commits
  on a clean exit, rolls back on an exception. It takes the write lock at BEGIN on SQLite
  (`BEGIN IMMEDIATE`), which a read-then-write transaction needs to avoid "database is locked"
  upgrades failing under concurrency; on PostgreSQL use `select(...).with_for_update()` for rows
  you read and then change.
- `store.utcnow()`: the timestamp every table stores (naive UTC, microseconds).
- Inside a request these use the app's store (`current_app.extensions["store"]`); outside one
  (the CLI), `Store(url)` builds one.

Processes: the engine is created lazily in each process; gunicorn forks its workers after the
app is built (`preload_app`), and a fork drops the parent's engine without closing its
connections (`os.register_at_fork`), so no two processes ever share a database connection.
"""

from __future__ import annotations

import fcntl
import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import get_args

from flask import Flask, current_app
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import make_url
from sqlalchemy.orm import DeclarativeBase

from adjudicator.settings import Settings, Synchronous, current_settings

SQLITE_BUSY_TIMEOUT_MS = 10_000
# A PostgreSQL server that does not answer (its box down) fails a connection after this many
# seconds rather than the system's minutes of TCP retries; a URL may set its own.
POSTGRES_CONNECT_TIMEOUT_SECONDS = 5
# What a database that cannot be used right now raises (down, unreachable, restarting, locked
# past the busy timeout, out of disk), as opposed to a bug: the service answers 503 and the
# client may retry. SQLite reports a damaged schema ("no such table") the same way. The driver's
# own classes count too (`Store.outages`): the append path and the BEGIN hooks call it directly.
SQLALCHEMY_OUTAGES: tuple[type[Exception], ...] = (
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.DisconnectionError,
    sa_exc.TimeoutError,
)
OUTAGE_RETRY_AFTER_SECONDS = 5
# Valid `ADJUDICATOR_SQLITE_SYNCHRONOUS` values (declared in adjudicator.settings). In WAL mode
# NORMAL survives the death of any process (the WAL is in the OS's page cache) but not a power
# cut; FULL fsyncs every commit.
SQLITE_SYNCHRONOUS = get_args(Synchronous)


class Base(DeclarativeBase):
    """Every table of the store."""


class StoreError(Exception):
    """A store that cannot be used: bad URL, unmigrated schema. One line for the operator."""


def describe_error(exc: BaseException) -> str:
    """The driver's own first line, without SQLAlchemy's echo of the SQL and its help link."""
    cause = getattr(exc, "orig", None)
    text = str(cause if cause is not None else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def default_url(instance_path: str) -> str:
    return f"sqlite:///{Path(instance_path) / 'adjudicator.db'}"


_stores: weakref.WeakSet[Store] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for store in list(_stores):
        store._forget_engine()


os.register_at_fork(after_in_child=_after_fork_in_child)


class Store:
    """One database: its URL and, per process, its engine."""

    def __init__(self, url: str, sqlite_synchronous: str = "FULL"):
        try:
            self.url = make_url(url)
        except Exception as exc:  # sqlalchemy.exc.ArgumentError, ValueError
            raise StoreError(f"ADJUDICATOR_DATABASE_URL is not a database URL: {exc}") from None
        if self.url.get_backend_name() not in ("sqlite", "postgresql"):
            raise StoreError(
                f"ADJUDICATOR_DATABASE_URL: unsupported database {self.url.get_backend_name()!r}"
                " (use sqlite:///PATH or postgresql+psycopg://…)"
            )
        if sqlite_synchronous not in SQLITE_SYNCHRONOUS:
            raise StoreError(
                f"ADJUDICATOR_SQLITE_SYNCHRONOUS must be one of {', '.join(SQLITE_SYNCHRONOUS)},"
                f" not {sqlite_synchronous!r}"
            )
        self.sqlite_synchronous = sqlite_synchronous
        self._engine: Engine | None = None
        self._lock = threading.Lock()
        self._turn = self._new_turn()
        _stores.add(self)

    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @property
    def file(self) -> Path | None:
        """The SQLite database's file, where it is one named by its path (not in memory, not
        a `file:` URI)."""
        database = self.url.database if self.is_sqlite else None
        if not database or database == ":memory:" or database.startswith("file:"):
            return None
        return Path(database)

    def _new_turn(self) -> AbstractContextManager[None]:
        """SQLite's writers take turns on a file's lock beside the database (see `_WriteTurn`)."""
        return nullcontext() if self.file is None else _WriteTurn(f"{self.file}.write-turn")

    @property
    def engine(self) -> Engine:
        engine = self._engine
        if engine is None:
            with self._lock:
                if self._engine is None:
                    self._engine = self._create_engine()
                engine = self._engine
        return engine

    def _create_engine(self) -> Engine:
        # hide_parameters: an error's message never carries a statement's values (the words of a
        # ruling, a label) into the log; the service logs no words.
        if self.is_sqlite:
            if self.file is not None:
                self.file.parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(self.url, hide_parameters=True)
            synchronous = self.sqlite_synchronous

            @event.listens_for(engine, "connect")
            def _sqlite_connect(dbapi_connection, record) -> None:
                # The driver's own transaction handling is off: BEGIN is ours (below), so that a
                # writer can take the lock at BEGIN rather than fail upgrading it later. Its
                # `synchronous` is set there too, before its first transaction.
                dbapi_connection.isolation_level = None
                dbapi_connection.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
                dbapi_connection.execute("PRAGMA journal_mode = WAL")
                dbapi_connection.execute("PRAGMA foreign_keys = ON")

            @event.listens_for(engine, "begin")
            def _sqlite_begin(conn: Connection) -> None:
                # Straight to the driver: this runs for every transaction.
                options = conn.get_execution_options()
                dbapi_connection = conn.connection.dbapi_connection
                wanted = synchronous if options.get("store_durable", True) else "NORMAL"
                info = conn.connection.info
                if info.get("synchronous") != wanted:  # set per connection, outside a transaction
                    dbapi_connection.execute(f"PRAGMA synchronous = {wanted}")
                    info["synchronous"] = wanted
                dbapi_connection.execute(
                    "BEGIN IMMEDIATE" if options.get("store_write", False) else "BEGIN"
                )

            return engine
        connect_args = {}
        if "connect_timeout" not in self.url.query:
            connect_args["connect_timeout"] = POSTGRES_CONNECT_TIMEOUT_SECONDS
        engine = create_engine(
            self.url, pool_pre_ping=True, connect_args=connect_args, hide_parameters=True
        )

        @event.listens_for(engine, "begin")
        def _postgresql_begin(conn: Connection) -> None:
            if not conn.get_execution_options().get("store_durable", True):
                conn.connection.dbapi_connection.execute("SET LOCAL synchronous_commit = off")

        return engine

    def _forget_engine(self) -> None:
        """In a forked child: the parent's pooled connections are the parent's; drop them
        without closing (closing would end the parent's sessions) and start afresh."""
        self.dispose(close=False)
        self._lock = threading.Lock()
        self._turn = self._new_turn()

    def dispose(self, close: bool = True) -> None:
        if self._engine is not None:
            self._engine.dispose(close=close)
            self._engine = None

    def outages(self) -> tuple[type[Exception], ...]:
        """What this store raises when it cannot be used: SQLAlchemy's classes and the loaded
        driver's own (PEP 249), so that a SQLite deployment never imports psycopg."""
        dbapi = self.engine.dialect.loaded_dbapi
        return (*SQLALCHEMY_OUTAGES, dbapi.OperationalError, dbapi.InterfaceError)

    def unreachable(self) -> str | None:
        """None when a query gets through; else the driver's reason (for readiness)."""
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("SELECT 1")
        except sa_exc.SQLAlchemyError as exc:
            return describe_error(exc)
        return None

    def write_turn(self) -> AbstractContextManager[None]:
        """The turn `connection(write=True)` takes, for a caller holding its own connection:
        enter it before BEGIN, leave it after COMMIT."""
        return self._turn

    @contextmanager
    def connection(self, write: bool = False, durable: bool = True) -> Iterator[Connection]:
        """A Core connection in a transaction. `durable=False` is for bookkeeping that may be
        lost in a power cut (a rate counter, a last-use time): its commit does not wait for
        the disk (SQLite `synchronous=NORMAL` in WAL mode, PostgreSQL `synchronous_commit=off`),
        so it never costs a request an fsync. It still survives any crashed process on SQLite;
        on PostgreSQL the last fraction of a second of such writes may not."""
        engine = self.engine
        if not durable:
            engine = engine.execution_options(store_durable=False)
        if write:
            engine = engine.execution_options(store_write=True)
        with self._turn if write else nullcontext(), engine.begin() as conn:
            yield conn

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A read-only transaction whose every statement sees the database as its first did:
        for a reader of many statements that must agree (the audit log's rows and its head,
        read in batches). SQLite's read transaction is one snapshot already (WAL, from its
        first read); PostgreSQL's default, READ COMMITTED, takes a new one per statement, so
        this one is REPEATABLE READ. It never waits for a writer, nor makes one wait."""
        engine = self.engine
        if not self.is_sqlite:
            engine = engine.execution_options(
                isolation_level="REPEATABLE READ", postgresql_readonly=True
            )
        with engine.begin() as conn:
            yield conn

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A Core connection for a few reads that need no snapshot in common (a credential
        looked up by its hash), without a transaction around them: each statement is its own
        (SQLite in autocommit; PostgreSQL's driver begins one, rolled back at the pool's
        return). It saves a ruling the BEGIN and COMMIT of a transaction of its own (10 µs
        of CPU on SQLite, benchmarks/ruling_cost.py). Never for writes."""
        with self.engine.connect() as conn:
            yield conn


class _WriteTurn:
    """SQLite writers queue here rather than at SQLite's own lock.

    A second writer at `BEGIN IMMEDIATE` finds the database locked and SQLite's busy handler
    puts it to sleep for 1, 2, 5, 10… ms before trying again, however soon the first finishes:
    under load most of a write's time was that sleep. Here the threads of a process queue on a
    lock and the processes on an exclusive `flock` of one file beside the database, both of
    which wake the next writer the moment the last one is done. A process that does not take
    the turn (an `sqlite3` shell) still gets SQLite's own locking, so nothing depends on it.
    Re-entrant: a write inside a write in one thread reaches SQLite as before.
    """

    def __init__(self, path: str):
        self.path = path
        self._threads = threading.RLock()
        self._depth = 0
        self._fd: int | None = None

    def __enter__(self) -> None:
        self._threads.acquire()
        self._depth += 1
        if self._depth == 1:
            try:
                if self._fd is None:
                    self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
                fcntl.flock(self._fd, fcntl.LOCK_EX)
            except BaseException:
                self._depth -= 1
                self._threads.release()
                raise

    def __exit__(self, *exc: object) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        self._threads.release()


def open_store(
    settings: Settings, url: str | None = None, *, upgrade: bool, at_head: bool = True
) -> Store:
    """The store `url` names, else the settings' (`ADJUDICATOR_DATABASE_URL`, else SQLite in the
    instance folder), checked: with `upgrade` an embedded SQLite database is migrated to the head
    revision first; any other must already be (`adjudicator db upgrade`), since several boxes
    must not race to migrate a shared database. With `at_head`, a database not at the head is a
    `StoreError` saying so. Its engine is disposed: a process that forks next (gunicorn's
    master) holds no connection across the fork."""
    from adjudicator.store import migrate

    url = url or settings.database_url or default_url(settings.instance_dir)
    store = Store(url, settings.sqlite_synchronous)
    if upgrade and store.is_sqlite:
        migrate.upgrade(store)
    if at_head:
        migrate.require_head(store)
    store.dispose()
    return store


def init_app(app: Flask) -> None:
    """The app's store, checked at start (`open_store`): an embedded SQLite database is migrated
    (so `make serve` needs nothing more) unless `ADJUDICATOR_DATABASE_AUTO_UPGRADE` is off."""
    settings = current_settings(app)
    app.extensions["store"] = open_store(settings, upgrade=settings.database_auto_upgrade)


def is_outage(exc: BaseException) -> bool:
    """Whether `exc` says the app's store cannot be used (`Store.outages`): the web layer
    answers it with a 503 `store_unavailable` (`adjudicator.web.errors`)."""
    found = current_app.extensions.get("store")
    return found is not None and isinstance(exc, found.outages())


def current_store() -> Store:
    return current_app.extensions["store"]


def connection(write: bool = False, durable: bool = True):
    """A Core connection in a transaction on the current app's store."""
    return current_store().connection(write, durable)


def reading():
    """A Core connection for reads outside a transaction (`Store.reading`), on the app's store."""
    return current_store().reading()
