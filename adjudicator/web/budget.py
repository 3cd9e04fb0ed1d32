"""A share of each worker's time for the expensive endpoint, so it cannot starve the rest.

`games/verify` replays a whole record: tens of milliseconds at the turn cap, where a challenge
takes a fraction of one. Eight clients sending records as fast as they are answered would hold
every worker. So each worker (gunicorn process) keeps the time its verifications held it in a
sliding window, and once they used `share` of the window it answers 429 with Retry-After, before
reading the body, until the window has room again. Challenges, moves and the judge never wait on
it. The time is wall-clock time, not CPU time: a worker's threads share one interpreter, so a
record being replayed slows every other request of that worker, and on a crowded machine for
longer than its CPU time. The budget is per process: with N workers, N times the share at
most.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque


class CpuBudget:
    def __init__(self, share: float, window: float = 1.0):
        if not 0 < share <= 1 or window <= 0:
            raise ValueError("share must be in (0, 1] and window > 0")
        self.share, self.window = share, window
        self._spent: deque[tuple[float, float]] = deque()  # (when it ended, seconds held)
        self._lock = threading.Lock()

    def retry_after(self) -> int:
        """0 when a request may start now, else the whole seconds to wait."""
        now = time.monotonic()
        with self._lock:
            while self._spent and self._spent[0][0] <= now - self.window:
                self._spent.popleft()
            if sum(held for _, held in self._spent) < self.share * self.window:
                return 0
            oldest = self._spent[0][0]
            return max(1, math.ceil(oldest + self.window - now))

    def spend(self, seconds: float) -> None:
        with self._lock:
            self._spent.append((time.monotonic(), seconds))
