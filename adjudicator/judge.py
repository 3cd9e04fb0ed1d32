"""The judge's tablet: a kiosk page locked to one ruleset, and the PIN check that unlocks it.

The page is plain HTML, CSS and JS served from this package (no CDN: tournaments run on an
offline LAN). Everything the page needs from the server is embedded in it as one JSON block: the
ruleset, the UI strings in the ruleset's language, the letters of the on-screen keyboard, the
characters a word may contain, and the timers. The PIN never leaves the server.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import threading
import time
from collections import deque
from functools import cache
from importlib import resources
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from adjudicator.api import API_PREFIX
from adjudicator.catalogue import rulesets
from adjudicator.errors import ApiError
from adjudicator.lexicons import registry
from adjudicator.requests import json_body, only_fields
from lexicon.languages import LanguageProfile
from lexicon.limits import MAX_LETTERS, MIN_LETTERS
from lexicon.normalise import Normaliser

LANGUAGES = ("da", "sv", "nl", "en")
# Letters that are not tiles but appear in the language's words and are worth a key of their
# own (they fold to a tile letter on the server: IDÉ → IDE).
EXTRA_KEYS = {"da": "É", "sv": "É"}

DEFAULTS = {
    "JUDGE_PIN": None,  # unset: the kiosk cannot be unlocked from the page at all
    "JUDGE_RESULT_SECONDS": 10,  # the verdict clears itself after this long
    "JUDGE_TAP_GUARD_SECONDS": 0.5,  # taps on the verdict are ignored this long
    "JUDGE_IDLE_SECONDS": 15,  # half-entered words clear after this long without input
    "JUDGE_REQUEST_SECONDS": 8,  # a ruling not answered in this long is "no answer"
    "JUDGE_PIN_ATTEMPTS": 5,  # wrong PINs allowed per client per window
    "JUDGE_PIN_WINDOW_SECONDS": 60,
}

bp = Blueprint(
    "judge",
    __name__,
    static_folder="static/judge",
    static_url_path="/judge/static",
)

PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'"
    ),
    "Cache-Control": "no-store",
    "Pragma": "no-cache",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}


@bp.after_request
def security_headers(response: Response) -> Response:
    for name, value in PAGE_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


# --- strings and letters ------------------------------------------------------------------


@cache
def strings(language: str) -> dict[str, str]:
    path = resources.files("adjudicator") / "i18n" / f"{language}.json"
    return json.loads(path.read_text("utf-8"))


def keyboard_letters(profile: LanguageProfile) -> list[str]:
    letters = list(profile.alphabet)
    letters += [c for c in EXTRA_KEYS.get(profile.code, "") if c not in letters]
    return letters


def word_characters(profile: LanguageProfile) -> str:
    """Every upper-case character the server's query check accepts in a word of this language.

    The page refuses anything else as it is typed, so the one normaliser stays the only judge of
    what a word may contain (Danish É folds to E; Dutch Ĳ to IJ; a look-alike never passes).
    """
    accepted = sorted(c for c in Normaliser(profile).query_characters if c == c.upper())
    return "".join(dict.fromkeys(keyboard_letters(profile) + accepted))


@cache
def asset_version() -> str:
    """A digest of the page's assets, so a new release is never served from a stale cache."""
    digest = hashlib.sha256()
    folder = resources.files("adjudicator") / "static" / "judge"
    for name in sorted(p.name for p in folder.iterdir()):
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()[:12]


def _seconds(key: str) -> float:
    value = float(current_app.config[key])
    if value < 0:
        raise ValueError(f"{key} must be ≥ 0")
    return value


def page_config(ruleset_id: str) -> dict[str, Any]:
    ruleset = rulesets()[ruleset_id]
    language = ruleset.language if ruleset.language in LANGUAGES else "en"
    d = ruleset.data
    lexicon = registry().get(ruleset.lexicon_id)
    profile = lexicon.profile if lexicon is not None else None  # the compiled profile, or none
    return {
        "ruleset": {
            "id": ruleset.id,
            "name": d["name"],
            "language": language,
            "policy": ruleset.policy,
            "max_words": ruleset.max_words,
            "available": lexicon is not None,
        },
        "letters": keyboard_letters(profile) if profile else [],
        "word_characters": word_characters(profile) if profile else "",
        "min_letters": MIN_LETTERS,
        "max_letters": MAX_LETTERS,
        "timers": {
            "result_ms": round(_seconds("JUDGE_RESULT_SECONDS") * 1000),
            "tap_guard_ms": round(_seconds("JUDGE_TAP_GUARD_SECONDS") * 1000),
            "idle_ms": round(_seconds("JUDGE_IDLE_SECONDS") * 1000),
            "request_ms": round(_seconds("JUDGE_REQUEST_SECONDS") * 1000),
        },
        "endpoints": {
            "challenge": f"{API_PREFIX}/rulesets/{ruleset.id}/challenge",
            "unlock": f"{API_PREFIX}/judge/unlock",
            "kiosk": "/judge/",
        },
        "strings": strings(language),
    }


# --- pages --------------------------------------------------------------------------------


@bp.get("/judge/")
def index():
    """Where the kiosk is set up and where it goes when the director leaves it."""
    listed = [
        {
            "id": r.id,
            "name": r.data["name"],
            "name_en": r.data["name_en"],
            "available": registry().get(r.lexicon_id) is not None,
        }
        for _, r in sorted(rulesets().items())
    ]
    return render_template(
        "judge_index.html", rulesets=listed, t=strings("en"), version=asset_version()
    )


@bp.get("/judge/<ruleset_id>")
def kiosk(ruleset_id: str):
    if ruleset_id not in rulesets():
        body = render_template(
            "judge_missing.html", ruleset_id=ruleset_id, t=strings("en"), version=asset_version()
        )
        return body, 404
    config = page_config(ruleset_id)
    return render_template(
        "judge.html",
        config=config,
        t=config["strings"],
        lang=config["ruleset"]["language"],
        version=asset_version(),
    )


# --- the PIN ------------------------------------------------------------------------------


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


@bp.post(f"{API_PREFIX}/judge/unlock")
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


def _configured_pin(app: Flask) -> str | None:
    value = app.config.get("JUDGE_PIN")
    if value is None or isinstance(value, str):
        return value or None
    # `from_prefixed_env` parses values as JSON, so a PIN of 0042 would be lost as 42: take the
    # environment's own text whenever there is one.
    raw = os.environ.get("ADJUDICATOR_JUDGE_PIN")
    return raw if raw else str(value)


def init_app(app: Flask) -> None:
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    pin = _configured_pin(app)
    if pin and len(pin) < 4:
        app.logger.warning("the judge PIN is shorter than 4 characters")
    app.extensions["judge_pin"] = pin
    app.extensions["judge_pin_limiter"] = PinLimiter()
    app.register_blueprint(bp)
