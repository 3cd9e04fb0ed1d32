"""The audit log for directors: a page listing and searching rulings, and the same as JSON.

Directors only (`directors_only`, enforced by the auth layer's one check): players and devices
never see other tables' rulings. The page speaks the director's language as the other director
pages do; `lang` is the page's own parameter, never a search filter, and the JSON has none.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from flask import Blueprint, Flask, Response, current_app, jsonify, url_for

from adjudicator import store
from adjudicator.audit.chain import HEAD
from adjudicator.audit.search import PARAMETERS, Query, read_query, search
from adjudicator.auth.guard import caller
from adjudicator.catalogue import rulesets
from adjudicator.pages.headers import form_page_headers as security_headers
from adjudicator.pages.page_language import kept_language, request_language
from adjudicator.pages.render import error_page, page
from adjudicator.pages.strings import fill, strings
from adjudicator.web import API_PREFIX
from adjudicator.web.access import directors_only
from adjudicator.web.errors import error_pages
from adjudicator.web.requests import query_args

bp = Blueprint("audit", __name__, template_folder="templates")
bp.after_request(security_headers)


def _found(args: dict[str, str]) -> tuple[Query, list[dict[str, Any]], int | None, dict[str, Any]]:
    query = read_query(args)
    with store.connection() as conn:
        items, next_before = search(conn, query)
        head = conn.execute(HEAD.select().where(HEAD.c.id == 1)).one()
    return query, items, next_before, {"seq": head.seq, "hash": head.hash}


def event_zone(app: Flask) -> tzinfo | None:
    """ADJUDICATOR_TIME_ZONE, an IANA name (`Europe/Copenhagen`), checked once at start-up: the
    zone the page shows times in, where the event is. Unset or empty: the machine's own zone
    (None: `astimezone()` follows its daylight-saving rules). The name was checked when the
    app was configured (adjudicator.settings.time_zone)."""
    name = app.config["TIME_ZONE"]
    return ZoneInfo(name) if name else None


def local_time(created_at: str) -> str:
    """A stored UTC time (`YYYY-MM-DDTHH:MM:SS.ffffffZ`) as the event's clock shows it, to the
    second; a malformed one (a row written around the service) as stored."""
    try:
        when = datetime.fromisoformat(created_at.removesuffix("Z")).replace(tzinfo=UTC)
    except ValueError:
        return created_at
    return when.astimezone(current_app.extensions["time_zone"]).strftime("%Y-%m-%d %H:%M:%S")


def zone_name() -> str:
    """The zone the page's times are in, for its heading: the configured IANA name, or the
    machine's own zone's abbreviation (`CET`) when none is set."""
    zone = current_app.extensions["time_zone"]
    return str(zone) if zone is not None else datetime.now().astimezone().tzname() or "UTC"


def consequence_text(consequence: dict[str, Any], lang: str) -> str:
    """A challenge ruling's consequence in the page's language: the ruleset's own words when it
    has them in that language, else the catalogue's for its kind and points. Never another
    language's: a ruleset gives its own language and English only."""
    text = consequence.get("text") or {}
    if lang in text:
        return text[lang]
    key = f"consequence_{consequence.get('kind')}"
    catalogue = strings(lang)
    if key not in catalogue:  # a kind this version does not know (a newer writer's)
        return catalogue["consequence_unknown"]
    return fill(catalogue[key], points=consequence.get("points", 0))


def shown(item: dict[str, Any]) -> dict[str, Any]:
    """An entry as the page shows it: its time in the event's zone, and a paired tablet's name
    as the table where the request named none (the tablet stands at one table)."""
    table = item["table"]
    if table is None and item["caller"]["kind"] == "device":
        table = item["caller"]["name"]
    consequence = item["consequence"]
    said = None
    if consequence and "kind" in consequence:  # a challenge's or jury's, not a move's
        said = consequence_text(consequence, request_language())
    return item | {
        "local_time": local_time(item["created_at"]),
        "shown_table": table,
        "consequence_said": said,
    }


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
        items=[shown(r) for r in items],
        zone=zone_name(),
        head=head,
        args=args,
        older=older,
        rulesets=sorted(rulesets()),
    )


def init_app(app: Flask) -> None:
    app.extensions["time_zone"] = event_zone(app)
    app.register_blueprint(bp)
    error_pages(app, [bp.name], API_PREFIX, error_page)
