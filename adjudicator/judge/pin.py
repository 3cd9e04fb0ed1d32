"""The director's PIN: checked on the server in constant time, rate-limited per client.

A paired-device credential (the tournament store) will sit beside this check, not inside it:
the page sends whatever its fetch helper adds (static/judge/net.js) and this endpoint stays the
fallback for a kiosk that is not paired.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import threading
import time
from collections import deque

from flask import Flask, current_app, jsonify, request

from adjudicator.catalogue import rulesets
from adjudicator.errors import ApiError
from adjudicator.requests import json_body, only_fields


class PinLimiter:
    """Wrong PINs per client in a sliding window, plus a ceiling for all clients together.

    In memory, per worker process: with N gunicorn workers a guesser gets at most N times the
    per-client allowance per window, which still makes a 4-digit PIN take days to find.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._failures: dict[str, deque[float]] = {}

    def retry_after(self, client: str, limit: int, window: float) -> int:
        """Seconds to wait before this client may try again; 0 when it may try now."""
        now = time.monotonic()
        with self._lock:
            self._expire(now, window)
            mine = self._failures.get(client, deque())
            everyone = sum(len(q) for q in self._failures.values())
            if len(mine) >= limit:
                return max(1, int(mine[0] + window - now) + 1)
            if everyone >= limit * 4:
                oldest = min(q[0] for q in self._failures.values() if q)
                return max(1, int(oldest + window - now) + 1)
            return 0

    def fail(self, client: str) -> None:
        with self._lock:
            self._failures.setdefault(client, deque()).append(time.monotonic())

    def succeed(self, client: str) -> None:
        with self._lock:
            self._failures.pop(client, None)

    def _expire(self, now: float, window: float) -> None:
        for client in list(self._failures):
            queue = self._failures[client]
            while queue and queue[0] <= now - window:
                queue.popleft()
            if not queue:
                del self._failures[client]


def _digest(text: str) -> bytes:
    # Equal-length digests, so the comparison's time says nothing about the PIN's length either.
    return hashlib.sha256(text.encode("utf-8")).digest()


def pin_matches(given: str, configured: str) -> bool:
    return hmac.compare_digest(_digest(given), _digest(configured))


def unlock():
    configured = current_app.extensions["judge_pin"]
    if not configured:
        raise ApiError(403, "pin_not_set", "no judge PIN is configured (ADJUDICATOR_JUDGE_PIN)")
    limiter: PinLimiter = current_app.extensions["judge_pin_limiter"]
    client = request.remote_addr or "unknown"
    limit = int(current_app.config["JUDGE_PIN_ATTEMPTS"])
    window = float(current_app.config["JUDGE_PIN_WINDOW_SECONDS"])
    wait = limiter.retry_after(client, limit, window)
    if wait:
        response = ApiError(
            429, "too_many_attempts", f"too many wrong PINs: wait {wait} s"
        ).response()
        response.headers["Retry-After"] = str(wait)
        return response
    data = json_body()
    only_fields(data, {"pin"})
    pin = data.get("pin")
    if not isinstance(pin, str) or not 1 <= len(pin) <= 64:
        raise ApiError(400, "wrong_shape", "'pin' must be a string of 1 to 64 characters", "pin")
    if not pin_matches(pin, configured):
        limiter.fail(client)
        raise ApiError(403, "wrong_pin", "wrong PIN", "pin")
    limiter.succeed(client)
    listed = [
        {"id": r.id, "name": r.data["name"], "language": r.language}
        for _, r in sorted(rulesets().items())
    ]
    response = jsonify(unlocked=True, rulesets=listed)
    response.headers["Cache-Control"] = "no-store"
    return response


def configured_pin(app: Flask) -> str | None:
    value = app.config.get("JUDGE_PIN")
    if value is None or isinstance(value, str):
        return value or None
    # `from_prefixed_env` parses values as JSON, so a PIN of 0042 would be lost as 42: take the
    # environment's own text whenever there is one.
    raw = os.environ.get("ADJUDICATOR_JUDGE_PIN")
    return raw if raw else str(value)
