"""Who may call what, declared where each route is defined and enforced in one place.

Every endpoint carries one of three markers (on the view, or on its whole blueprint):

- `public`: anyone, in every mode (health, the OpenAPI document, lexicon summaries, pages);
- `lexicon_dependent`: the answer depends on which words are valid; in tournament mode only a
  director, a paired judge device or an app key may call it, within its rulesets, and devices
  and keys are rate-limited;
- `directors_only`: a director's session, in every mode.

An endpoint without a marker is treated as lexicon-dependent (fail closed), and a test
enumerates `app.url_map` so that no route goes unmarked.
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import quote

from flask import Flask, current_app, g, redirect, request, url_for

from adjudicator import store
from adjudicator.auth import bookkeeping, credcache, devices, directors, keys, store_time
from adjudicator.auth.caller import ANONYMOUS, Caller, current_caller
from adjudicator.auth.tokens import APP_PREFIX, DEVICE_PREFIX, digest
from adjudicator.pages.page_language import kept_language
from adjudicator.problems import Problem
from adjudicator.settings import current_settings
from adjudicator.web import API_PREFIX
from adjudicator.web.access import (
    ACCESS,
    COUNTED_WHEN_ANSWERED,
    DIRECTORS_ONLY,
    LEXICON_DEPENDENT,
    NOT_A_RULING,
    PUBLIC,
    RULES,
)
from adjudicator.web.errors import ApiError

SESSION_COOKIE = "adj_session"
DEVICE_COOKIE = "adj_device"
CSRF_HEADER = "X-Requested-With"  # any value: a header no cross-site form or image can send
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def access_of(app: Flask, endpoint: str) -> str | None:
    """The endpoint's marker, from its view or else its blueprint; None when unmarked."""
    if endpoint == "static" or endpoint.endswith(".static"):
        return PUBLIC
    marked = getattr(app.view_functions.get(endpoint), ACCESS, None)
    if marked:
        return marked
    blueprint = app.blueprints.get(endpoint.rpartition(".")[0])
    return getattr(blueprint, ACCESS, None)


# --- resolving the credential ----------------------------------------------------------------


def _bearer() -> str | None:
    # Read from the environ, as WSGI hands it over: the headers' own lookup costs more.
    header = request.environ.get("HTTP_AUTHORIZATION")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(
            Problem.BAD_AUTHORIZATION,
            "send 'Authorization: Bearer <app key or device token>'",
            headers={"WWW-Authenticate": 'Bearer realm="adjudicator"'},
        )
    return token


def _resolve(conn, access: str, at: datetime) -> Caller:
    """The request's caller, read from the store: nothing is written here (`bookkeeping`)."""
    token = _bearer()
    if token is not None:
        found = None
        if token.startswith(DEVICE_PREFIX):
            found = devices.resolve(conn, token, at)
        elif token.startswith(APP_PREFIX):
            found = keys.resolve(conn, token)
        if found is None:
            raise bookkeeping.not_in_force()
        return found
    session = request.cookies.get(SESSION_COOKIE)
    device = request.cookies.get(DEVICE_COOKIE)
    if not (session or device):
        return ANONYMOUS
    if request.method not in SAFE_METHODS and request.path.startswith(API_PREFIX):
        if not request.headers.get(CSRF_HEADER):
            if access == PUBLIC:
                return ANONYMOUS
            raise ApiError(
                Problem.CSRF_HEADER_MISSING,
                f"a request authenticated by a cookie must carry the {CSRF_HEADER} header",
            )
    if session:
        found = directors.resolve_session(conn, session, at)
        if found is not None:
            g.session_token = session
            return found
    if device:
        found = devices.resolve(conn, device, at)
        if found is not None:
            return found
    g.stale_cookie = True  # an ended session or a revoked device: said in the 401's message
    return ANONYMOUS


def _cache_key(view) -> str | None:
    """The digest under which this request's credential may be taken from the worker's cache
    (`credcache`): a counted ruling, settled in its own transaction, which checks that the
    credential is still in force; never with an Idempotency-Key (a replay is not counted)."""
    if not getattr(view, RULES, False) or "HTTP_IDEMPOTENCY_KEY" in request.environ:
        return None
    token = _bearer()
    if token is None or not token.startswith((APP_PREFIX, DEVICE_PREFIX)):
        return None
    return digest(token)


def _has_credential() -> bool:
    # Read from the environ: most rulings carry no cookie, and parsing none still costs.
    environ = request.environ
    if "HTTP_AUTHORIZATION" in environ:
        return True
    if "HTTP_COOKIE" not in environ:
        return False
    cookies = request.cookies
    return SESSION_COOKIE in cookies or DEVICE_COOKIE in cookies


def _refuse_anonymous() -> ApiError:
    if g.get("stale_cookie"):
        return ApiError(
            Problem.CREDENTIAL_INVALID,
            "this session has ended or this device's pairing was revoked or has expired",
        )
    return ApiError(
        Problem.CREDENTIAL_REQUIRED,
        "in tournament mode this needs a credential: an app key (Authorization: Bearer), a "
        "paired judge device or a director's session",
        headers={"WWW-Authenticate": 'Bearer realm="adjudicator"'},
    )


def _director_required():
    if request.path.startswith(API_PREFIX):
        raise ApiError(Problem.DIRECTOR_REQUIRED, "this needs a director's session")
    target = request.full_path.rstrip("?") if request.method == "GET" else "/director/"
    # The login page in the language this page was in, when one was chosen with the switch.
    login = url_for("auth.login_form", **kept_language())
    return redirect(login + ("&" if "?" in login else "?") + "next=" + quote(target), 303)


def check_request():
    """The app's before-request hook: set `g.caller`, then enforce the endpoint's marker."""
    endpoint = request.endpoint
    g.caller = ANONYMOUS
    if endpoint is None:
        return None  # no route: the 404/405 handlers answer
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    access = access_of(app, endpoint) or LEXICON_DEPENDENT  # a static file's is public
    if request.method == "OPTIONS":
        return None  # a CORS preflight never carries credentials; it says only which methods
    if access == PUBLIC:
        return None  # no store lookup: health checks and pages stay free of the database
    config = current_settings()
    view = app.view_functions[endpoint]
    found, charge = ANONYMOUS, None
    if _has_credential():  # most rulings carry none: no store lookup, nothing owed
        at = store_time.now()
        counts = config.tournament and not getattr(view, NOT_A_RULING, False)
        cached = _cache_key(view) if counts and access != DIRECTORS_ONLY else None
        found = credcache.get(cached) if cached is not None else None
        if found is None:
            with store.reading() as conn:  # a read: a junk credential never takes the write turn
                found = _resolve(conn, access, at)
            if cached is not None and found.kind in bookkeeping.COUNTED_KINDS:
                credcache.put(cached, found)
        g.caller = found
        limit = config.rate_rulings_per_minute if counts else None
        charge = bookkeeping.owed(found, limit, at, cached)
    if access == DIRECTORS_ONLY:
        return _check_form_csrf() if found.kind == "director" else _director_required()
    if found.anonymous:
        if config.tournament:
            raise _refuse_anonymous()
        return None
    ruleset_id = (request.view_args or {}).get("ruleset_id")
    if ruleset_id is not None and not found.may_use(ruleset_id):
        bookkeeping.check_in_force(charge)  # a revoked credential is not told its scope
        raise ApiError(
            Problem.OUT_OF_SCOPE,
            f"this {found.kind} credential is not for ruleset {ruleset_id!r}",
        )
    if getattr(view, RULES, False) or getattr(view, COUNTED_WHEN_ANSWERED, False):
        bookkeeping.defer(charge)  # settled in the ruling's own transaction, or once answered
    else:
        _settle_now(charge)
    return None


def _settle_now(charge: bookkeeping.Pending | None) -> None:
    """A request's bookkeeping in a short write of its own (the rate count, a last use): not
    worth an fsync per request, so not durable."""
    if charge is not None:
        with store.connection(write=True, durable=False) as conn:
            bookkeeping.settle(conn, charge)


def settle_deferred() -> None:
    """Settle the bookkeeping the guard left to a `counted_when_answered` view, as it answers
    (past the rate limit this refuses the request after all: 429)."""
    _settle_now(bookkeeping.pending())


def identify() -> Caller:
    """Resolve the credential for a public endpoint that reports it (`/auth/whoami`)."""
    if _has_credential():
        at = store_time.now()
        with store.connection() as conn:
            g.caller = _resolve(conn, PUBLIC, at)
        _settle_now(bookkeeping.owed(g.caller, None, at))  # a use, not a ruling: not counted
    return current_caller()


def _check_form_csrf():
    """A director's state-changing form must carry the session's CSRF token."""
    if request.method in SAFE_METHODS or request.path.startswith(API_PREFIX):
        return None
    if not directors.csrf_matches(g.session_token, request.form.get("csrf")):
        raise ApiError(Problem.CSRF_FAILED, "the form is stale or was not sent by this site")
    return None
