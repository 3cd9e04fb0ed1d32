"""In the store, on SQLite and PostgreSQL: lockouts per account and client (never locking out a
clean client), pairing codes claimed once. Rate limits: test_ratelimit.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from adjudicator.auth import clock, devices, lockout
from adjudicator.store import Store, migrate

POLICY = lockout.Policy(attempts=3, window=60, account_attempts=5, slowdown=10)


@pytest.fixture
def store(database_url):
    s = Store(database_url)
    migrate.upgrade(s)
    yield s
    s.dispose()


@pytest.fixture
def conn(store):
    with store.connection(write=True) as connection:
        yield connection


def fail(conn, client, at, account="anna"):
    lockout.record_failure(conn, "login", account, client, POLICY, at)


def wait(conn, client, at, account="anna"):
    return lockout.wait_seconds(conn, "login", account, client, POLICY, at)


def test_a_client_is_locked_for_that_account_only(conn):
    t = clock.utcnow()
    for i in range(3):
        assert wait(conn, "ip:1", t) == 0
        fail(conn, "ip:1", t + timedelta(seconds=i))
    at = t + timedelta(seconds=3)
    assert wait(conn, "ip:1", at) == 57  # until the oldest failure leaves the window
    assert wait(conn, "ip:2", at) == 0  # another client
    assert wait(conn, "ip:1", at, account="bo") == 0  # another account
    assert wait(conn, "ip:1", t + timedelta(seconds=60)) == 0  # the window passed


def test_the_account_slows_failing_clients_but_not_clean_ones(conn):
    t = clock.utcnow()
    for i, client in enumerate(["ip:1", "ip:2", "ip:3", "ip:4", "ip:5"]):
        fail(conn, client, t + timedelta(seconds=i))
    at = t + timedelta(seconds=5)
    assert wait(conn, "ip:1", at) == 9  # 10 s after the account's latest failure
    assert wait(conn, "ip:9", at) == 0  # the director's own device never waits
    assert wait(conn, "ip:1", t + timedelta(seconds=14)) == 0


def test_clear(conn):
    t = clock.utcnow()
    for client in ("ip:1", "ip:1", "ip:1", "ip:2"):
        fail(conn, client, t)
    assert lockout.clear(conn, "login", "anna", "ip:1") == 3
    assert wait(conn, "ip:1", t) == 0
    assert lockout.clear(conn, "login", "anna") == 1


def test_old_failures_are_deleted(conn):
    t = clock.utcnow()
    fail(conn, "ip:1", t)
    fail(conn, "ip:1", t + timedelta(seconds=61))
    count = conn.execute(sa.text("SELECT count(*) FROM auth_failures")).scalar()
    assert count == 1


def test_a_pairing_code_is_claimed_once(conn):
    from adjudicator.auth import directors

    t = clock.utcnow()
    director = directors.add(conn, "anna", "correct horse battery", t)
    pairing = devices.new_pairing(conn, director, "Table 1", None, 300, t)
    paired = devices.redeem(conn, pairing.code, 3600, t)
    assert paired is not None and paired.token.startswith("adj_dev_")
    assert devices.redeem(conn, pairing.code, 3600, t) is None
    found = devices.resolve(conn, paired.token, t)
    assert found.kind == "device" and found.name == "Table 1" and found.rulesets is None
    stored = conn.execute(sa.text("SELECT token_hash FROM devices")).scalar()
    assert paired.token not in stored and len(stored) == 64
    assert devices.revoke(conn, paired.device_id, t)
    assert devices.resolve(conn, paired.token, t) is None
