"""Rulings per credential, in the store, on SQLite and PostgreSQL: at most the limit in any 60
seconds, wherever the minute boundaries fall, with a Retry-After that is exactly long enough."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa

from adjudicator.auth import ratelimit, store_time
from adjudicator.store import Store, migrate


def hit(store, key, limit, at):
    with store.connection(write=True) as conn:
        return ratelimit.hit(conn, key, limit, at)


def test_a_burst_straddling_a_minute_boundary_is_refused_past_the_limit(store):
    boundary = store_time.utcnow().replace(second=0, microsecond=0) + timedelta(minutes=1)
    before = boundary - timedelta(seconds=1)
    assert [hit(store, "app:1", 3, before) for _ in range(3)] == [0, 0, 0]
    after = boundary + timedelta(seconds=1)
    assert hit(store, "app:1", 3, after) == 58  # a fixed minute would allow 3 more here
    assert hit(store, "app:1", 3, before + timedelta(seconds=59.5)) == 1
    assert hit(store, "app:1", 3, before + timedelta(seconds=60)) == 0  # the first three left


def test_each_key_has_its_own_count(store):
    t = store_time.utcnow()
    assert [hit(store, "app:1", 2, t) for _ in range(3)] == [0, 0, 60]
    assert hit(store, "app:2", 2, t) == 0
    assert hit(store, "device:1", 2, t) == 0


def test_refused_hits_do_not_count(store):
    """A client that keeps asking while refused is let in as soon as its oldest ruling leaves."""
    t = store_time.utcnow()
    assert hit(store, "app:1", 1, t) == 0
    for second in range(1, 59):
        assert hit(store, "app:1", 1, t + timedelta(seconds=second)) == 60 - second
    assert hit(store, "app:1", 1, t + timedelta(seconds=60)) == 0


def test_the_retry_after_is_exact(store):
    t = store_time.utcnow().replace(microsecond=0)
    for second in (0, 10, 20):
        assert hit(store, "app:1", 3, t + timedelta(seconds=second)) == 0
    wait = hit(store, "app:1", 3, t + timedelta(seconds=25))
    assert wait == 35
    assert hit(store, "app:1", 3, t + timedelta(seconds=25 + wait - 0.001)) == 1
    assert hit(store, "app:1", 3, t + timedelta(seconds=25 + wait)) == 0
    assert hit(store, "app:1", 3, t + timedelta(seconds=61)) == 9  # until the one at 10 s leaves


def test_a_lower_limit_after_a_restart_waits_for_enough_to_leave(store):
    t = store_time.utcnow().replace(microsecond=0)
    for second in range(4):
        assert hit(store, "app:1", 10, t + timedelta(seconds=second)) == 0
    assert hit(store, "app:1", 2, t + timedelta(seconds=5)) == 57  # 2 of the 4 must leave


def test_the_limit_holds_over_every_60_second_span(store):
    """Random traffic, including bursts: no half-open 60 s span holds more than the limit, and
    a hit is refused only when the span ending at it is full."""
    rng = random.Random(12)
    limit = 4
    t = store_time.utcnow().replace(microsecond=0)
    allowed = []
    for _ in range(150):
        t += timedelta(seconds=rng.choice([0, 0, 0.5, 1, 3, 7, 20]))
        in_span = [a for a in allowed if a > t - timedelta(seconds=60)]
        wait = hit(store, "app:1", limit, t)
        if wait:
            assert len(in_span) >= limit
            assert in_span[-limit] + timedelta(seconds=60) <= t + timedelta(seconds=wait)
        else:
            assert len(in_span) < limit
            allowed.append(t)
    assert len(allowed) > 20
    for first in allowed:
        span = [a for a in allowed if first <= a < first + timedelta(seconds=60)]
        assert len(span) <= limit


def test_old_hits_are_deleted(store):
    t = store_time.utcnow()
    for second in (0, 1, 2):
        hit(store, "app:1", 5, t + timedelta(seconds=second))
    hit(store, "app:1", 5, t + timedelta(seconds=61))
    with store.connection() as conn:
        rows = conn.execute(sa.text("SELECT count(*) FROM rate_hits WHERE key = 'app:1'"))
        assert rows.scalar() == 2  # the one at 2 s is still in the span of the latest


def test_the_old_rows_of_keys_no_longer_used_are_swept(store, monkeypatch):
    t = store_time.utcnow()
    for key in ("device:1", "device:2"):  # then revoked: never heard from again
        hit(store, key, 5, t)
    monkeypatch.setattr(ratelimit, "SWEEP_EVERY", 1)
    hit(store, "app:1", 5, t + timedelta(seconds=61))
    with store.connection() as conn:
        keys = conn.execute(sa.text("SELECT key FROM rate_hits")).scalars().all()
    assert keys == ["app:1"]


def test_concurrent_hits_on_several_connections_never_pass_the_limit(store):
    """Workers and boxes are separate connections: the count holds exactly between them."""
    limit, threads = 5, 12
    t = store_time.utcnow()
    start = threading.Barrier(threads)
    waits: list[int] = []

    def worker():
        start.wait()
        waits.append(hit(store, "app:9", limit, t))

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    assert sorted(waits) == [0] * limit + [60] * (threads - limit)


def test_sqlite_needs_the_write_transaction(tmp_path):
    s = Store(f"sqlite:///{tmp_path / 'a.db'}")
    migrate.upgrade(s)
    with pytest.raises(RuntimeError, match="write=True"), s.connection() as conn:
        ratelimit.hit(conn, "app:1", 1, store_time.utcnow())
    s.dispose()


def test_hits_at_the_same_instant_each_count(store):
    """Two rulings of one credential stamped with the same microsecond (two workers) are two
    hits: the rows are told apart, never merged or refused as duplicates."""
    t = store_time.utcnow()
    assert [hit(store, "app:1", 3, t) for _ in range(4)] == [0, 0, 0, 60]
    with store.connection() as conn:
        rows = conn.execute(sa.text("SELECT count(*) FROM rate_hits WHERE key = 'app:1'"))
        assert rows.scalar_one() == 3


def test_a_keys_old_rows_are_dropped_once_a_minute_and_never_counted(store, monkeypatch):
    """Most hits run one statement: a key's rows older than the span are dropped at most once a
    minute per process, so a row is kept one to two minutes and never counted after its first."""
    monkeypatch.setattr(ratelimit, "_dropped", {})
    drops = []
    change = ratelimit.driver.change

    def counted(conn, statement, params):
        if statement.startswith("DELETE FROM rate_hits WHERE key"):
            drops.append(params)
        return change(conn, statement, params)

    monkeypatch.setattr(ratelimit.driver, "change", counted)
    t = store_time.utcnow().replace(microsecond=0)
    seconds = (0, 30, 61, 90, 100, 122)
    # at 100 s the row of 30 s is still kept, but not counted: 61 and 90 are, a third is let in
    assert [hit(store, "app:1", 3, t + timedelta(seconds=s)) for s in seconds] == [0] * 6
    assert len(drops) == 3  # at 0, 61 and 122 s: not at each of the six
    with store.connection() as conn:
        kept = conn.execute(sa.text("SELECT at FROM rate_hits WHERE key = 'app:1' ORDER BY at"))
        assert len(kept.all()) == 3  # 61 s and earlier left at 122 s: 90, 100 and 122 remain
    assert hit(store, "app:1", 3, t + timedelta(seconds=123)) == 27  # until 90 s leaves


def test_a_cached_credential_is_counted_only_while_in_force(store):
    """The count of a credential from the worker's cache also checks, in the same statement,
    that it is still in force: a key and a device each, on both stores, until revoked."""
    from adjudicator.auth import devices, directors, keys
    from adjudicator.auth.tokens import digest

    t = store_time.utcnow()
    with store.connection(write=True) as conn:
        director = directors.add(conn, "anna", "a long password", t)
        key = keys.create(conn, "app", "app", [], set(), t)
        code = devices.new_pairing(conn, director, "Table 1", None, 60, t).code
        device = devices.redeem(conn, code, 3600, t)
    credentials = {
        "app": (key.id, digest(key.key)),
        "device": (device.device_id, digest(device.token)),
    }
    for kind, (row_id, token_digest) in credentials.items():
        in_force = (kind, row_id, token_digest)
        with store.connection(write=True) as conn:
            assert ratelimit.hit(conn, f"{kind}:{row_id}", 1, t, in_force) == 0
            assert ratelimit.hit(conn, f"{kind}:{row_id}", 1, t, in_force) == 60  # full
            assert ratelimit.still_in_force(conn, kind, row_id, token_digest, t)
            wrong = (kind, row_id, digest("another token"))
            with pytest.raises(ratelimit.NotInForce):
                ratelimit.hit(conn, f"{kind}:{row_id}", 1, t, wrong)
    with store.connection(write=True) as conn:
        assert keys.revoke_id(conn, key.id, t) == "app"
        assert devices.revoke(conn, device.device_id, t)
    for kind, (row_id, token_digest) in credentials.items():
        with store.connection(write=True) as conn:
            assert not ratelimit.still_in_force(conn, kind, row_id, token_digest, t)
            with pytest.raises(ratelimit.NotInForce):
                ratelimit.hit(conn, f"{kind}:{row_id}", 5, t, (kind, row_id, token_digest))
