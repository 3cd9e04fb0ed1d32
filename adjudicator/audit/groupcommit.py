"""Group commit: the rulings a process answers at the same moment share one transaction.

Every ruling is committed before its answer, and every append takes the chain's one lock, so one
commit (one fsync, one turn at the lock) per ruling caps the whole service at one ruling per
fsync, however many workers and threads it has. Here a request thread that finds no commit under
way becomes the leader: it takes the append lock (waiting, on a busy service, for another
worker's commit), and only then the queue: every ruling queued so far, its own first. It runs
their work in order in one write transaction, and before it commits takes whatever queued while
that work ran, again and again until nothing is left (at most MAX_BATCH); it links their entries
into the chain, commits once and only then releases every answer. So the rulings that arrive
while a leader waits for the lock or works under it share its commit; those that arrive during
its COMMIT (the fsync) queue, and the first of them leads the next commit, taking them all.
One wait, bounded and only where others are known to be coming: right after a commit of several,
whose requests are likely computing their next rulings, a leader finding fewer queued waits for
them (all but one, at most GATHER_SECONDS) before it takes the lock (`_gather`). Without it, on
a busy worker the first ruling of each round committed alone and the rest in the next commit.
A ruling that comes alone, after a commit of one, is committed at once.

Nothing is acknowledged before the commit that holds it, so durability is as before. A piece of
work may run in another request's thread (the leader's), so it must not touch `flask.request` or
`flask.g`: the app context is the same, the request is not. It must also be safe to run again:
when any of them fails (a refusal such as the jury limit, or a database error), the batch is
rolled back and each one is run again in a transaction of its own, so a failure is reported to
its own request and never costs another request its ruling.
With one thread per worker (gunicorn's sync worker) every batch is a single ruling.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from adjudicator.audit import chain, health
from adjudicator.store import Store

T = TypeVar("T")
MAX_BATCH = 256  # rulings per transaction; a longer queue is taken by the next leader
# The longest a leader waits for the rulings it expects (`GroupCommit._gather`): room for a few
# rulings to be computed on a busy worker, below what a commit holds the lock under load (1-5 ms,
# docs/explanation/benchmarks.md); the only value measured. A ruling that comes alone never waits.
GATHER_SECONDS = 0.001


@dataclass
class Batch:
    """What one transaction appends: the locked head and the rows linked after it."""

    head: chain.Head
    rows: list[dict[str, Any]] = field(default_factory=list)

    def append(self, entry: dict[str, Any]) -> dict[str, Any]:
        row = chain.link(self.head, entry)
        self.rows.append(row)
        return row


Work = Callable[[Connection, Batch], T]
# Told of each committed transaction: its rulings, and the seconds it waited for the append lock
# and then held it (metrics.observe_commit when /metrics is on).
Observer = Callable[[int, float, float], None]


class _Pending(Generic[T]):
    __slots__ = ("work", "woken", "done", "result", "error")

    def __init__(self, work: Work):
        self.work = work
        # For one that waits (`sleep`): released when done, or when it is this one's turn to
        # lead. A bare lock, the cheapest thing a thread can sleep on (an Event is a Condition,
        # a lock and Python around them); none for a leader, which never waits.
        self.woken: threading.Lock | None = None
        self.done = False
        self.result: Any = None
        self.error: BaseException | None = None

    def sleep(self) -> None:
        """Made to wait (under the group commit's lock, before any leader can see it)."""
        self.woken = threading.Lock()
        self.woken.acquire()

    def finish(self, result: Any = None, error: BaseException | None = None) -> None:
        self.result, self.error, self.done = result, error, True
        if self.woken is not None:
            self.woken.release()


_writers: weakref.WeakSet[GroupCommit] = weakref.WeakSet()
_inherited: list[Connection] = []


def _after_fork_in_child() -> None:
    for writer in list(_writers):
        writer._reset()


os.register_at_fork(after_in_child=_after_fork_in_child)


class GroupCommit:
    """One per store and process: appends rulings to the audit log, batched."""

    def __init__(self, store: Store, observe: Observer | None = None):
        self.store = store
        self.observe = observe
        self._reset()
        _writers.add(self)

    def _reset(self) -> None:
        # After a fork the parent's lock may be held by a thread that does not exist here, and
        # its connection is the parent's: kept from the garbage collector, never closed here.
        if getattr(self, "_conn", None) is not None:
            _inherited.append(self._conn)
        self._conn: Connection | None = None
        self._queue: list[_Pending] = []
        self._leading = False  # a leader is committing, or has been chosen
        self._lock = threading.Lock()
        self._expect = 1  # rulings the next leader expects to take (`_gather`)
        self._enough: threading.Lock | None = None  # released once they have queued

    def submit(self, work: Work[T]) -> T:
        """Run `work(conn, batch)` in a write transaction under the append lock, with others
        queued at the same time; its result once the transaction holding it has committed."""
        pending: _Pending[T] = _Pending(work)
        with self._lock:
            self._queue.append(pending)
            if self._enough is not None and len(self._queue) >= self._expect:
                self._enough.release()  # a gathering leader has what it waited for
                self._enough = None
            leads = not self._leading
            self._leading = True
            if not leads:
                pending.sleep()
        # Whether to wait is decided under the lock, once: a leader finishing meanwhile may
        # already have handed this one the lead by releasing `woken`, and must find it asleep
        # or about to be, or `woken` would still be released when its own answer releases it.
        if not leads:
            pending.woken.acquire()  # type: ignore[union-attr]  # each waiter its own: all wake
        if not pending.done:  # woken to lead (not by its answer): its own work is still queued
            self._lead()
        if pending.error is not None:
            raise pending.error
        return pending.result

    def _lead(self) -> None:
        taken: list[_Pending] = []

        def more() -> list[Work]:  # what queued since, up to MAX_BATCH in all
            with self._lock:
                room = MAX_BATCH - len(taken)
                new, self._queue = self._queue[:room], self._queue[room:]
            taken.extend(new)
            return [p.work for p in new]

        try:
            self._gather()
            try:
                results = self._transaction([], more)
                # The others of this batch are likely computing their next rulings now: the
                # next leader expects them, all but one (a client that does not come back at
                # once costs one wait, not one per ruling).
                self._expect = max(1, len(taken) - 1)
            except BaseException as exc:
                if not taken:  # it failed before the lock (no connection): those queued fail
                    more()
                self._fail(taken, exc)
            else:
                for pending, result in zip(taken, results, strict=True):
                    pending.finish(result)
        finally:
            with self._lock:  # hand over to the first that queued meanwhile, if any
                if self._queue:  # it queued while this one led, so it sleeps
                    self._queue[0].woken.release()  # type: ignore[union-attr]  # wakes to lead
                else:
                    self._leading = False

    def _gather(self) -> None:
        """Before it takes the lock: while fewer rulings are queued than the last commit
        leads this one to expect, wait for them, at most GATHER_SECONDS. A worker whose
        rulings come back together (a busy service) then commits them together, where the
        first to arrive committed alone and the rest in the next commit. A worker that
        commits one ruling at a time expects one, and never waits."""
        with self._lock:
            if len(self._queue) >= self._expect:
                return
            self._enough = enough = threading.Lock()
            enough.acquire()
        enough.acquire(timeout=GATHER_SECONDS)
        with self._lock:
            self._enough = None

    def _fail(self, batch: list[_Pending], exc: BaseException) -> None:
        """A failed transaction of several: each runs again alone, so that a failure stays
        with its own request (and one that fails alone is answered with its own error)."""
        if len(batch) == 1:
            batch[0].finish(error=exc)
            return
        for pending in batch:
            try:
                result = self._transaction([pending.work])[0]
            except BaseException as alone:
                pending.finish(error=alone)
            else:
                pending.finish(result)

    def _transaction(
        self, works: list[Work], more: Callable[[], list[Work]] | None = None
    ) -> list[Any]:
        """Run `works` in one transaction under the append lock and commit; their results.
        With `more`, every work queued meanwhile joins them (`works` grows in place) until the
        moment of the commit: what queued while the lock was held elsewhere or while these
        ran shares this commit instead of waiting for the next."""
        # One connection per process, used by one leader at a time: no pool round trip per
        # batch. After any failure it is closed, so a broken one is never used again. One that
        # died while idle (the database restarted) fails at the first statement, before anything
        # was sent for this batch: then the batch runs once more on a fresh connection.
        for fresh in (False, True):
            if self._conn is None:
                self._conn = self.store.engine.connect().execution_options(store_write=True)
                fresh = True
            conn = self._conn
            locked = False
            try:
                started = time.perf_counter()
                with self.store.write_turn(), conn.begin():
                    head, last = chain.lock_for_append(conn)
                    locked, taken = True, time.perf_counter()
                    start = chain.Head(head.seq, head.hash)
                    batch = Batch(head)
                    results = [work(conn, batch) for work in works]
                    while more is not None and (joined := more()):
                        works.extend(joined)
                        results.extend(work(conn, batch) for work in joined)
                    if batch.rows:  # the chain they extend is sound, and stays so (`health`)
                        health.before_append(conn, start, last)
                        chain.write(conn, batch.head, batch.rows)  # or HeadDidNotMove
                if self.observe is not None:
                    done = time.perf_counter()
                    self.observe(len(works), taken - started, done - taken)
                return results
            except BaseException as exc:
                self._conn = None
                conn.invalidate()
                gone = isinstance(exc, DBAPIError) and exc.connection_invalidated
                if fresh or locked or not gone:
                    raise
        raise AssertionError("unreachable")  # the second pass returns or raises
