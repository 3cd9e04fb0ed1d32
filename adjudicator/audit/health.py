"""Whether the store can record a ruling as the service writes it, and what to say when not.

A store can be reachable and still refuse every ruling: the audit log damaged (its INSERT
trigger dropped, the head row moved out of step with the last entry) or the disk full. Each
ruling's transaction checks the chain it appends to (`before_append`, and `chain.write`'s
`HeadDidNotMove`): the head must name the last entry (or the newest prune's checkpoint when none
is kept), and after the insert it must have moved to the last row appended, which only the
database's trigger does (checked in the statements the append runs anyway, `chain`). A
ruling that fails either check, or that the database refuses (a constraint, a full disk), is
rolled back whole (no entry, no count, no stored answer) and answered 503
`store_refuses_writes`, never 500: an operator must act, and `readyz` says why.

`readyz` reports the same: the log's triggers and head (`damage`), room left for the database
(`room`: SQLite's `max_page_count` and the filesystem's free space), and a refusal this process
met while recording in the last minute (a full disk on PostgreSQL shows only when a write
fails), each named by a cause, `audit_log_damaged` or `store_full`; the detail goes to the log.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass

from flask import Flask
from sqlalchemy import Connection
from sqlalchemy import exc as sa_exc

from adjudicator.audit import chain
from adjudicator.problems import Problem
from adjudicator.store import Store, describe_error, driver
from adjudicator.web.errors import ApiError

DAMAGED = "audit_log_damaged"
FULL = "store_full"
MIN_FREE_BYTES = 1 << 20  # less room than this for the database: not ready (store_full)
REMEMBERED_SECONDS = 60  # a refusal met while recording keeps readyz not ready this long
RETRY_AFTER_SECONDS = 60  # an operator must act first: no point retrying within seconds
POSTGRES_DISK_FULL = "53100"  # SQLSTATE disk_full
# The triggers that keep the log append-only and move its head (migrations 0001 and 0004), and
# the statement that lists those in force, per dialect.
TRIGGERS = {
    "sqlite": (
        ("rulings_insert_at_head", "rulings_no_update", "rulings_no_delete"),
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'rulings'",
    ),
    "postgresql": (
        ("rulings_insert_at_head", "rulings_no_change", "rulings_no_truncate"),
        "SELECT tgname FROM pg_trigger WHERE tgrelid = 'rulings'::regclass"
        " AND NOT tgisinternal AND tgenabled <> 'D'",
    ),
}


@dataclass(frozen=True)
class Refused(Exception):
    """The store refuses to record a ruling: `cause` (DAMAGED or FULL) for readyz and clients,
    `detail` for the operator's log (it may name paths)."""

    cause: str
    detail: str

    def __str__(self) -> str:
        return self.detail


def before_append(conn: Connection, head: chain.Head, last: tuple[int, str] | None) -> None:
    """Under the append lock: the head names the last entry, so what is appended extends the
    chain (a head moved back, or rows inserted past it, would fork or break it). `last` is the
    log's last entry (seq, hash) as read under the lock (`chain.lock_for_append`), None when it
    keeps none: then the head names the newest prune's checkpoint."""
    if last is None:
        start = chain.checkpoint(conn)
        last = start.seq, start.hash
    if (head.seq, head.hash) != tuple(last):
        raise Refused(
            DAMAGED,
            f"the chain head names entry seq {head.seq}, but the log ends at seq {last[0]}"
            " (the head was moved, or entries were written around it)",
        )


def refusal(exc: BaseException, store: Store) -> Refused | None:
    """What a database error met while recording a ruling says of the store: a constraint or
    trigger refusing the append (the log is damaged), or no room left; None for anything else
    (an outage is `store_unavailable`, retried shortly). The append path sends some statements
    straight to the driver, so its own exceptions are read as SQLAlchemy's are."""
    if isinstance(exc, Refused):
        return exc
    if isinstance(exc, chain.HeadDidNotMove):  # after the insert (`chain.write`)
        return Refused(
            DAMAGED,
            "the chain head did not move with the entries appended: the log's INSERT trigger"
            " (rulings_insert_at_head) is missing",
        )
    cause = getattr(exc, "orig", None) or exc
    integrity = (sa_exc.IntegrityError, store.engine.dialect.loaded_dbapi.IntegrityError)
    if isinstance(exc, integrity) or isinstance(cause, integrity):
        return Refused(DAMAGED, f"the database refused the append: {describe_error(exc)}")
    if getattr(cause, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or (
        getattr(cause, "sqlstate", None) == POSTGRES_DISK_FULL
    ):
        return Refused(FULL, f"the database has no room left: {describe_error(exc)}")
    return None


def answer(app: Flask, refused: Refused) -> ApiError:
    """Note the refusal for readyz and the operator's log; the problem the client gets."""
    app.logger.error("the store refuses to record rulings (%s): %s", refused.cause, refused.detail)
    app.extensions["store_refusal"] = (refused, time.monotonic())
    return ApiError(
        Problem.STORE_REFUSES_WRITES,
        "the store refuses to record rulings"
        + (" (its audit log is damaged)" if refused.cause == DAMAGED else " (it is full)")
        + ", so nothing can be ruled; nothing was recorded. An operator must act (readyz"
        " says why); retry later with the same Idempotency-Key",
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        extra={"cause": refused.cause},
    )


def recorded(app: Flask) -> None:
    """A ruling was recorded: a refusal remembered before is over."""
    app.extensions["store_refusal"] = None


def damage(conn: Connection) -> str | None:
    """What is wrong with the audit log's structure, or None: its triggers and its head."""
    names, listed = TRIGGERS[conn.dialect.name]
    present = {row[0] for row in conn.exec_driver_sql(listed)}
    missing = [name for name in names if name not in present]
    if missing:
        return f"the audit log's trigger(s) {', '.join(missing)} are missing"
    head = chain.current_head(conn)
    if head is None:
        return "the chain head row is missing"
    try:
        before_append(conn, head, driver.one(conn, chain.LAST_ENTRY))
    except Refused as exc:
        return exc.detail
    return None


def room(store: Store, conn: Connection) -> str | None:
    """Why the database has no room for more rulings, or None (SQLite: the pages it may still
    grow by, and the free space of its filesystem; PostgreSQL's disk is the server's)."""
    if not store.is_sqlite:
        return None
    page_size = conn.exec_driver_sql("PRAGMA page_size").scalar_one()
    pages = conn.exec_driver_sql("PRAGMA page_count").scalar_one()
    most = conn.exec_driver_sql("PRAGMA max_page_count").scalar_one()
    free = conn.exec_driver_sql("PRAGMA freelist_count").scalar_one()
    if (most - pages + free) * page_size < MIN_FREE_BYTES:
        return f"the database may grow by {most - pages + free} pages more (max_page_count)"
    if store.file is not None:
        stat = os.statvfs(store.file.parent)
        if stat.f_bavail * stat.f_frsize < MIN_FREE_BYTES:
            return f"{stat.f_bavail * stat.f_frsize} bytes free on the database's filesystem"
    return None


def writable(app: Flask, store: Store) -> Refused | None:
    """Why the store refuses rulings now, or None when it takes them: readyz's check (the store
    is reachable)."""
    try:
        # one snapshot: the head and the last entry as at one moment (at READ COMMITTED each
        # statement saw its own, and another instance's append between them read as damage)
        with store.snapshot() as conn:
            damaged = damage(conn)
            if damaged is not None:
                return Refused(DAMAGED, damaged)
            full = room(store, conn)
            if full is not None:
                return Refused(FULL, full)
    except sa_exc.SQLAlchemyError as exc:  # the check itself failed: the schema is not ours
        return Refused(DAMAGED, describe_error(exc))
    refused, at = app.extensions.get("store_refusal") or (None, 0.0)
    return refused if time.monotonic() - at < REMEMBERED_SECONDS else None
