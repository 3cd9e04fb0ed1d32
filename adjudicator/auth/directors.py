"""Directors' accounts and their server-side sessions.

A session is a random token in an HttpOnly cookie; the store keeps only its digest, who it
belongs to and when it expires, so logging out (or removing the director) ends it everywhere.
The CSRF token of a session is derived from the session token, so it needs no column and is
unknown to anyone who holds only the store's rows.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa

from adjudicator.auth import lockout, passwords
from adjudicator.auth.caller import Caller
from adjudicator.auth.passwords import hash_password, needs_rehash, verify_password
from adjudicator.auth.tokens import SESSION_PREFIX, digest, new_token
from adjudicator.store import Store
from adjudicator.store.credentials import NAME_MAX, Director, DirectorSession

# Matched whole (`fullmatch`): with `match`, `$` also matches before a final newline.
NAME_PATTERN = re.compile(rf"[\w.@-]{{1,{NAME_MAX}}}")
LOGIN_SCOPE = "login"


class AccountError(ValueError):
    """A name (a director's or a key's), a password or a key's role or rulesets the store
    cannot take; the message says why."""


@dataclass(frozen=True)
class LoginResult:
    session_token: str | None = None
    wait: int = 0  # seconds this client must wait before trying this account again


def is_name(name: str) -> bool:
    """Whether `name` can be a director's (or an app key's) name at all."""
    return NAME_PATTERN.fullmatch(name) is not None


def check_name(name: str, whose: str = "a director's") -> str:
    if not is_name(name):
        raise AccountError(
            f"{whose} name is 1 to {NAME_MAX} letters, digits or . _ @ - (not {name!r})"
        )
    return name


def check_password(password: str) -> str:
    if len(password) < passwords.MIN_LENGTH:
        raise AccountError(f"a password needs at least {passwords.MIN_LENGTH} characters")
    if len(password) > passwords.MAX_LENGTH:
        raise AccountError(f"a password has at most {passwords.MAX_LENGTH} characters")
    return password


def _id_of(conn: sa.Connection, name: str) -> int | None:
    return conn.execute(sa.select(Director.id).where(Director.name == name)).scalar()


def add(conn: sa.Connection, name: str, password: str, now: datetime) -> int:
    check_name(name)
    if _id_of(conn, name) is not None:
        raise AccountError(f"a director named {name!r} already exists")
    hashed = hash_password(check_password(password))
    try:
        return conn.execute(
            sa.insert(Director).values(name=name, password_hash=hashed, created_at=now)
        ).inserted_primary_key[0]
    except sa.exc.IntegrityError:  # added meanwhile by another process (PostgreSQL)
        raise AccountError(f"a director named {name!r} already exists") from None


def remove(conn: sa.Connection, name: str) -> bool:
    director_id = _id_of(conn, name)
    if director_id is None:
        return False
    conn.execute(sa.delete(DirectorSession).where(DirectorSession.director_id == director_id))
    conn.execute(sa.delete(Director).where(Director.id == director_id))
    return True


def set_password(conn: sa.Connection, name: str, password: str) -> int | None:
    """Give the director a new password and end every session they have (a password changed
    because it leaked must not leave a thief logged in). The number of sessions ended; None
    when there is no such director."""
    director_id = _id_of(conn, name)
    if director_id is None:
        return None
    hashed = hash_password(check_password(password))
    conn.execute(sa.update(Director).where(Director.id == director_id).values(password_hash=hashed))
    s = DirectorSession
    return conn.execute(sa.delete(s).where(s.director_id == director_id)).rowcount


def exists(conn: sa.Connection, name: str) -> bool:
    return _id_of(conn, name) is not None


def listed(conn: sa.Connection, now: datetime) -> list[dict]:
    s = DirectorSession
    sessions = (
        sa.select(sa.func.count())
        .where(s.director_id == Director.id, s.expires_at > now)
        .scalar_subquery()
    )
    rows = conn.execute(
        sa.select(
            Director.id,
            Director.name,
            Director.created_at,
            Director.last_login_at,
            sessions.label("sessions"),
        ).order_by(Director.name)
    ).all()
    return [dict(r._mapping) for r in rows]


def _account(name: str) -> str:
    """The key a name's failed logins are counted under. A name no account can have (a control
    character, say: PostgreSQL refuses a NUL in any text) is counted under its digest."""
    if not is_name(name):
        return "?" + digest(name)
    return name.casefold()[: NAME_MAX * 2]


def login(
    store: Store,
    name: str,
    password: str,
    client: str,
    policy: lockout.Policy,
    session_seconds: int,
    now: datetime,
) -> LoginResult:
    """Check a password under the lockout policy; a new session token when it is right.

    The attempt is counted before the password is checked (`lockout.attempt`), in a short write
    transaction; argon2 then runs outside any transaction, so a stream of wrong passwords never
    holds the store's write lock (SQLite's is the whole database's) while it hashes. Unknown
    names are counted and timed like known ones, so neither the answer nor its time tells
    whether an account exists.
    """
    account = _account(name)
    with store.connection(write=True) as conn:
        wait = lockout.attempt(conn, LOGIN_SCOPE, account, client, policy, now)
        row = None
        if not wait and is_name(name):
            row = conn.execute(
                sa.select(Director.id, Director.password_hash).where(Director.name == name)
            ).first()
    if wait:
        return LoginResult(wait=wait)
    if not verify_password(row.password_hash if row else None, password):
        return LoginResult()  # already counted
    rehashed = hash_password(password) if needs_rehash(row.password_hash) else None
    token = new_token(SESSION_PREFIX)
    with store.connection(write=True) as conn:
        lockout.clear(conn, LOGIN_SCOPE, account, client)
        values: dict = {"last_login_at": now}
        if rehashed:
            values["password_hash"] = rehashed
        # Only if the password checked is still the account's: a `directors passwd` or
        # `remove` since then ended the account's sessions, and this one must not outlive it.
        still = conn.execute(
            sa.update(Director)
            .where(Director.id == row.id, Director.password_hash == row.password_hash)
            .values(**values)
        )
        if still.rowcount != 1:
            return LoginResult()
        conn.execute(sa.delete(DirectorSession).where(DirectorSession.expires_at <= now))
        conn.execute(
            sa.insert(DirectorSession).values(
                token_hash=digest(token),
                director_id=row.id,
                created_at=now,
                expires_at=now + timedelta(seconds=session_seconds),
            )
        )
    return LoginResult(session_token=token)


def unlock(conn: sa.Connection, name: str) -> int:
    """Forget every failed login for an account (the operator's way out of a lockout)."""
    return lockout.clear(conn, LOGIN_SCOPE, _account(name))


def resolve_session(conn: sa.Connection, token: str, now: datetime) -> Caller | None:
    s = DirectorSession
    row = conn.execute(
        sa.select(Director.id, Director.name)
        .join_from(s, Director, s.director_id == Director.id)
        .where(s.token_hash == digest(token), s.expires_at > now)
    ).first()
    return Caller("director", str(row.id), row.name) if row else None


def end_session(conn: sa.Connection, token: str) -> None:
    conn.execute(sa.delete(DirectorSession).where(DirectorSession.token_hash == digest(token)))


def csrf_token(session_token: str) -> str:
    return hashlib.sha256(b"csrf\0" + session_token.encode("utf-8")).hexdigest()


def csrf_matches(session_token: str, given: str | None) -> bool:
    # As bytes: compare_digest refuses str with non-ASCII characters (a crash, not a refusal).
    return bool(given) and hmac.compare_digest(
        csrf_token(session_token).encode(), given.encode("utf-8", "surrogatepass")
    )
