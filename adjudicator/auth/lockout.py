"""Wrong passwords, PINs and pairing codes, counted in the store per account and per client.

Every worker and every box sees the same rows, so the limits hold however many there are.
Nothing here is global: a client that fails is held back for *that* account only.

- Per (account, client): after `attempts` failures within `window` seconds, that client waits
  until the oldest of them leaves the window.
- Account-wide slow-down: once the account has `account_attempts` failures in the window from
  all clients together, a client that has itself failed in the window must also wait
  `slowdown` seconds after the account's latest failure. A client with no failures of its own is
  never held back, so players mashing wrong passwords cannot lock the director out.
- Per (account, IPv6 /64): a client is one address (`guard.client_id`), but one device can take
  a fresh address in its /64 for every try, so the /64 as a whole gets `NETWORK_FACTOR` times
  `attempts` before any address in it waits. Every device on a venue's Wi-Fi shares that /64:
  a single device mashing wrong secrets locks only its own address.
- Per device behind one address: an unpaired kiosk is counted as its device id
  (`device_client`: a random cookie) tried from its address, so two kiosks behind one address
  lock separately. The device id is the client's own to drop or forge, so the address (its /64
  for IPv6) stays the wider ceiling: `NETWORK_FACTOR` times `attempts` from all its devices,
  cookie or none, before any of them waits.

`attempt` is how a caller uses this: it takes the account's turn (`locks.take_turns`; SQLite's
write transaction already has it, PostgreSQL gets an advisory lock per scope and account), asks
whether the client must wait and, when it need not, counts the attempt as a failure at once,
before the secret is checked. A right secret then clears it (`clear`). Counting first, in turn,
is what keeps the count exact: concurrent attempts on any worker or box each see the ones before
them, so a client never gets more than `attempts` tries however many it sends at once, and the
secret can be checked (argon2 takes tens of milliseconds) outside the transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa

from adjudicator.auth import locks
from adjudicator.auth.store_time import seconds_until
from adjudicator.store.credentials import AuthFailure
from adjudicator.web.netaddrs import device_network

# How many times a client's `attempts` an IPv6 /64 gets in all: enough for a few devices at a
# venue to fail beside each other, few enough that roaming the /64 gains only this many tries.
NETWORK_FACTOR = 4
DEVICE_PREFIX = "dev:"
# The scopes counted apart: the judge's PIN (judge.pin); the pairing code (auth.views).
PIN_SCOPE = "pin"


@dataclass(frozen=True)
class Policy:
    attempts: int
    window: int  # seconds
    account_attempts: int | None = None
    slowdown: int = 0  # seconds

    @property
    def span(self) -> timedelta:
        return timedelta(seconds=self.window)

    @property
    def network_attempts(self) -> int:
        return self.attempts * NETWORK_FACTOR


# The limits, the same for every deployment: wrong directors' passwords per account and client
# (then the account-wide slow-down), wrong pairing codes per client, wrong PINs per tablet.
# Tests shorten them by replacing the module's attribute (monkeypatch.setattr).
LOGIN = Policy(attempts=5, window=900, account_attempts=20, slowdown=10)
PAIRING = Policy(attempts=10, window=600)
PIN = Policy(attempts=5, window=900)


def device_client(device: str, address: str) -> str:
    """The client an unpaired kiosk's tries count as: its device id (`device`, a digest of its
    cookie) from `address` (`guard.client_id`), which `ceiling_of` reads back."""
    return f"{DEVICE_PREFIX}{device}@{address}"


def address_of(client: str) -> str:
    """The address (`guard.client_id`) a client tries from: a device client's, or the client."""
    return client.partition("@")[2] if client.startswith(DEVICE_PREFIX) else client


def ceiling_of(client: str) -> str | None:
    """What a client's wider limit counts: the IPv6 /64 it lies in, or else the IPv4 address it
    tries from, so that every device id from one address (with or without a cookie) counts
    there. None for a client that is no address."""
    address = address_of(client)
    if not address.startswith("ip:"):
        return None
    network = device_network(address.removeprefix("ip:"))
    return f"net:{network}" if network else address


def shared_account(client: str) -> str:
    """The account a client's guesses at a secret shared by everyone (a pairing code, an open
    kiosk's PIN) count under: its /64 or address, so that the wider limit sees all of it."""
    return ceiling_of(client) or address_of(client)


def _failures(
    conn: sa.Connection, scope: str, account: str, client: str, policy: Policy, now: datetime
) -> tuple[list[sa.Row], list[datetime], list[datetime]]:
    """The account's failures still in the window (client, failed_at), then the times of the
    client's own and of its address's (/64's; none for a client that is no address), oldest
    first."""
    t = AuthFailure
    rows = conn.execute(
        sa.select(t.client, t.failed_at).where(
            t.scope == scope, t.account == account, t.failed_at > now - policy.span
        )
    ).all()
    ceiling = ceiling_of(client)
    mine = sorted(at for who, at in rows if who == client)
    near = sorted(at for who, at in rows if ceiling and ceiling_of(who) == ceiling)
    return rows, mine, near


def tries_left(
    conn: sa.Connection, scope: str, account: str, client: str, policy: Policy, now: datetime
) -> int:
    """How many more failures `client` may have at `account` before it must wait: its own
    allowance, or its address's (/64's) ceiling when that is nearer. What the client would
    learn by trying; the account-wide slow-down, which depends on other clients, is left out."""
    _, mine, near = _failures(conn, scope, account, client, policy, now)
    return max(0, min(policy.attempts - len(mine), policy.network_attempts - len(near)))


def wait_seconds(
    conn: sa.Connection, scope: str, account: str, client: str, policy: Policy, now: datetime
) -> int:
    """Seconds before `client` may try `account` again; 0 when it may try now."""
    rows, mine, near = _failures(conn, scope, account, client, policy, now)
    if len(mine) >= policy.attempts:
        return seconds_until(mine[-policy.attempts] + policy.span, now)
    if len(near) >= policy.network_attempts:
        return seconds_until(near[-policy.network_attempts] + policy.span, now)
    if policy.account_attempts and mine and len(rows) >= policy.account_attempts:
        until = max(at for _, at in rows) + timedelta(seconds=policy.slowdown)
        if until > now:
            return seconds_until(until, now)
    return 0


def attempt(
    conn: sa.Connection, scope: str, account: str, client: str, policy: Policy, now: datetime
) -> int:
    """Seconds `client` must wait before trying `account` (nothing is recorded then); or 0, and
    this attempt is counted as a failure until the caller `clear`s it after a right secret.
    `conn` must be a write transaction."""
    locks.take_turns(conn, f"lockout:{scope}", account)
    wait = wait_seconds(conn, scope, account, client, policy, now)
    if not wait:
        record_failure(conn, scope, account, client, policy, now)
    return wait


def record_failure(
    conn: sa.Connection, scope: str, account: str, client: str, policy: Policy, now: datetime
) -> None:
    t = AuthFailure
    conn.execute(
        sa.delete(t).where(t.scope == scope, t.account == account, t.failed_at <= now - policy.span)
    )
    conn.execute(sa.insert(t).values(scope=scope, account=account, client=client, failed_at=now))


def clear(
    conn: sa.Connection, scope: str, account: str | None = None, client: str | None = None
) -> int:
    """Forget failures: one client's after it succeeded, all of an account's (the CLI), or all
    of the scope's (the director clearing the kiosks' PIN lockouts)."""
    given = {"scope": scope, "account": account, "client": client}
    where = {column: value for column, value in given.items() if value is not None}
    return conn.execute(sa.delete(AuthFailure).filter_by(**where)).rowcount
