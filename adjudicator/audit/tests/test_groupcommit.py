"""Group commit: rulings answered at the same moment share one transaction, on SQLite and
PostgreSQL, and nothing is answered before the transaction holding it has committed."""

from __future__ import annotations

import os
import threading
import time

import pytest
from sqlalchemy import text

from adjudicator.audit import chain, groupcommit, health
from adjudicator.audit.groupcommit import Batch, GroupCommit
from adjudicator.problems import Problem
from adjudicator.store import Store, migrate
from adjudicator.web.errors import ApiError


def entry(ruling_id: str) -> dict:
    return {
        "ruling_id": ruling_id,
        "kind": "challenge",
        "ruleset": "ssf-1999",
        "lexicon_id": "wswedish",
        "lexicon_sha256": "0" * 64,
        "lexicon_version": "1.6.36-14",
        "lexicon_in_force_from": None,
        "caller_kind": "anonymous",
        "caller_id": "",
        "caller_name": "",
        "event": None,
        "round": None,
        "table_label": None,
        "game": None,
        "player": None,
        "words": [{"word": "HEJ", "valid": True}],
        "verdict": "valid",
        "consequence": {"penalty": None},
        "play": None,
    }


def append(ruling_id: str):
    def work(conn, batch: Batch) -> int:
        return batch.append(entry(ruling_id))["seq"]

    return work


class Spy:
    """Counts the transactions a writer opens and how many rulings each carried."""

    def __init__(self, writer: GroupCommit):
        self.sizes: list[int] = []
        original = writer._transaction

        def transaction(works, *more):
            try:
                return original(works, *more)
            finally:  # the size it reached: a leader's batch grows until its commit
                self.sizes.append(len(works))

        writer._transaction = transaction


def before_commit(monkeypatch, store: Store, call) -> None:
    """`call()` runs at each COMMIT the store's connections send, just before it goes (where a
    commit waits for its fsync, or fails)."""
    dialect = store.engine.dialect
    original = dialect.do_commit

    def do_commit(dbapi_connection):
        call()
        original(dbapi_connection)

    monkeypatch.setattr(dialect, "do_commit", do_commit)


def logged(store: Store) -> list[str]:
    with store.connection() as conn:
        return [s.row["ruling_id"] for s in chain.stored(conn)]


def submit_in_threads(writer: GroupCommit, works: list, *, hold: Store | None = None) -> list:
    """Run each work in its own thread; with `hold`, another writer holds the append lock until
    every thread has queued (the first leads, and waits for the lock), as another worker's
    commit would."""
    results: list = [None] * len(works)
    errors: list = [None] * len(works)

    def run(i):
        try:
            results[i] = writer.submit(works[i])
        except BaseException as exc:  # noqa: BLE001 - reported per thread
            errors[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(works))]
    if hold is None:
        for t in threads:
            t.start()
    else:
        with hold.connection(write=True) as conn:
            chain.lock_head(conn)
            threads[0].start()
            while not writer._leading:
                pass
            for t in threads[1:]:
                t.start()
            while len(writer._queue) < len(works) - 1:
                threading.Event().wait(0.001)
    for t in threads:
        t.join(timeout=30)
    return list(zip(results, errors, strict=True))


def test_rulings_waiting_together_share_one_transaction(store):
    """The leader takes the queue once it holds the append lock, not before: those that queued
    while it waited for another worker's commit share its own. (It took its batch first, and
    committed alone: [1, 7].)"""
    writer = GroupCommit(store)
    spy = Spy(writer)
    outcome = submit_in_threads(writer, [append(f"r{i}") for i in range(8)], hold=store)
    assert all(error is None for _, error in outcome)
    assert spy.sizes == [8]  # one commit for eight rulings
    assert sorted(seq for seq, _ in outcome) == list(range(1, 9))
    with store.connection() as conn:
        assert chain.verify(conn).ok
    assert len(logged(store)) == 8


def named(name: str, *, first_waits_for: threading.Event | None = None, working=None):
    def work(conn, batch: Batch) -> int:
        if working is not None:
            working.set()
        if first_waits_for is not None:
            assert first_waits_for.wait(10)
        return batch.append(entry(name))["seq"]

    work.name = name
    return work


def test_rulings_queued_while_the_leader_works_join_its_commit(store):
    """Nothing else holds the lock: seven rulings queue while the leader's own work runs (as a
    ruling's work takes the CPU), and join its transaction before it commits, in the order they
    queued. One commit for eight rulings, where the leader committed its own alone: [1, 7]."""
    writer = GroupCommit(store)
    spy = Spy(writer)
    working, all_queued = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}
    works = [named("r0", first_waits_for=all_queued, working=working)]
    works += [named(f"r{i}") for i in range(1, 8)]
    threads = [
        threading.Thread(target=lambda w=w: outcome.__setitem__(w.name, writer.submit(w)))
        for w in works
    ]
    threads[0].start()
    assert working.wait(10)  # the leader has taken its batch: the queue is empty
    for t in threads[1:]:
        t.start()
    while len(writer._queue) < 7:
        time.sleep(0.001)
    order = [p.work.name for p in writer._queue]
    all_queued.set()
    for t in threads:
        t.join(10)
    assert spy.sizes == [8]
    assert logged(store) == ["r0", *order]  # the chain's order is the order of the appends
    assert outcome == {name: seq for seq, name in enumerate(["r0", *order], start=1)}
    with store.connection() as conn:
        assert chain.verify(conn).ok


def test_rulings_queued_during_a_commit_share_the_next(store, monkeypatch):
    """Those that queue while the leader's COMMIT (its fsync) is under way cannot join it: the
    first of them leads the next commit and takes them all."""
    writer = GroupCommit(store)
    spy = Spy(writer)
    committing, all_queued = threading.Event(), threading.Event()
    leader: threading.Thread | None = None

    def hold_the_leaders_commit():
        if threading.current_thread() is leader:
            committing.set()
            assert all_queued.wait(10)

    before_commit(monkeypatch, store, hold_the_leaders_commit)
    works = [named(f"c{i}") for i in range(8)]
    threads = [threading.Thread(target=writer.submit, args=(w,)) for w in works]
    leader = threads[0]
    leader.start()
    assert committing.wait(10)
    for t in threads[1:]:
        t.start()
    while len(writer._queue) < 7:
        time.sleep(0.001)
    all_queued.set()
    for t in threads:
        t.join(10)
    assert spy.sizes == [1, 7]
    with store.connection() as conn:
        assert chain.verify(conn).ok


def test_after_a_commit_of_several_the_next_leader_waits_for_the_others(store, monkeypatch):
    """A commit of five: their requests are likely computing their next rulings, so the next
    leader expects four and waits for them before it takes the lock (here as long as it takes),
    and four rulings arriving one by one share one commit. (The first committed alone, at once.)
    """
    monkeypatch.setattr(groupcommit, "GATHER_SECONDS", 60)
    writer = GroupCommit(store)
    spy = Spy(writer)
    submit_in_threads(writer, [append(f"a{i}") for i in range(5)], hold=store)
    assert spy.sizes == [5] and writer._expect == 4
    threads = [threading.Thread(target=writer.submit, args=(append(f"b{i}"),)) for i in range(4)]
    for i, t in enumerate(threads):
        t.start()
        while i < 3 and len(writer._queue) < i + 1:  # the first gathers: none is taken yet
            time.sleep(0.001)
    for t in threads:
        t.join(30)
    assert spy.sizes == [5, 4] and writer._expect == 3
    with store.connection() as conn:
        assert chain.verify(conn).ok


def test_the_wait_is_bounded_and_a_ruling_alone_never_waits(store, monkeypatch):
    """The rulings a leader expects do not come: it waits GATHER_SECONDS, no longer, commits
    what it has and expects no more; a ruling after a commit of one (a single client, a quiet
    service) does not wait at all."""
    monkeypatch.setattr(groupcommit, "GATHER_SECONDS", 0.2)
    writer = GroupCommit(store)
    assert writer._expect == 1
    submit_in_threads(writer, [append(f"a{i}") for i in range(5)], hold=store)
    started = time.monotonic()
    assert writer.submit(append("late")) == 6
    assert time.monotonic() - started >= 0.2 and writer._expect == 1
    monkeypatch.setattr(groupcommit, "GATHER_SECONDS", 600)  # a wait would show as a hang
    alone = threading.Thread(target=writer.submit, args=(append("alone"),))
    alone.start()
    alone.join(30)
    assert not alone.is_alive() and logged(store)[-2:] == ["late", "alone"]


def test_a_failed_commit_fails_every_ruling_in_it(store, monkeypatch):
    """The COMMIT of a batch fails (the disk, the server): no ruling in it is answered as
    recorded. Each runs again alone, and each request gets the store's error (an outage: 503
    store_unavailable, as before group commit grouped more); nothing of them is in the log, and
    the next ruling commits on a fresh connection."""
    writer = GroupCommit(store)
    writer.submit(append("before"))
    spy = Spy(writer)
    failing = threading.Event()
    failing.set()
    dbapi = store.engine.dialect.loaded_dbapi
    main = threading.current_thread()

    def fail():
        if failing.is_set() and threading.current_thread() is not main:
            raise dbapi.OperationalError("disk I/O error")

    before_commit(monkeypatch, store, fail)
    outcome = submit_in_threads(writer, [append(f"f{i}") for i in range(6)], hold=store)
    assert spy.sizes == [6, 1, 1, 1, 1, 1, 1]  # together, then each alone
    for result, error in outcome:
        assert result is None and isinstance(error, store.outages())
        assert health.refusal(error, store) is None  # not a refusal of the store: an outage
    failing.clear()
    assert writer.submit(append("after")) == 2
    assert logged(store) == ["before", "after"]
    with store.connection() as conn:
        assert chain.verify(conn).ok


def test_the_observer_is_told_of_each_committed_transaction(store):
    told: list[tuple[int, float, float]] = []
    writer = GroupCommit(store, observe=lambda *seen: told.append(seen))

    def refused(conn, batch):
        raise ApiError(Problem.JURY_LIMIT_REACHED, "no more")

    outcome = submit_in_threads(writer, [append(f"o{i}") for i in range(6)], hold=store)
    assert all(error is None for _, error in outcome)
    assert [rulings for rulings, _, _ in told] == [6]
    with store.connection(write=True) as conn:  # another writer holds the append lock…
        chain.lock_head(conn)
        late = threading.Thread(target=writer.submit, args=(append("late"),))
        late.start()
        time.sleep(0.2)
    late.join(timeout=30)
    rulings, waited, held = told[-1]
    assert rulings == 1 and waited >= 0.15 and 0 <= held < waited  # …so this one waited
    with pytest.raises(ApiError):
        writer.submit(refused)
    assert len(told) == 2  # a rolled-back transaction commits nothing: nothing to tell


def test_an_answer_is_given_only_after_its_commit(store):
    writer = GroupCommit(store)
    writer.submit(append("first"))
    other = Store(store.url.render_as_string(hide_password=False))
    try:
        assert logged(other) == ["first"]  # another connection sees it: committed
    finally:
        other.dispose()


def test_a_refusal_in_a_batch_stays_with_its_own_request(store):
    writer = GroupCommit(store)
    spy = Spy(writer)

    def refused(conn, batch):
        raise ApiError(Problem.JURY_LIMIT_REACHED, "no more")

    works = [append("a"), append("b"), refused, append("c")]
    outcome = submit_in_threads(writer, works, hold=store)
    assert isinstance(outcome[2][1], ApiError)
    assert [error for i, (_, error) in enumerate(outcome) if i != 2] == [None, None, None]
    assert sorted(logged(store)) == ["a", "b", "c"]
    assert spy.sizes == [4, 1, 1, 1, 1]  # the batch failed as a whole, and each ran again alone
    with store.connection() as conn:
        assert chain.verify(conn).ok


def test_a_database_error_costs_no_other_request_its_ruling(store):
    writer = GroupCommit(store)
    writer.submit(append("taken"))
    works = [append("x"), append("taken"), append("y")]  # a duplicate ruling id fails the INSERT
    outcome = submit_in_threads(writer, works, hold=store)
    assert outcome[0][1] is None and outcome[2][1] is None
    assert outcome[1][1] is not None
    assert sorted(logged(store)) == ["taken", "x", "y"]
    writer.submit(append("after"))  # the failed connection was replaced
    assert logged(store)[-1] == "after"
    with store.connection() as conn:
        assert chain.verify(conn).ok


def test_many_threads_one_intact_chain(store):
    writer = GroupCommit(store)
    outcome = submit_in_threads(writer, [append(f"t{i}") for i in range(64)])
    assert all(error is None for _, error in outcome)
    assert sorted(seq for seq, _ in outcome) == list(range(1, 65))
    with store.connection() as conn:
        result = chain.verify(conn)
    assert result.ok and result.entries == 64


class _PausesOneThread:
    """Stands in for the writer's queue lock: `paused` stops just after it has queued (its first
    release of the lock) until `resume` is set, as a preempted thread would."""

    def __init__(self):
        self._lock = threading.Lock()
        self.paused: threading.Thread | None = None
        self.is_paused = threading.Event()
        self.resume = threading.Event()

    def __enter__(self):
        self._lock.acquire()

    def __exit__(self, *exc):
        self._lock.release()
        if threading.current_thread() is self.paused and not self.is_paused.is_set():
            self.is_paused.set()
            self.resume.wait(10)


def test_a_failure_before_the_lock_fails_the_rulings_queued(store, monkeypatch):
    """The store fails before the leader holds the lock, so before it has taken any ruling
    from the queue (the database is gone): each queued ruling gets the store's error, none is
    left waiting, and the next ruling commits. (The leader took nothing, failed no one, and
    handed the lead to itself: an AttributeError, a 500, for its request.)"""
    writer = GroupCommit(store)
    spy = Spy(writer)
    dbapi = store.engine.dialect.loaded_dbapi
    original = chain.lock_for_append
    all_queued = threading.Event()

    def gone(conn):  # once the four have queued: none of them is taken yet
        assert all_queued.wait(10)
        raise dbapi.OperationalError("the database is gone")

    monkeypatch.setattr(chain, "lock_for_append", gone)
    all_queued.set()
    with pytest.raises(dbapi.OperationalError):
        writer.submit(append("alone"))
    all_queued.clear()
    outcome: dict[str, object] = {}

    def run(name):
        try:
            outcome[name] = writer.submit(append(name))
        except BaseException as exc:  # noqa: BLE001 - reported per thread
            outcome[name] = exc

    threads = [threading.Thread(target=run, args=(f"g{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    while len(writer._queue) < 4:
        time.sleep(0.001)
    all_queued.set()
    for t in threads:
        t.join(30)
    assert sorted(outcome) == ["g0", "g1", "g2", "g3"]
    assert all(isinstance(error, store.outages()) for error in outcome.values())
    assert spy.sizes == [0, 0, 1, 1, 1, 1] and not writer._queue and not writer._leading
    monkeypatch.setattr(chain, "lock_for_append", original)
    assert writer.submit(append("after")) == 1
    assert logged(store) == ["after"]


def test_a_waiter_handed_the_lead_before_it_sleeps_leads_once(store, monkeypatch):
    """A thread queues while a commit is under way, and is preempted before it goes to sleep;
    the leader finishes and hands it the lead. It must lead exactly once and answer everyone it
    takes: before the fix it saw the lead, skipped its sleep, and its own answer then released
    a lock it never took (RuntimeError, a 500) and left the rest of its batch waiting forever."""
    writer = GroupCommit(store)
    spy = Spy(writer)
    writer._lock = queue_lock = _PausesOneThread()
    committing, both_queued = threading.Event(), threading.Event()

    def hold_the_leaders_commit():  # so that the others queue too late to join it
        if threading.current_thread() is leader:
            committing.set()
            assert both_queued.wait(10)

    before_commit(monkeypatch, store, hold_the_leaders_commit)
    outcome: dict[str, object] = {}

    def run(name, work):
        try:
            outcome[name] = writer.submit(work)
        except BaseException as exc:  # noqa: BLE001 - reported per thread
            outcome[name] = exc

    leader = threading.Thread(target=run, args=("first", append("first")), daemon=True)
    handed = threading.Thread(target=run, args=("handed", append("handed")), daemon=True)
    queued = threading.Thread(target=run, args=("queued", append("queued")), daemon=True)
    queue_lock.paused = handed
    leader.start()
    assert committing.wait(10)
    handed.start()
    assert queue_lock.is_paused.wait(10)  # queued, not yet asleep
    queued.start()
    while len(writer._queue) < 2:
        time.sleep(0.001)
    both_queued.set()
    leader.join(10)
    assert outcome == {"first": 1} and not writer._queue[0].woken.locked()  # handed the lead
    queue_lock.resume.set()
    for t in (handed, queued):
        t.join(10)
    assert outcome == {"first": 1, "handed": 2, "queued": 3}
    assert spy.sizes == [1, 2] and not writer._leading
    with store.connection() as conn:
        assert chain.verify(conn).ok


def test_writers_in_two_processes_take_turns(store):
    """A forked child gets its own queue and connection; both processes' rulings chain."""
    writer = GroupCommit(store)
    writer.submit(append("parent-1"))
    pid = os.fork()
    if pid == 0:  # the child: rule, then leave without running the parent's cleanup
        code = 0
        try:
            for i in range(20):
                writer.submit(append(f"child-{i}"))
        except BaseException:  # noqa: BLE001
            code = 1
        os._exit(code)
    for i in range(20):
        writer.submit(append(f"parent-{i + 2}"))
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    names = logged(store)
    assert len(names) == 41
    with store.connection() as conn:
        assert chain.verify(conn).ok


def test_sqlite_writers_queue_on_the_write_turn_not_on_the_busy_handler(tmp_path):
    """While one writer holds the turn, another waits for it (however long), and starts the
    moment it is free: never 'database is locked', never a busy-handler sleep."""
    s = Store(f"sqlite:///{tmp_path}/turn.db")
    migrate.upgrade(s)
    assert s.write_turn().path == f"{tmp_path}/turn.db.write-turn"
    order: list[str] = []
    with s.connection(write=True) as conn:
        conn.execute(text("UPDATE audit_head SET seq = seq WHERE id = 1"))

        def second():
            with s.connection(write=True):
                order.append("second")

        t = threading.Thread(target=second)
        t.start()
        t.join(timeout=0.3)
        assert t.is_alive()  # waiting for the turn
        order.append("first")
    t.join(timeout=5)
    assert order == ["first", "second"]
    s.dispose()


def test_a_connection_the_database_dropped_while_idle_is_replaced(store):
    """PostgreSQL restarted, or an idle session was ended: the next ruling still commits."""
    if store.is_sqlite:
        pytest.skip("a SQLite connection has no server to lose")
    writer = GroupCommit(store)
    writer.submit(append("before"))
    backend = writer._conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
    writer._conn.rollback()
    with store.connection() as conn:
        conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": backend})
    assert writer.submit(append("after")) == 2
    assert logged(store) == ["before", "after"]


def test_an_append_checks_the_chain_in_the_statements_it_runs_anyway(tmp_path):
    """The head is checked before and after each append (`audit.health`), but in no statement
    of its own: the lock reads the last entry too, and the labels' INSERT goes in only while the
    head has moved to the last row. A ruling ran five statements between BEGIN and COMMIT."""
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    migrate.upgrade(store)
    writer = GroupCommit(store)
    writer.submit(append("first"))  # the writer's connection, opened
    sent: list[str] = []
    writer._conn.connection.dbapi_connection.set_trace_callback(sent.append)
    writer.submit(append("second"))
    # (SQLite traces the trigger's two statements as the INSERT that fired them: one each)
    statements = [" ".join(s.split()[:3]) for i, s in enumerate(sent) if s not in sent[:i]]
    assert statements == [
        "BEGIN IMMEDIATE",
        "SELECT seq, hash,",  # the head, and the log's last entry
        "INSERT INTO rulings",  # the entry (its trigger moves the head)
        "INSERT INTO ruling_labels",  # its labels, while the head names it
        "COMMIT",
    ]
    assert logged(store) == ["first", "second"]
    store.dispose()
