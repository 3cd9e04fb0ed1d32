"""Judge devices: a director makes a short pairing code, the tablet redeems it for a token.

The code is single-use, valid for a few minutes, and stored only as a digest; redeeming it makes
a device row holding the digest of a long random token, bound to a ruleset if the director chose
one. Revoking the row ends the device at once on every worker and box.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa

from adjudicator.auth import prepared
from adjudicator.auth.caller import Caller
from adjudicator.auth.tokens import (
    DEVICE_PREFIX,
    digest,
    new_pairing_code,
    new_token,
    normalise_code,
)
from adjudicator.store import driver
from adjudicator.store.credentials import Device, Director, PairingCode


@dataclass(frozen=True)
class Pairing:
    code: str
    expires_at: datetime
    id: int  # what the director's screen asks after (`pairing_state`), never the code


@dataclass(frozen=True)
class Paired:
    device_id: int
    ruleset: str | None
    token: str


def new_pairing(
    conn: sa.Connection,
    director_id: int,
    name: str,
    ruleset: str | None,
    seconds: int,
    now: datetime,
) -> Pairing:
    conn.execute(sa.delete(PairingCode).where(PairingCode.expires_at <= now))
    code = new_pairing_code()
    expires = now + timedelta(seconds=seconds)
    made = conn.execute(
        sa.insert(PairingCode).values(
            code_hash=digest(code),
            name=name,
            ruleset=ruleset,
            created_by=director_id,
            created_at=now,
            expires_at=expires,
        )
    )
    return Pairing(code, expires, made.inserted_primary_key[0])


def pairing_state(conn: sa.Connection, pairing_id: int, now: datetime) -> str:
    """Where a pairing code the director is showing stands: `waiting` for a tablet, `paired`
    (a tablet redeemed it), or `expired` (ran out unused, or cleared away since)."""
    p = PairingCode
    row = conn.execute(sa.select(p.used_at, p.expires_at).where(p.id == pairing_id)).first()
    if row is not None and row.used_at is not None:
        return "paired"
    if row is None or row.expires_at <= now:
        return "expired"
    return "waiting"


def redeem(conn: sa.Connection, text: str, device_seconds: int, now: datetime) -> Paired | None:
    """The device a valid, unused, unexpired code makes; None for any other code."""
    p = PairingCode
    used = conn.execute(
        sa.update(p)
        .where(p.code_hash == digest(normalise_code(text)), p.used_at.is_(None), p.expires_at > now)
        .values(used_at=now)
        .returning(p.name, p.ruleset, p.created_by)
    ).first()
    if used is None:  # the UPDATE is the claim: two tablets typing one code get one device
        return None
    token = new_token(DEVICE_PREFIX)
    device_id = conn.execute(
        sa.insert(Device).values(
            name=used.name,
            ruleset=used.ruleset,
            token_hash=digest(token),
            paired_by=used.created_by,
            created_at=now,
            expires_at=now + timedelta(seconds=device_seconds),
        )
    ).inserted_primary_key[0]
    return Paired(device_id, used.ruleset, token)


def resolve(conn: sa.Connection, token: str, now: datetime) -> Caller | None:
    """The device a token names (a read: its last use is noted by `auth.bookkeeping`). On every
    ruling: a prepared statement (`auth.prepared`)."""
    sql = prepared.statements(conn)
    row = driver.one(conn, sql.device_by_hash, (digest(token), sql.to_db(now)))
    if row is None:
        return None
    device_id, name, ruleset, last_used_at = row
    rulesets = frozenset([ruleset]) if ruleset else None
    return Caller("device", str(device_id), name, rulesets, sql.from_db(last_used_at))


def revoke(conn: sa.Connection, device_id: int, now: datetime) -> bool:
    d = Device
    done = conn.execute(
        sa.update(d).where(d.id == device_id, d.revoked_at.is_(None)).values(revoked_at=now)
    )
    return done.rowcount == 1


def listed(conn: sa.Connection, now: datetime, include_revoked: bool = True) -> list[dict]:
    """The paired devices as the director's screen lists them, each with its `state` at `now`."""
    d = Device
    query = (
        sa.select(
            d.id,
            d.name,
            d.ruleset,
            d.created_at,
            d.expires_at,
            d.last_used_at,
            d.revoked_at,
            Director.name.label("paired_by"),
            sa.case(
                (d.revoked_at.is_not(None), "revoked"),
                (d.expires_at <= now, "expired"),
                else_="active",
            ).label("state"),
        )
        .join_from(d, Director, d.paired_by == Director.id, isouter=True)
        .order_by(d.id)
    )
    if not include_revoked:
        query = query.where(d.revoked_at.is_(None), d.expires_at > now)
    return [dict(r._mapping) for r in conn.execute(query).all()]
