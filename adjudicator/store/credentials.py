"""The store's tables for credentials, lockouts and rate limits (Alembic revisions 0002_auth and
0003_rate_hits).

Secrets are stored only as SHA-256 hex digests (tokens, pairing codes) or argon2 hashes
(passwords). Times are naive UTC, as everywhere in the store.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from adjudicator.store import Base
from adjudicator.store.models import SHA256_HEX

NAME_MAX = 64


class Director(Base):
    __tablename__ = "directors"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime())
    last_login_at: Mapped[datetime | None] = mapped_column(DateTime())


class DirectorSession(Base):
    """A director's login: the cookie holds the token, the store only its digest."""

    __tablename__ = "director_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(SHA256_HEX), unique=True)
    director_id: Mapped[int] = mapped_column(
        ForeignKey("directors.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime())
    expires_at: Mapped[datetime] = mapped_column(DateTime())


class Device(Base):
    """A paired judge tablet, bound to one ruleset or (None) to any."""

    __tablename__ = "devices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    ruleset: Mapped[str | None] = mapped_column(String(NAME_MAX))
    token_hash: Mapped[str] = mapped_column(String(SHA256_HEX), unique=True)
    paired_by: Mapped[int | None] = mapped_column(
        ForeignKey("directors.id", ondelete="SET NULL"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime())
    expires_at: Mapped[datetime] = mapped_column(DateTime())
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime())


class PairingCode(Base):
    """A short, single-use code a director shows and a tablet types, valid for minutes."""

    __tablename__ = "pairing_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(SHA256_HEX), unique=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    ruleset: Mapped[str | None] = mapped_column(String(NAME_MAX))
    created_by: Mapped[int] = mapped_column(
        ForeignKey("directors.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime())
    expires_at: Mapped[datetime] = mapped_column(DateTime())
    used_at: Mapped[datetime | None] = mapped_column(DateTime())


class ApiKey(Base):
    """An app's key: shown once, stored as a digest; `scopes` are ruleset ids ("" = all)."""

    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX), unique=True)
    role: Mapped[str] = mapped_column(String(16))
    scopes: Mapped[str] = mapped_column(Text())  # space-separated ruleset ids
    key_hash: Mapped[str] = mapped_column(String(SHA256_HEX), unique=True)
    hint: Mapped[str] = mapped_column(String(16))  # the key's first characters, for lists
    created_at: Mapped[datetime] = mapped_column(DateTime())
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime())


class AuthFailure(Base):
    """One failed attempt (a password, a PIN, a pairing code), counted per account and client
    in a sliding window; an account's rows older than the window go when it next fails."""

    __tablename__ = "auth_failures"
    __table_args__ = (Index("ix_auth_failures_account", "scope", "account", "failed_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scope: Mapped[str] = mapped_column(String(16))
    account: Mapped[str] = mapped_column(String(128))
    client: Mapped[str] = mapped_column(String(128))
    failed_at: Mapped[datetime] = mapped_column(DateTime())


class RateHit(Base):
    """One ruling a credential was allowed, kept while it is within the last minute: the rate
    limit counts a credential's rows in the 60 seconds before each new ruling."""

    __tablename__ = "rate_hits"
    # Kept in the order the count reads them (key, then time) and nothing beside: each ruling's
    # new row and the old rows it drops sit in one B-tree, not a table and an index (one or two
    # pages each ruling writes and fsyncs fewer; migration 0010). On SQLite without a rowid.
    __table_args__ = {"sqlite_with_rowid": False}

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(), primary_key=True)
    # Tells apart two hits of one key at the same microsecond (two workers): random, since no
    # counter is shared by every worker and box.
    tie: Mapped[int] = mapped_column(BigInteger(), primary_key=True, autoincrement=False)
