"""The directors' pages (login, logout, devices, pairing, checking a game) and the tablet's
pairing page.

Plain HTML forms, no script needed: each state-changing form of a director carries the
session's CSRF token; the two forms used before there is a session (login, pairing) must come
from this site's own pages (`Origin`). Cookies are HttpOnly, SameSite=Strict, and Secure over TLS.

In the judge pages' four languages, chosen as they choose (`request_language`: `?lang=`, else
Accept-Language, else English), from the same strings (`adjudicator/i18n/`).
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import segno
from flask import (
    Blueprint,
    Flask,
    Response,
    g,
    jsonify,
    redirect,
    request,
    url_for,
)

from adjudicator import store
from adjudicator.auth import devices, directors, keys, lockout, passwords, store_time
from adjudicator.auth.caller import current_caller
from adjudicator.auth.guard import DEVICE_COOKIE, SESSION_COOKIE, identify
from adjudicator.auth.lockout import PIN_SCOPE
from adjudicator.auth.tokens import CODE_MAX, show_code
from adjudicator.catalogue import rulesets
from adjudicator.messages import Said, said_in
from adjudicator.pages.headers import form_page_headers
from adjudicator.pages.page_language import kept_language, request_language
from adjudicator.pages.render import error_page, page
from adjudicator.pages.strings import fill_markup, say, wait_text
from adjudicator.pages.times import shown_time, zone_name
from adjudicator.problems import Problem
from adjudicator.settings import current_settings
from adjudicator.store import labelforms
from adjudicator.store.credentials import NAME_MAX
from adjudicator.store.models import LABEL_MAX
from adjudicator.web import API_PREFIX
from adjudicator.web.access import directors_only, public
from adjudicator.web.answers import Caller
from adjudicator.web.contract import operation
from adjudicator.web.errors import error_pages
from adjudicator.web.netaddrs import client_id, configured_venue_bind, tablet_bases

bp = Blueprint(
    "auth",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/auth/static",
)

PAIRING_SCOPE = "pairing"
PAIRING_CODE_SECONDS = 5 * 60  # a pairing code, typed on the tablet within minutes
# What a form's fields take, as the views check it: the pages' maxlength and minlength say the
# same numbers (a field's limit in a template is never a number of its own).
FORM_LIMITS = {
    "name": NAME_MAX,  # a director's, a key's or a tablet's name
    "password_min": passwords.MIN_LENGTH,
    "password": passwords.MAX_LENGTH,
    "code": CODE_MAX,
    "label": LABEL_MAX,  # an event's name, as the rulings page filters by it
}
bp.add_app_template_filter(fill_markup, "fill")
# A sentence of the game rules (`Said`) in the page's language; `is said`: whether it is one
# (an English sentence not yet of the catalogue is marked `lang="en"`).
bp.add_app_template_filter(lambda text, lang: said_in(lang, text), "said")
bp.add_app_template_test(lambda text: isinstance(text, Said), "said")

# Every answer here, the JSON the screen polls and whoami's too, with them: never cached.
bp.after_request(form_page_headers)


def cookie_options() -> dict[str, Any]:
    """Every cookie of these pages: the whole site's, HttpOnly, SameSite=Strict and Secure over
    https (or X-Forwarded-Proto from a trusted proxy); set and deleted alike."""
    return {"path": "/", "secure": request.is_secure, "httponly": True, "samesite": "Strict"}


def set_cookie(response: Response, name: str, value: str, max_age: int) -> None:
    response.set_cookie(name, value, max_age=max_age, **cookie_options())


def waiting(seconds: int) -> str:
    """A lockout's wait in the visitor's language: minutes from a minute on."""
    return wait_text(request_language(), seconds)


def when(at: datetime | None) -> str:
    """A stored time as these pages show it: the one formatter (`pages.times`), in the page's
    locale, on the event's clock."""
    return shown_time(at, request_language())


# --- the forms used before there is a session (login, pairing) -------------------------------


def same_origin() -> bool:
    """Whether a form POST came from this site. Browsers say so in `Sec-Fetch-Site`, or older
    ones in `Origin` (which a no-referrer policy turns into "null", hence `Sec-Fetch-Site`
    first); a request with neither comes from no browser, so from no victim's. This guards the
    login and pairing forms, which have no session to hold a CSRF token yet, without a random
    token on the page, so the pages stay the same for every visitor."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.headers.get("Origin")
    if origin is not None:
        return origin != "null" and urlsplit(origin).netloc == request.host
    return True


# --- directors: login and logout --------------------------------------------------------------


# Where a login may send the browser on: a path on this site, in visible ASCII only (a path
# from `_director_required` is percent-encoded). Browsers drop tabs and newlines from a URL and
# read a backslash as a slash, so "/\t/evil.example" or "/\\evil.example" would leave the site.
LOCAL_PATH = re.compile(r"/(?![/\\])[!-\[\]-~]*")


def _next_target() -> str:
    target = request.values.get("next") or ""
    if not LOCAL_PATH.fullmatch(target):  # only a path on this site: never an open redirect
        return url_for("auth.home")
    return target


def _with_language(target: str) -> str:
    """A checked local `target` with this request's `?lang=` added to its query (unless it
    names a language itself), so a login keeps the language chosen on the login page."""
    keep = kept_language()
    parts = urlsplit(target)
    if not keep or "lang" in parse_qs(parts.query, keep_blank_values=True):
        return target
    query = "&".join(q for q in (parts.query, urlencode(keep)) if q)
    return urlunsplit(parts._replace(query=query))


def _refused(response: Response, wait: int) -> Response:
    """A form's refusal, saying how long a locked-out client must wait (`Retry-After`)."""
    if wait:
        response.headers["Retry-After"] = str(wait)
    return response


def _login_page(status: int = 200, **context: Any) -> Response:
    """The login form; its language switch keeps a `next` the visitor was sent with."""
    target = _next_target()
    switch_args = {"next": target} if request.values.get("next") else {}
    return page(
        "director_login.html",
        status,
        switch="auth.login_form",
        switch_args=switch_args,
        next=target,
        limits=FORM_LIMITS,
        **context,
    )


@bp.get("/director/login")
@public
def login_form():
    return _login_page(error=None)


@bp.post("/director/login")
@public
def login():
    def again(error: str, status: int, wait: int = 0) -> Response:
        return _refused(_login_page(status, error=error, name=name), wait)

    name = (request.form.get("name") or "").strip()
    password = request.form.get("password") or ""
    if not same_origin():
        return again(say("dir_login_wrong_site"), 403)
    if not name or not password:
        return again(say("dir_login_missing"), 400)
    config = current_settings()
    result = directors.login(
        store.current_store(),
        name,
        password,
        client_id(),
        lockout.LOGIN,
        config.session_seconds,
        store_time.now(),
    )
    if result.wait:
        return again(say("dir_login_locked", wait=waiting(result.wait)), 429, result.wait)
    if result.session_token is None:
        return again(say("dir_login_wrong"), 401)
    previous = request.cookies.get(SESSION_COOKIE)
    if previous:  # this browser's earlier session (perhaps another director's) ends here
        with store.connection(write=True) as conn:
            directors.end_session(conn, previous)
    response = redirect(_with_language(_next_target()), 303)
    set_cookie(response, SESSION_COOKIE, result.session_token, config.session_seconds)
    return response


@bp.post("/director/logout")
@directors_only
def logout():
    with store.connection(write=True) as conn:
        directors.end_session(conn, g.session_token)
    response = redirect(url_for("auth.login_form", **kept_language()), 303)
    response.delete_cookie(SESSION_COOKIE, **cookie_options())
    return response


# --- directors: the devices screen and pairing ------------------------------------------------


def ruleset_choices() -> list[dict]:
    return [
        {"id": r.id, "name": r.name, "card": r.card.two_letter}  # card: judge/card.py
        for _, r in sorted(rulesets().items())
    ]


# The ruleset field's value for a tablet that may judge under any ruleset: chosen, never
# assumed, so a form sent without a choice (the empty "choose…") is refused.
ANY_RULESET = "*"


def devices_state(listed: list[dict]) -> str:
    """A short digest of the list as the screen shows it (which tablets, in which state): the
    screen polls it and reloads its list when it changes, so a tablet just paired shows up.
    Last use is left out: it changes with every ruling and would reload the list all day."""
    shown = repr([(d["id"], d["state"], d["name"], d["ruleset"]) for d in listed])
    return hashlib.sha256(shown.encode()).hexdigest()[:16]


def _revoked_name(listed: list[dict]) -> str | None:
    """The tablet a revoke just ended (`?revoked=<id>`, where the revoke leads): the screen
    confirms it by name. None for any other value, or a device not revoked."""
    asked = request.args.get("revoked", "")
    ended = (d["name"] for d in listed if asked == str(d["id"]) and d["state"] == "revoked")
    return next(ended, None)


def director_page(
    template: str, status: int, switch: str, limits: dict[str, int] | None = None, **context: Any
) -> Response:
    """A page of a logged-in director's: who they are, the session's CSRF token that every
    form of theirs carries, its fields' limits (`FORM_LIMITS`, with the page's own) and the
    one way its times are shown (`when`)."""
    director = {"director": current_caller(), "csrf": directors.csrf_token(g.session_token)}
    limits = FORM_LIMITS | (limits or {})
    return page(template, status, switch=switch, limits=limits, when=when, **director, **context)


def _home(status: int = 200, **extra: Any) -> Response:
    with store.connection() as conn:
        listed = devices.listed(conn, store_time.now())
        key_rows = keys.listed(conn)
    context = {
        "revoked": _revoked_name(listed),
        "zone": zone_name(),
        "devices": listed,
        "devices_state": devices_state(listed),
        "any_ruleset": ANY_RULESET,
        "keys": key_rows,
        "rulesets": ruleset_choices(),
        "mode": current_settings().mode,
        "pairing": None,
        "error": None,
    }
    return director_page("director_home.html", status, "auth.home", **context | extra)


@bp.get("/director/")
@directors_only
def home():
    return _home()


@bp.post("/director/pairings")
@directors_only
def new_pairing():
    chosen = request.form.get("ruleset") or ""
    try:  # the table it stands at, shown as the table on the rulings page: a label's profile
        name = labelforms.shown("device", request.form.get("name") or "")
    except labelforms.Refused as refused:
        if refused.char is None:
            return _home(400, error=say("dir_home_name_tablet"))
        return _home(
            400, error=say("dir_home_name_character", char=labelforms.describe(refused.char))
        )
    if len(name) > NAME_MAX:
        return _home(400, error=say("dir_home_name_tablet"))
    if not chosen:
        return _home(400, error=say("dir_home_choose_ruleset"))
    ruleset = None if chosen == ANY_RULESET else chosen
    if ruleset is not None and ruleset not in rulesets():
        return _home(400, error=say("dir_home_unknown_ruleset", ruleset=repr(ruleset)))
    with store.connection(write=True) as conn:
        pairing = devices.new_pairing(
            conn, int(current_caller().id), name, ruleset, PAIRING_CODE_SECONDS, store_time.now()
        )
    # Where the tablet is sent: as `/` sends it to a kiosk, never to the laptop's loopback.
    bases, loopback = tablet_bases()
    pair_url = bases[0] + "judge/pair"
    qr = segno.make(pair_url + "#code=" + pairing.code, error="m")
    shown = {
        "code": show_code(pairing.code),
        "name": name,
        "ruleset": ruleset,
        "expires": when(pairing.expires_at),
        "minutes": PAIRING_CODE_SECONDS // 60,
        "url": pair_url,
        "qr": qr.svg_data_uri(scale=6, border=2),
        "loopback": loopback,
        "venue_bind": configured_venue_bind(),
        "poll": url_for("auth.pairing_state_json", pairing_id=pairing.id),
    }
    return _home(pairing=shown)


@bp.get("/director/pairings/<int:pairing_id>/state")
@directors_only
def pairing_state_json(pairing_id: int):
    """Where the pairing code on the director's screen stands (`devices.pairing_state`),
    polled by the screen: once a tablet has paired, its code and QR code leave the screen."""
    with store.connection() as conn:
        state = devices.pairing_state(conn, pairing_id, store_time.now())
    return jsonify(state=state)


@bp.get("/director/devices/state")
@directors_only
def devices_state_json():
    """The devices list's digest (`devices_state`), polled by the director's screen."""
    with store.connection() as conn:
        listed = devices.listed(conn, store_time.now())
    return jsonify(state=devices_state(listed))


@bp.post("/director/devices/<int:device_id>/revoke")
@directors_only
def revoke_device(device_id: int):
    with store.connection(write=True) as conn:
        done = devices.revoke(conn, device_id, store_time.now())
    if not done:
        return _home(404, error=say("dir_home_no_device", id=device_id))
    return redirect(url_for("auth.home", revoked=device_id, **kept_language()), 303)


@bp.post("/director/pin-lockouts/clear")
@directors_only
def clear_pin_lockouts():
    """Five wrong taps lock a kiosk's PIN for the window: the director, at the screen, need not
    wait it out (the per-device counts start afresh; the counting itself is unchanged)."""
    with store.connection(write=True) as conn:
        lockout.clear(conn, PIN_SCOPE)
    return redirect(url_for("auth.home", cleared="pin", **kept_language()), 303)


# --- the tablet: redeeming a pairing code -------------------------------------------------------


def _pair_page(status: int = 200, error: str | None = None) -> Response:
    return page("judge_pair.html", status, switch="auth.pair_form", error=error, limits=FORM_LIMITS)


@bp.get("/judge/pair")
@public
def pair_form():
    return _pair_page()


@bp.post("/judge/pair")
@public
def pair():
    def again(error: str, status: int, wait: int = 0) -> Response:
        return _refused(_pair_page(status, error), wait)

    if not same_origin():
        return again(say("dir_pair_wrong_site"), 403)
    code = request.form.get("code") or ""
    if not code.strip() or len(code) > CODE_MAX:
        return again(say("dir_pair_missing"), 400)
    config = current_settings()
    client = client_id()
    at = store_time.now()
    with store.connection(write=True) as conn:
        # Counted first, in turn (lockout.attempt), per address under its /64; a right code
        # forgets this address's wrong ones, as a right password does.
        account = lockout.shared_account(client)
        wait = lockout.attempt(conn, PAIRING_SCOPE, account, client, lockout.PAIRING, at)
        paired = None if wait else devices.redeem(conn, code, config.device_seconds, at)
        if paired is not None:
            lockout.clear(conn, PAIRING_SCOPE, account, client)
    if wait:
        return again(say("dir_pair_locked", wait=waiting(wait)), 429, wait)
    if paired is None:
        return again(say("dir_pair_wrong"), 403)
    target = (
        url_for("judge.kiosk", ruleset_id=paired.ruleset)  # in the ruleset's language
        if paired.ruleset
        else url_for("judge.index", **kept_language())
    )
    response = redirect(target, 303)
    set_cookie(response, DEVICE_COOKIE, paired.token, config.device_seconds)
    return response


# --- the API: who am I ------------------------------------------------------------------------


@bp.get(f"{API_PREFIX}/auth/whoami")
@public
@operation(
    "whoami",
    "access",
    "Caller",
    credentials=True,  # public, but it reads the credential that comes
    problems=(Problem.CREDENTIAL_INVALID, Problem.BAD_AUTHORIZATION, Problem.STORE_UNAVAILABLE),
)
def whoami():
    """What the request's credential is, so a tablet can tell whether it is still paired."""
    body: Caller = identify().to_dict()
    body["mode"] = current_settings().mode
    return jsonify(body)


# --- errors on these pages, for a person's browser (adjudicator.web.errors.error_pages) ------------


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    error_pages(app, [bp.name], error_page, paths=["/director/"])
