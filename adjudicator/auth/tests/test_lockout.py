"""In the store, on SQLite and PostgreSQL: lockouts per account and client (never locking out a
clean client), pairing codes claimed once. Rate limits: test_ratelimit.py."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa

from adjudicator.auth import devices, lockout, store_time
from adjudicator.store import Store, migrate

PASSWORD = "correct horse battery"
POLICY = lockout.Policy(attempts=3, window=60, account_attempts=5, slowdown=10)


@pytest.fixture
def conn(store):
    with store.connection(write=True) as connection:
        yield connection


def fail(conn, client, at, account="anna"):
    lockout.record_failure(conn, "login", account, client, POLICY, at)


def wait(conn, client, at, account="anna"):
    return lockout.wait_seconds(conn, "login", account, client, POLICY, at)


def test_a_client_is_locked_for_that_account_only(conn):
    t = store_time.utcnow()
    for i in range(3):
        assert wait(conn, "ip:1", t) == 0
        fail(conn, "ip:1", t + timedelta(seconds=i))
    at = t + timedelta(seconds=3)
    assert wait(conn, "ip:1", at) == 57  # until the oldest failure leaves the window
    assert wait(conn, "ip:2", at) == 0  # another client
    assert wait(conn, "ip:1", at, account="bo") == 0  # another account
    assert wait(conn, "ip:1", t + timedelta(seconds=60)) == 0  # the window passed


def test_the_account_slows_failing_clients_but_not_clean_ones(conn):
    t = store_time.utcnow()
    for i, client in enumerate(["ip:1", "ip:2", "ip:3", "ip:4", "ip:5"]):
        fail(conn, client, t + timedelta(seconds=i))
    at = t + timedelta(seconds=5)
    assert wait(conn, "ip:1", at) == 9  # 10 s after the account's latest failure
    assert wait(conn, "ip:9", at) == 0  # the director's own device never waits
    assert wait(conn, "ip:1", t + timedelta(seconds=14)) == 0


def test_clear(conn):
    t = store_time.utcnow()
    for client in ("ip:1", "ip:1", "ip:1", "ip:2"):
        fail(conn, client, t)
    assert lockout.clear(conn, "login", "anna", "ip:1") == 3
    assert wait(conn, "ip:1", t) == 0
    assert lockout.clear(conn, "login", "anna") == 1


def test_old_failures_are_deleted(conn):
    t = store_time.utcnow()
    fail(conn, "ip:1", t)
    fail(conn, "ip:1", t + timedelta(seconds=61))
    count = conn.execute(sa.text("SELECT count(*) FROM auth_failures")).scalar()
    assert count == 1


def test_a_pairing_code_is_claimed_once(conn):
    from adjudicator.auth import directors

    t = store_time.utcnow()
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


def _at_once(count: int, task) -> list:
    """Run `task(i)` in `count` threads released together; their results in any order."""
    start = threading.Barrier(count)
    results: list = []

    def run(i):
        start.wait()
        results.append(task(i))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_concurrent_attempts_never_pass_the_limit(store):
    """Attempts sent at once, each on its own connection (as workers and boxes are): exactly
    `attempts` of them are let through to check their secret."""

    def try_once(_):
        with store.connection(write=True) as conn:
            return lockout.attempt(conn, "login", "anna", "ip:1", POLICY, store_time.utcnow())

    waits = _at_once(12, try_once)
    assert sum(1 for w in waits if w == 0) == POLICY.attempts


def test_concurrent_wrong_passwords_get_exactly_the_allowed_tries(store):
    """The whole login, argon2 included, from one client at once: exactly `attempts` passwords
    are checked, the others are told to wait; and then even the right one waits."""
    from adjudicator.auth import directors

    with store.connection(write=True) as conn:
        directors.add(conn, "anna", PASSWORD, store_time.utcnow())

    def log_in(i):
        return directors.login(
            store, "anna", f"wrong guess {i}", "ip:1", POLICY, 3600, store_time.utcnow()
        )

    results = _at_once(10, log_in)
    assert all(r.session_token is None for r in results)
    assert sum(1 for r in results if r.wait == 0) == POLICY.attempts
    right = directors.login(store, "anna", PASSWORD, "ip:1", POLICY, 3600, store_time.utcnow())
    assert right.session_token is None and right.wait > 0
    elsewhere = directors.login(store, "anna", PASSWORD, "ip:2", POLICY, 3600, store_time.utcnow())
    assert elsewhere.session_token is not None


def test_a_right_secret_clears_the_counted_attempt(store):
    def attempt(conn):
        return lockout.attempt(conn, "pin", "device:1", "device:1", POLICY, store_time.utcnow())

    for _ in range(5):
        with store.connection(write=True) as conn:
            assert attempt(conn) == 0
            lockout.clear(conn, "pin", "device:1")
    with store.connection() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM auth_failures")).scalar() == 0


def test_sqlite_attempts_need_the_write_transaction(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 'a.db'}")
    migrate.upgrade(s)
    with pytest.raises(RuntimeError, match="write=True"), s.connection() as conn:
        lockout.attempt(conn, "login", "anna", "ip:1", POLICY, store_time.utcnow())
    s.dispose()


def test_an_ipv6_address_counts_alone_and_its_64_has_a_wider_limit(conn):
    t = store_time.utcnow()
    for i in range(3):
        fail(conn, "ip:2001:db8::a", t + timedelta(seconds=i))
    at = t + timedelta(seconds=3)
    assert wait(conn, "ip:2001:db8::a", at) == 57
    assert wait(conn, "ip:2001:db8::b", at) == 0  # the same /64, another device
    wider = POLICY.attempts * lockout.NETWORK_FACTOR
    for i in range(wider - 3):
        fail(conn, f"ip:2001:db8::1:{i:x}", at)
    assert wait(conn, "ip:2001:db8::b", at) == 57  # until the /64's oldest leaves the window
    assert wait(conn, "ip:2001:db8:0:1::b", at) == 0  # another /64
    assert wait(conn, "ip:10.0.0.1", at) == 0 and wait(conn, "device:1", at) == 0
