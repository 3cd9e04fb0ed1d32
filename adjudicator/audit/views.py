"""The audit log for directors: a page listing and searching rulings, and the same as JSON.

Directors only (`directors_only`, enforced by the auth layer's one check): players and devices
never see other tables' rulings. The page speaks the director's language as the other director
pages do; `lang` is the page's own parameter, never a search filter, and the JSON has none.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, jsonify, url_for

from adjudicator import store
from adjudicator.api import API_PREFIX
from adjudicator.audit.chain import HEAD
from adjudicator.audit.search import PARAMETERS, Query, read_query, search
from adjudicator.auth.guard import caller, directors_only
from adjudicator.auth.views import error_page, page, security_headers
from adjudicator.catalogue import rulesets
from adjudicator.errors import error_pages
from adjudicator.languages import kept_language
from adjudicator.requests import query_args

bp = Blueprint("audit", __name__, template_folder="templates")
bp.after_request(security_headers)


def _found(args: dict[str, str]) -> tuple[Query, list[dict[str, Any]], int | None, dict[str, Any]]:
    query = read_query(args)
    with store.connection() as conn:
        items, next_before = search(conn, query)
        head = conn.execute(HEAD.select().where(HEAD.c.id == 1)).one()
    return query, items, next_before, {"seq": head.seq, "hash": head.hash}


@bp.get(f"{API_PREFIX}/audit/rulings")
@directors_only
def rulings_json():
    _, items, next_before, head = _found(query_args(PARAMETERS))
    return jsonify(rulings=items, next_before=next_before, head=head)


@bp.get("/director/rulings")
@directors_only
def rulings_page() -> Response:
    # The form sends every field, an unset one empty ("any"): an empty field is no filter.
    args = {k: v for k, v in query_args((*PARAMETERS, "lang")).items() if k != "lang" and v}
    _, items, next_before, head = _found(args)
    older = None
    if next_before is not None:
        kept = {k: v for k, v in args.items() if k != "before"}
        older = url_for("audit.rulings_page", **kept, before=next_before, **kept_language())
    return page(
        "director_rulings.html",
        switch="audit.rulings_page",
        switch_args=args,
        director=caller(),
        items=items,
        head=head,
        args=args,
        older=older,
        rulesets=sorted(rulesets()),
    )


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    error_pages(app, [bp.name], API_PREFIX, error_page)
