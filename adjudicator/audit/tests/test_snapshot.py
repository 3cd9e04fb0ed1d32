"""`audit verify`, `export` and `prune` each read the log as at one moment (issue 35, break 10):
on PostgreSQL at READ COMMITTED each statement took a snapshot of its own, so a verify that read
the head after its rows, with rulings written meanwhile, found the head past the log's end and
cried tamper. `Store.snapshot` is one snapshot on both databases."""

from __future__ import annotations

import json
import threading

import pytest
from sqlalchemy import func, select

# search binds chain's `read` and `stored` by name: imported here, before a test patches them,
# it never keeps a patched one for the tests after (the directors' export read batches of 2)
from adjudicator.audit import chain, prune, search  # noqa: F401
from adjudicator.audit.tests.test_groupcommit import entry
from adjudicator.cli import main
from adjudicator.store import utcnow


def _append(store, n: int, name: str = "r") -> None:
    """`n` entries at the head, in one transaction, as the service links them."""
    with store.connection(write=True) as conn:
        head = chain.lock_head(conn)
        start = head.seq
        rows = [chain.link(head, entry(f"{name}{start + i}")) for i in range(n)]
        chain.write(conn, head, rows)


def _url(store) -> str:
    return store.url.render_as_string(hide_password=False)


def _count(conn) -> int:
    return conn.execute(select(func.count()).select_from(chain.RULINGS)).scalar_one()


def test_a_snapshot_does_not_see_what_is_written_after_its_first_read(store):
    _append(store, 3)
    with store.snapshot() as conn:
        assert _count(conn) == 3
        _append(store, 2)  # committed by another connection meanwhile
        assert _count(conn) == 3
        assert conn.execute(select(chain.HEAD.c.seq)).scalar_one() == 3
    with store.snapshot() as conn:
        assert _count(conn) == 5


@pytest.fixture
def written_between_reads(monkeypatch, store):
    """A ruling appended, and committed, after each read of the log's rows (at most 3): what a
    verify or export between two batches of a busy log sees."""
    original = chain.read
    left = [3]

    def read(conn, stmt):
        found = original(conn, stmt)
        if left[0]:
            left[0] -= 1
            _append(store, 1, "meanwhile")
        return found

    monkeypatch.setattr(chain, "read", read)
    return store


def test_verify_reads_one_snapshot(written_between_reads, capsys):
    store = written_between_reads
    _append(store, 5)
    assert main(["audit", "verify", "--database-url", _url(store)]) == 0, capsys.readouterr()
    assert "5 entries; chain intact; head seq 5" in capsys.readouterr().out


def test_export_reads_one_snapshot(written_between_reads, capsys, monkeypatch):
    store = written_between_reads
    _append(store, 5)
    monkeypatch.setattr(chain, "stored", _small_batches(chain.stored))
    assert main(["audit", "export", "--format", "json", "--database-url", _url(store)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert [row["seq"] for row in exported] == [1, 2, 3, 4, 5]


def _small_batches(stored):
    def batches(conn, batch: int = 1000, *narrowed):
        return stored(conn, 2, *narrowed)

    return batches


@pytest.mark.slow
def test_verify_while_rulings_are_written(postgres_url, capsys):
    """Issue 35's run, on PostgreSQL: rulings written one by one while `audit verify` walks a
    log of a few batches; every verify says intact."""
    from adjudicator.store import Store, migrate

    store = Store(postgres_url)
    migrate.upgrade(store)
    _append(store, 2500)
    stop = threading.Event()
    written = [0]

    def writer() -> None:
        while not stop.is_set():
            _append(store, 1, f"w{written[0]}-")
            written[0] += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        verdicts = []
        for _ in range(6):
            verdicts.append(main(["audit", "verify", "--database-url", _url(store)]))
            out = capsys.readouterr().out
            assert "Traceback" not in out
        # A prune meanwhile holds the append lock: what it verifies and removes is one log.
        with store.connection(write=True) as conn:
            assert prune.prune(conn, utcnow()).entries >= 2500
        verdicts.append(main(["audit", "verify", "--database-url", _url(store)]))
        out = capsys.readouterr().out
    finally:
        stop.set()
        thread.join()
        store.dispose()
    assert written[0] > 0
    assert verdicts == [0] * 7, out
