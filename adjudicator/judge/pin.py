"""The kiosk's PIN: a quick local unlock of a tablet that is already paired.

The PIN (`ADJUDICATOR_JUDGE_PIN`) is checked on the server in constant time. Wrong PINs are
counted in the store (`adjudicator.auth.lockout`), so the limit holds across workers and boxes:
per paired device, or for an unpaired kiosk in open mode per its device id (`KIOSK_COOKIE`, a
random cookie set when the kiosk page loads), under the wider ceiling of its address or IPv6 /64
that dropping the cookie does not reset. A player mashing one tablet's keypad therefore locks that tablet's PIN and
nothing else; the director can always log in, re-pair or revoke. In tournament mode an unpaired browser has nothing to unlock (it gets
no rulings), so it is refused with 401.
"""

from __future__ import annotations

import hmac
import re
import secrets

from flask import Response, jsonify, request

from adjudicator import store
from adjudicator.api.bodies import UnlockRequest, parse
from adjudicator.auth import lockout, store_time
from adjudicator.auth.guard import identify
from adjudicator.auth.lockout import PIN_SCOPE
from adjudicator.auth.tokens import digest
from adjudicator.auth.views import set_cookie
from adjudicator.catalogue import rulesets
from adjudicator.problems import Problem
from adjudicator.settings import current_settings
from adjudicator.web.contract import JSON_BODY, operation
from adjudicator.web.errors import ApiError
from adjudicator.web.netaddrs import client_id
from adjudicator.web.requests import json_body

# An unpaired kiosk's device id: random (128 bits, not guessable), HttpOnly, SameSite=Strict.
KIOSK_COOKIE = "adj_kiosk"
KIOSK_COOKIE_SECONDS = 400 * 24 * 3600  # the longest a browser keeps a cookie
_KIOSK_ID = re.compile(r"[A-Za-z0-9_-]{22}")


def kiosk_device() -> str | None:
    """The digest of this browser's kiosk device id, or None when it sent none (or not one of
    ours); only the digest is stored, so the store's rows cannot be replayed as a cookie."""
    value = request.cookies.get(KIOSK_COOKIE, "")
    if not _KIOSK_ID.fullmatch(value):
        return None
    return digest(value)[:32]


def give_kiosk_device(response: Response) -> Response:
    """Set a kiosk device id on a browser that has none, so its wrong PINs count for it alone."""
    if kiosk_device() is None:
        set_cookie(response, KIOSK_COOKIE, secrets.token_urlsafe(16), KIOSK_COOKIE_SECONDS)
    return response


def pin_matches(given: str, configured: str) -> bool:
    # Equal-length digests, so the comparison's time says nothing about the PIN's length either.
    return hmac.compare_digest(digest(given), digest(configured))


@operation(
    "judgeUnlock",
    "judge",
    "Unlocked",
    body=UnlockRequest,
    problems=(
        *JSON_BODY,
        Problem.CREDENTIAL_REQUIRED,
        Problem.CREDENTIAL_INVALID,
        Problem.BAD_AUTHORIZATION,
        Problem.WRONG_PIN,
        Problem.PIN_NOT_SET,
        Problem.TOO_MANY_ATTEMPTS,
        Problem.STORE_UNAVAILABLE,
    ),
)
def unlock():
    configured = current_settings().judge_pin  # text: `0042` stays `0042`
    if not configured:
        raise ApiError(Problem.PIN_NOT_SET, "no judge PIN is configured (ADJUDICATOR_JUDGE_PIN)")
    caller = identify()
    if caller.anonymous and current_settings().tournament:
        raise ApiError(
            Problem.CREDENTIAL_REQUIRED,
            "in tournament mode only a paired tablet can be unlocked: pair it at /judge/pair",
        )
    who = caller.key if not caller.anonymous else _kiosk_client()  # the device tries count for
    account = lockout.shared_account(who)  # an open kiosk's address (its /64) is the ceiling
    pin = parse(UnlockRequest, json_body()).pin
    # One transaction, in turn with every other try on this device (lockout.attempt): the try
    # is counted before the PIN is compared, so tries sent at once cannot pass the limit.
    policy, now = lockout.PIN, store_time.now()
    with store.connection(write=True) as conn:
        wait = lockout.attempt(conn, PIN_SCOPE, account, who, policy, now)
        matched = not wait and pin_matches(pin, configured)
        if matched:
            lockout.clear(conn, PIN_SCOPE, account, who)
        elif not wait:  # the tablet's screen says how many tries it has left
            left = lockout.tries_left(conn, PIN_SCOPE, account, who, policy, now)
    if wait:
        raise ApiError(
            Problem.TOO_MANY_ATTEMPTS,
            f"too many wrong PINs on this tablet: wait {-(-wait // 60)} min, or ask the director"
            " to clear the lock (director page)",
            headers={"Retry-After": str(wait)},
        )
    if not matched:
        raise ApiError(
            Problem.WRONG_PIN,
            f"wrong PIN ({left} more tries before this tablet must wait)",
            "pin",
            extra={"attempts_remaining": left},
        )
    listed = [
        {"id": r.id, "name": r.name, "language": r.language}
        for _, r in sorted(rulesets().items())
        if caller.may_use(r.id)  # a tablet bound to a ruleset is offered only that one
    ]
    return jsonify(unlocked=True, rulesets=listed)  # never cached: the judge pages' headers


def _kiosk_client() -> str:
    """An unpaired kiosk: its device id from its address, or its address when it has no id."""
    device = kiosk_device()
    address = client_id()
    return lockout.device_client(device, address) if device else address
