"""`Idempotency-Key`: a retried request gets the original answer, recorded once.

A tablet on flaky Wi-Fi, or nginx retrying an upstream, may send the same ruling request twice.
With the same key (per caller: a credential, or in open mode an anonymous client's address), the
same method, path and body, the second gets the first's answer byte for byte (the same ruling
id) and `Idempotent-Replayed: true`, and nothing is logged or counted again. The same key with
another request is refused (422, as the IETF draft "The Idempotency-Key HTTP Header Field"
says). Keys are kept for `TTL` (24 hours: a tournament day, longer than any retry); after
that the key is free again.

The lookup and the record happen in the ruling's own transaction, under the audit log's append
lock, so two copies of one request racing on two workers or boxes still rule once. Both run on
every keyed ruling, so they are plain SQL sent to the driver (`store.driver`), like the audit
append: through SQLAlchemy Core their statement building cost about 220 µs a ruling.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import Response, current_app, request
from sqlalchemy import Connection

from adjudicator.problems import Problem
from adjudicator.store import driver, utcnow
from adjudicator.store.models import IDEMPOTENCY_KEY_MAX, IdempotencyKey
from adjudicator.web.errors import ApiError

HEADER = "Idempotency-Key"
TTL = timedelta(hours=24)
PURGE_EVERY = 200  # keyed requests per process between deletions of expired keys

KEYS = IdempotencyKey.__table__
_counter = itertools.count()


@dataclass(frozen=True)
class _Statements:
    """The conversions of the columns' own types (so a row written here reads back through
    SQLAlchemy unchanged) and the keyed ruling's statements, written here with `?` and given
    in the driver's placeholder style (`driver.PerDialect`)."""

    time_to_db: Callable[[datetime], Any]
    time_from_db: Callable[[Any], datetime]
    body_to_db: Callable[[bytes], Any]
    body_from_db: Callable[[Any], bytes]
    find: str = (
        f"SELECT request_hash, status, body, created_at FROM {KEYS.name}"
        " WHERE caller = ? AND key = ?"
    )
    forget: str = f"DELETE FROM {KEYS.name} WHERE caller = ? AND key = ?"
    add: str = f"INSERT INTO {KEYS.name} " + driver.values(
        ("caller", "key", "request_hash", "status", "body", "created_at")
    )
    purge: str = f"DELETE FROM {KEYS.name} WHERE created_at < ?"


_statements = driver.PerDialect(
    lambda dialect: _Statements(
        driver.to_db(KEYS.c.created_at, dialect),
        driver.from_db(KEYS.c.created_at, dialect),
        driver.to_db(KEYS.c.body, dialect),
        driver.from_db(KEYS.c.body, dialect),
    )
)


@dataclass(frozen=True)
class Key:
    caller: str
    key: str
    request_hash: str


def _parse(raw: str) -> str:
    """The key: a structured-field string (`"abc"`, as the draft writes it) or a bare token."""
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    if not 1 <= len(value) <= IDEMPOTENCY_KEY_MAX:
        wrong = f"{HEADER} must be 1 to {IDEMPOTENCY_KEY_MAX} characters"
    elif not all(0x20 < ord(c) < 0x7F and c not in '"\\' for c in value):
        wrong = f"{HEADER} must be printable ASCII without spaces, quotes or backslashes"
    else:
        return value
    raise ApiError(Problem.BAD_IDEMPOTENCY_KEY, wrong, HEADER)


def from_request(namespace: Callable[[], str]) -> Key | None:
    """The request's key among the caller's (`namespace`, `api.ruling`: worked out only for a
    request that has a key), or None when it has none."""
    raw = request.headers.get(HEADER)
    if raw is None:
        return None
    key = _parse(raw)
    digest = hashlib.sha256(f"{request.method} {request.path}\n".encode())
    digest.update(request.get_data(cache=True))
    return Key(namespace(), key, digest.hexdigest())


def lookup(conn: Connection, key: Key) -> Response | None:
    """The stored answer to replay, None for a new (or expired) key; 422 for a key reused with
    another request."""
    sql = _statements(conn)
    row = driver.one(conn, sql.find, (key.caller, key.key))
    if row is None:
        return None
    request_hash, status, body, created_at = row
    if sql.time_from_db(created_at) < utcnow() - TTL:
        driver.change(conn, sql.forget, (key.caller, key.key))
        return None
    if request_hash != key.request_hash:
        raise ApiError(
            Problem.IDEMPOTENCY_KEY_REUSED,
            f"this {HEADER} was used for a different request; use a new key for a new request",
            HEADER,
        )
    response = current_app.response_class(
        sql.body_from_db(body), status, mimetype="application/json"
    )
    response.headers["Idempotent-Replayed"] = "true"
    return response


def remember(conn: Connection, key: Key, status: int, body: bytes) -> None:
    """Keep the answer under its key, in the ruling's transaction; now and then the expired
    keys of every caller go."""
    sql = _statements(conn)
    now = utcnow()
    driver.change(
        conn,
        sql.add,
        (key.caller, key.key, key.request_hash, status, sql.body_to_db(body), sql.time_to_db(now)),
    )
    if next(_counter) % PURGE_EVERY == 0:
        driver.change(conn, sql.purge, (sql.time_to_db(now - TTL),))
