"""Steady HTTP load from a few threads, every outcome recorded: for the fault tests and
`benchmarks/faults.py`. Bounded by a request count and a duration, never open-ended."""

from __future__ import annotations

import itertools
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import requests

# Words whose verdicts differ between the bundled Swedish list and the test's replacement.
SWEDISH_PROBE = ["hej", "ord", "qxz"]


@dataclass
class Outcome:
    start: float
    end: float
    status: int | None  # None: no HTTP answer at all
    error: str | None = None
    body: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def sha(self) -> str | None:
        lexicon = (self.body or {}).get("lexicon") or {}
        return lexicon.get("sha256")


@dataclass
class Request:
    method: str
    path: str
    json: dict[str, Any] | None = None
    idempotent_key: bool = True  # POSTs carry an Idempotency-Key, so a proxy may retry them

    def send(self, session: requests.Session, base: str, timeout: float) -> requests.Response:
        headers = {}
        if self.method == "POST" and self.idempotent_key:
            headers["Idempotency-Key"] = str(uuid.uuid4())
        return session.request(
            self.method, base + self.path, json=self.json, headers=headers, timeout=timeout
        )


CHALLENGE = Request("POST", "/api/v1/rulesets/ssf-1999/challenge", {"words": SWEDISH_PROBE})
MIX = [
    CHALLENGE,
    Request("GET", "/api/v1/rulesets/ssf-1999"),
    Request("POST", "/api/v1/rulesets/dsf-2015/challenge", {"words": ["hej", "kat"]}),
]


@dataclass
class Load:
    base: str
    mix: list[Request] = field(default_factory=lambda: list(MIX))
    threads: int = 4
    max_requests: int = 5000
    max_seconds: float = 20.0
    timeout: float = 5.0
    pause: float = 0.0  # per thread between requests: a steady rate rather than a flood
    outcomes: list[Outcome] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._count = itertools.count()
        self._lock = threading.Lock()
        self._workers = [threading.Thread(target=self._run, args=(i,)) for i in range(self.threads)]

    def _run(self, index: int) -> None:
        deadline = time.monotonic() + self.max_seconds
        with requests.Session() as session:
            for n in itertools.count(index):
                if self._stop.is_set() or time.monotonic() > deadline:
                    return
                if next(self._count) >= self.max_requests:
                    return
                req = self.mix[n % len(self.mix)]
                start = time.monotonic()
                try:
                    r = req.send(session, self.base, self.timeout)
                    body = r.json() if r.headers.get("content-type", "").endswith("json") else None
                    outcome = Outcome(start, time.monotonic(), r.status_code, None, body)
                except (requests.RequestException, ValueError) as exc:
                    outcome = Outcome(start, time.monotonic(), None, type(exc).__name__)
                with self._lock:
                    self.outcomes.append(outcome)
                if self.pause:
                    time.sleep(self.pause)

    def __enter__(self) -> Load:
        for t in self._workers:
            t.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> list[Outcome]:
        self._stop.set()
        for t in self._workers:
            t.join()
        return self.outcomes

    def wait(self) -> list[Outcome]:
        for t in self._workers:
            t.join()
        return self.outcomes

    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.ok]


def summary(outcomes: list[Outcome]) -> str:
    failed = [o for o in outcomes if not o.ok]
    kinds: dict[str, int] = {}
    for o in failed:
        key = o.error or str(o.status)
        kinds[key] = kinds.get(key, 0) + 1
    return f"{len(outcomes)} requests, {len(failed)} failed {kinds or ''}".strip()


def wait_for(predicate: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")
