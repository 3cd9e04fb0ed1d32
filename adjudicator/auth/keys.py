"""API keys for apps: shown once when created, stored as a digest, scoped, revocable."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from adjudicator.auth import prepared
from adjudicator.auth.caller import Caller
from adjudicator.auth.directors import AccountError, check_name
from adjudicator.auth.tokens import APP_PREFIX, digest, new_token
from adjudicator.bounds import MAX_ROW_ID
from adjudicator.store import driver
from adjudicator.store.credentials import ApiKey

ROLES = ("app",)
HINT = len(APP_PREFIX) + 4


@dataclass(frozen=True)
class NewKey:
    id: int
    name: str
    key: str


def create(
    conn: sa.Connection, name: str, role: str, scopes: list[str], known: set[str], now: datetime
) -> NewKey:
    if role not in ROLES:
        raise AccountError(f"unknown role {role!r}; known: {', '.join(ROLES)}")
    check_name(name, "a key's")
    unknown = sorted(set(scopes) - known)
    if unknown:
        raise AccountError(f"unknown ruleset {unknown[0]!r}; known: {', '.join(sorted(known))}")
    if conn.execute(sa.select(ApiKey.id).where(ApiKey.name == name)).first():
        raise AccountError(f"a key named {name!r} already exists")
    key = new_token(APP_PREFIX)
    key_id = conn.execute(
        sa.insert(ApiKey).values(
            name=name,
            role=role,
            scopes=" ".join(sorted(set(scopes))),
            key_hash=digest(key),
            hint=key[:HINT],
            created_at=now,
        )
    ).inserted_primary_key[0]
    return NewKey(key_id, name, key)


def resolve(conn: sa.Connection, key: str) -> Caller | None:
    """The key's caller (a read: its last use is noted by `auth.bookkeeping`). On every ruling:
    a prepared statement (`auth.prepared`)."""
    sql = prepared.statements(conn)
    row = driver.one(conn, sql.key_by_hash, (digest(key),))
    if row is None:
        return None
    key_id, name, scopes, last_used_at = row
    return Caller(
        "app", str(key_id), name, frozenset(scopes.split()) or None, sql.from_db(last_used_at)
    )


def revoke(conn: sa.Connection, name_or_id: str, now: datetime) -> bool:
    """Revoke by name, or by id when no key has that name."""
    key_id = conn.execute(sa.select(ApiKey.id).where(ApiKey.name == name_or_id)).scalar()
    if key_id is None:
        # An id: ASCII digits (int() refuses "²", a digit), within the stores' ids.
        if not (name_or_id.isascii() and name_or_id.isdigit()) or int(name_or_id) > MAX_ROW_ID:
            return False
        key_id = int(name_or_id)
    return revoke_id(conn, key_id, now) is not None


def revoke_id(conn: sa.Connection, key_id: int, now: datetime) -> str | None:
    """Revoke the key with this id (the director's page names keys by id): its name, or None
    when there is no such key or it was revoked already."""
    c = ApiKey
    revoked = sa.update(c).where(c.id == key_id, c.revoked_at.is_(None)).values(revoked_at=now)
    return conn.execute(revoked.returning(c.name)).scalar()


def listed(conn: sa.Connection) -> list[dict]:
    c = ApiKey
    rows = conn.execute(
        sa.select(
            c.id, c.name, c.role, c.scopes, c.hint, c.created_at, c.last_used_at, c.revoked_at
        ).order_by(c.id)
    ).all()
    return [dict(r._mapping) for r in rows]
