"""The director's accounts page (`/director/accounts`): app keys made and revoked, and
directors added, from a director's browser rather than a terminal on the server.

The same store functions as the CLI (`adjudicator keys create|revoke`, `adjudicator directors
add`), so the same rows record each change (a key's `created_at` and `revoked_at`, a director's
`created_at`), and each is logged with the director who made it, never with a key or a password.
Every form carries the session's CSRF token (the guard checks it for every director's POST:
`guard._check_form_csrf`, `directors.csrf_token`). A new key is shown once, on the answer to
the form that made it (`Cache-Control: no-store`); only its hash is kept.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, redirect, request, url_for

from adjudicator import store
from adjudicator.auth import directors, keys, passwords, store_time
from adjudicator.auth.caller import current_caller
from adjudicator.auth.views import bp, director_page, ruleset_choices
from adjudicator.catalogue import rulesets
from adjudicator.pages.page_language import kept_language
from adjudicator.pages.strings import say
from adjudicator.store.credentials import NAME_MAX
from adjudicator.web.access import directors_only

DONE = ("key_revoked", "director_added")  # what a redirect back says was done (`?done=`)


def _accounts(status: int = 200, **extra: Any) -> Response:
    with store.connection() as conn:
        key_rows = keys.listed(conn)
        director_rows = directors.listed(conn, store_time.now())
    done = request.args.get("done")
    context = {
        "keys": key_rows,
        "directors": director_rows,
        "rulesets": ruleset_choices(),
        "done": done if done in DONE else None,
        "done_name": request.args.get("name", "")[:NAME_MAX],
        "new_key": None,
        "error": None,
        "form": {},
    }
    return director_page("director_accounts.html", status, "auth.accounts", **context | extra)


def _log(action: str, **fields: Any) -> None:
    """The change, in the service's log, with the director who made it."""
    shown = ", ".join(f"{name}={value!r}" for name, value in fields.items())
    current_app.logger.info("director %r %s (%s)", current_caller().name, action, shown)


def _back(done: str, name: str) -> Response:
    return redirect(url_for("auth.accounts", done=done, name=name, **kept_language()), 303)


@bp.get("/director/accounts")
@directors_only
def accounts():
    return _accounts()


@bp.post("/director/keys")
@directors_only
def create_key():
    name = (request.form.get("name") or "").strip()
    scopes = request.form.getlist("scope")
    form = {"name": name, "scopes": scopes}
    if not directors.is_name(name):
        return _accounts(400, error=say("dir_acc_bad_name", max=NAME_MAX), form=form)
    unknown = sorted(set(scopes) - set(rulesets()))
    if unknown:
        return _accounts(400, error=say("dir_home_unknown_ruleset", ruleset=repr(unknown[0])))
    with store.connection(write=True) as conn:
        try:
            made = keys.create(conn, name, keys.ROLES[0], scopes, set(rulesets()), store_time.now())
        except directors.AccountError:  # the name is taken (the checks above passed)
            return _accounts(409, error=say("dir_acc_key_exists", name=name), form=form)
    _log("created app key", name=made.name, id=made.id, rulesets=" ".join(sorted(scopes)) or "all")
    return _accounts(new_key={"name": made.name, "key": made.key})


@bp.post("/director/keys/<int:key_id>/revoke")
@directors_only
def revoke_key(key_id: int):
    with store.connection(write=True) as conn:
        name = keys.revoke_id(conn, key_id, store_time.now())
    if name is None:
        return _accounts(404, error=say("dir_acc_no_key", id=key_id))
    _log("revoked app key", name=name, id=key_id)
    return _back("key_revoked", name)


@bp.post("/director/directors")
@directors_only
def add_director():
    name = (request.form.get("name") or "").strip()
    password = request.form.get("password") or ""
    form = {"director_name": name}
    refused = None
    if not directors.is_name(name):
        refused = say("dir_acc_bad_name", max=NAME_MAX)
    elif password != (request.form.get("password_again") or ""):
        refused = say("dir_acc_passwords_differ")
    elif len(password) < passwords.MIN_LENGTH:
        refused = say("dir_acc_password_short", n=passwords.MIN_LENGTH)
    elif len(password) > passwords.MAX_LENGTH:
        refused = say("dir_acc_password_long", n=passwords.MAX_LENGTH)
    if refused:
        return _accounts(400, error=refused, form=form)
    with store.connection(write=True) as conn:
        try:
            directors.add(conn, name, password, store_time.now())
        except directors.AccountError:  # the name is taken (the checks above passed)
            return _accounts(409, error=say("dir_acc_director_exists", name=name), form=form)
    _log("added director", name=name)
    return _back("director_added", name)
