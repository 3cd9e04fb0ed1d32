"""The board that spreads keep-alive connections over gunicorn's workers, and the worker that
reads it: the least loaded worker accepts, and a dead, hung or leaving worker never stops the
others accepting."""

from __future__ import annotations

import multiprocessing
import os
import signal

import pytest
from gunicorn.config import Config
from gunicorn.workers.gthread import ThreadWorker

from adjudicator.process.acceptbalance import POST_EVERY, STALE, ConnectionBoard
from adjudicator.process.gunicorn_worker import HELD_BACK_POLL, BalancedAccept, OneWriteThreadWorker

NOW = 1000.0


def test_the_least_loaded_worker_accepts_and_equals_both_do():
    board = ConnectionBoard(slots=4)
    a, b = board.claim(NOW), board.claim(NOW)
    assert a is not None and b is not None and a != b
    assert not board.may_accept(b, 3, NOW)  # a, claimed just now, holds none
    assert not board.may_accept(a, 4, NOW)  # b holds 3, fewer
    assert board.may_accept(b, 3, NOW)
    assert board.may_accept(a, 3, NOW) and board.may_accept(b, 3, NOW)  # a tie: both


def test_a_worker_that_stopped_posting_is_left_out():
    board = ConnectionBoard(slots=4)
    hung, live = board.claim(NOW), board.claim(NOW)
    board.post(hung, 1, NOW)
    assert not board.may_accept(live, 5, NOW + STALE / 2)
    assert board.may_accept(live, 5, NOW + STALE)  # nothing from it for STALE seconds


def test_a_released_slot_stops_counting_and_is_handed_out_again():
    board = ConnectionBoard(slots=2)
    gone, live = board.claim(NOW), board.claim(NOW)
    board.post(gone, 0, NOW)
    assert not board.may_accept(live, 8, NOW)
    board.release(gone)
    assert board.may_accept(live, 8, NOW)
    assert board.claim(NOW) == gone  # free again, posted as holding nothing
    assert not board.may_accept(live, 8, NOW)


def test_a_release_never_hides_a_worker_in_a_higher_slot():
    """Workers look only at the slots handed out so far; a release (in a leaving worker, whose
    record of handed-out slots is its fork's old copy) must not shrink what they look at."""
    board = ConnectionBoard(slots=8)
    low, live, high = board.claim(NOW), board.claim(NOW), board.claim(NOW)
    board.release(low)
    board.post(high, 1, NOW)
    assert not board.may_accept(live, 5, NOW)  # the worker in the highest slot holds fewer
    assert board.claim(NOW) == low


def test_when_every_slot_is_taken_a_worker_gets_none():
    board = ConnectionBoard(slots=2)
    assert [board.claim(NOW), board.claim(NOW), board.claim(NOW)] == [0, 1, None]


def _post_from_child(board: ConnectionBoard, slot: int, now: float) -> None:
    board.post(slot, 6, now)


def test_a_post_made_after_the_fork_is_seen_by_the_others():
    board = ConnectionBoard(slots=2)
    child, parent = board.claim(NOW), board.claim(NOW)
    assert not board.may_accept(parent, 6, NOW)  # the child holds none yet
    ctx = multiprocessing.get_context("fork")  # gunicorn's workers are forks of the master
    process = ctx.Process(target=_post_from_child, args=(board, child, NOW))
    process.start()
    process.join(timeout=30)
    assert process.exitcode == 0
    assert board.may_accept(parent, 6, NOW)  # the child holds 6 now, posted in shared memory
    assert not board.may_accept(parent, 7, NOW)


# --- the gthread worker ----------------------------------------------------------------------


class QuietLog:
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> None:
    """No board yet, as in a newly started master: its first worker makes it."""
    monkeypatch.setattr(BalancedAccept, "board", None)


def _worker() -> OneWriteThreadWorker:
    """Built as gunicorn's master builds it before the fork (what __init__ needs)."""
    return OneWriteThreadWorker(1, os.getpid(), [], None, 30, Config(), QuietLog())


def can_accept(worker: OneWriteThreadWorker) -> bool:
    """gunicorn's gthread loop, each turn: `nr_conns < worker_connections`, and accepting turned
    on or off to match (no listeners here, so only the worker's flag moves)."""
    can = worker.nr_conns < worker.worker_connections
    worker.set_accept_enabled(can)
    return can


def test_a_worker_stops_accepting_while_another_holds_fewer(board):
    first, second = _worker(), _worker()
    assert BalancedAccept.board is not None and first._slot != second._slot
    assert first.worker_connections == Config().worker_connections  # gunicorn's setting, kept
    first.nr_conns, second.nr_conns = 8, 7
    assert not can_accept(first)  # the second was just made: it holds none
    assert can_accept(second)  # 7, against the first's 8
    assert not can_accept(first)
    second.nr_conns = 8
    assert can_accept(second) and can_accept(first)


def test_the_configured_cap_still_holds(board):
    cfg_cap = Config().worker_connections
    worker = _worker()
    worker.nr_conns = cfg_cap
    assert not can_accept(worker)


def test_a_worker_leaving_or_reaped_no_longer_counts(board):
    leaving, reaped, live = _worker(), _worker(), _worker()
    leaving.nr_conns = reaped.nr_conns = 1
    live.nr_conns = 5
    assert not can_accept(live) and not can_accept(leaving)  # the last made holds none
    assert can_accept(reaped) and can_accept(leaving)
    assert not can_accept(live)
    leaving.method_queue.init()  # gunicorn's handle_exit wakes the loop through it
    leaving.handle_exit(signal.SIGTERM, None)
    assert not leaving.alive and leaving._slot is None
    assert not can_accept(live)  # the reaped one still holds 1
    reaped.release_slot()  # as the master's child_exit hook does
    assert can_accept(live)


def test_without_a_board_slot_a_worker_accepts_as_gunicorn_does(monkeypatch):
    monkeypatch.setattr(BalancedAccept, "board", ConnectionBoard(slots=1))
    first, second = _worker(), _worker()
    assert second._slot is None
    first.nr_conns, second.nr_conns = 0, 50
    assert can_accept(first) and can_accept(second)


def test_a_held_back_worker_looks_at_the_board_again_soon(board, monkeypatch):
    """Nothing wakes a held-back worker when the others fill up: without a short wait it could
    sleep a whole turn (a second) while new connections queue and it is the least loaded."""
    waits: list[float] = []
    monkeypatch.setattr(
        ThreadWorker, "wait_for_and_dispatch_events", lambda self, timeout: waits.append(timeout)
    )
    held_back, free = _worker(), _worker()
    held_back.nr_conns = 2
    assert not can_accept(held_back)
    held_back.wait_for_and_dispatch_events(1.0)
    assert can_accept(free)
    free.wait_for_and_dispatch_events(1.0)
    held_back.nr_conns = held_back._connection_cap  # full: its own connections wake it
    assert not can_accept(held_back)
    held_back.wait_for_and_dispatch_events(1.0)
    assert waits == [HELD_BACK_POLL, POST_EVERY, POST_EVERY]


def test_an_idle_worker_posts_well_within_the_time_it_would_go_stale():
    """gunicorn's loop waits up to a second for events; an idle worker still posts every
    POST_EVERY, so only a stalled one is left out."""
    assert POST_EVERY <= STALE / 2
