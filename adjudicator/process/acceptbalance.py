"""Keep-alive connections spread evenly over gunicorn's gthread workers.

Every worker accepts from the one listening socket, and whichever wakes first takes the
connection. Keep-alive clients that connect together (a room of tablets straight to gunicorn, a
load generator) often end up mostly on one worker: measured with 16 connections and 2 workers,
splits of 13/3, 15/1 and 16/0 came as often as 8/8. That worker then runs every request on one
core and one GIL, and queues what its threads cannot take, while the other idles: a 16/0 split
halved the challenges' throughput against a 10/6 one (benchmarks/store.py, README).

So each worker posts on a board in shared memory how many connections it holds, and takes a new
one only while no other live worker holds fewer: the least loaded worker accepts, so some
worker always does. A worker that has not posted for `STALE` seconds (each posts at least every
`POST_EVERY`) is left out; a leaving worker clears its own post and the master that of a worker
it reaps, so a dead or stalled worker keeps the others from accepting for half a second at most.
"""

from __future__ import annotations

import ctypes
import mmap

SLOTS = 64  # workers one master can balance at once; more are served, just not balanced
POST_EVERY = 0.25  # seconds: the longest a worker's loop waits before it posts again
STALE = 0.5  # seconds without a post after which a worker is left out


class ConnectionBoard:
    """Connections held per worker, in shared memory made by the master before it forks.

    Slots are handed out and taken back only in the master (one thread), so they need no lock;
    each worker writes only its own slot: (connections, when posted on the monotonic clock).
    The memory is an anonymous shared mapping, which every fork shares and no file backs. It
    starts with the number of slots ever handed out, lowest first: a worker reads every turn of
    its loop, so it looks at those (two to four for two workers), not at all of them.
    """

    def __init__(self, slots: int = SLOTS):
        self.slots = slots
        header = ctypes.sizeof(ctypes.c_long)
        self._memory = mmap.mmap(-1, header + 2 * slots * ctypes.sizeof(ctypes.c_double))
        self._handed_out = ctypes.c_long.from_buffer(self._memory)
        self._cells = (ctypes.c_double * (2 * slots)).from_buffer(self._memory, header)
        self._in_use: set[int] = set()  # the master's record of handed-out slots

    def claim(self, now: float) -> int | None:
        """A free slot for a worker about to be forked, posted as holding nothing; None when
        every slot is taken (that worker then accepts as gunicorn alone would)."""
        for slot in range(self.slots):
            if slot not in self._in_use:
                self._in_use.add(slot)
                self.post(slot, 0, now)
                # Only ever raised: a worker releasing its slot holds an old copy of `_in_use`.
                self._handed_out.value = max(self._handed_out.value, slot + 1)
                return slot
        return None

    def release(self, slot: int) -> None:
        """The slot's worker is gone or leaving: no longer counted, and free to hand out."""
        self._cells[2 * slot] = 0.0
        self._cells[2 * slot + 1] = 0.0  # posted at the clock's origin: long stale
        self._in_use.discard(slot)

    def post(self, slot: int, connections: int, now: float) -> None:
        self._cells[2 * slot] = float(connections)
        self._cells[2 * slot + 1] = now

    def may_accept(self, slot: int, connections: int, now: float) -> bool:
        """Post `connections` for `slot`; whether it may take one more: no live worker holds
        fewer. Ties accept, so two equally loaded workers both may."""
        self.post(slot, connections, now)
        cells = self._cells[: 2 * self._handed_out.value]
        for other in range(len(cells) // 2):
            held, posted = cells[2 * other], cells[2 * other + 1]
            if other != slot and now - posted < STALE and held < connections:
                return False
        return True
