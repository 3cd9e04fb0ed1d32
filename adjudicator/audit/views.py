"""The audit log for directors: a page listing and searching rulings, the same as JSON, and
the page's download of what its filter finds as a spreadsheet (`sheet`).

Directors only (`directors_only`, enforced by the auth layer's one check): players and devices
never see other tables' rulings. The page speaks the director's language as the other director
pages do; `lang` is the page's own parameter, never a search filter, and the JSON has none.
"""

from __future__ import annotations

import io
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, url_for

from adjudicator import store
from adjudicator.audit import opinion as opinion_of
from adjudicator.audit import sheet
from adjudicator.audit.chain import current_head
from adjudicator.audit.reading import consequence_text, shown_table
from adjudicator.audit.record import KINDS
from adjudicator.audit.search import PARAMETERS, QUERY_MAX, SCHEMAS, every, read_query, search
from adjudicator.auth.views import director_page
from adjudicator.catalogue import rulesets
from adjudicator.disclosure import VERDICTS
from adjudicator.pages.headers import form_page_headers as security_headers
from adjudicator.pages.page_language import kept_language, request_language
from adjudicator.pages.render import error_page
from adjudicator.pages.strings import fill, strings
from adjudicator.pages.times import shown_time, zone_name
from adjudicator.problems import Problem
from adjudicator.settings import current_settings
from adjudicator.web import API_PREFIX, contract
from adjudicator.web.access import directors_only
from adjudicator.web.errors import ApiError, error_pages
from adjudicator.web.requests import query_args

bp = Blueprint("audit", __name__, template_folder="templates")
bp.after_request(security_headers)


def _found(args: dict[str, str]) -> tuple[list[dict[str, Any]], int | None, dict[str, Any]]:
    """A page of the entries `args` ask for, the next page's `before`, and the chain's head."""
    with store.connection() as conn:
        items, next_before = search(conn, read_query(args))
        return items, next_before, asdict(current_head(conn))


def shown(item: dict[str, Any], lang: str, opened: str | None = None) -> dict[str, Any]:
    """An entry as the page shows it: its time on the event's clock in the page's locale, the
    table (a paired tablet's name where the request named none), and what it costs in words
    (`reading`, as the export says it)."""
    t = strings(lang)
    in_force = item["lexicon"].get("in_force_from")
    # A disputed ruling: what the ruleset's other editions say (the director's page only).
    opinion = None
    if not item["malformed"] and opinion_of.disputed(item, opened):
        opinion = opinion_of.second_opinion(item, rulesets().get(item["ruleset"]))
    return item | {
        "opinion": opinion,
        # the edition's date, where the entry records its edition (written after migration 0013)
        "edition_date": fill(t["edition_in_force_from"], date=in_force)
        if in_force
        else t["dir_edition_always"],
        "local_time": shown_time(item["created_at"], lang),
        "shown_table": shown_table(item),
        "consequence_text": consequence_text(item["consequence"], lang, t),
    }


@bp.get(f"{API_PREFIX}/audit/rulings")
@directors_only
@contract.operation(
    "auditRulings",
    "audit",
    "AuditPage",
    query=tuple(contract.Query(name, schema) for name, schema in SCHEMAS.items()),
    problems=(
        *contract.QUERY,
        Problem.NOT_A_NUMBER,
        Problem.OUT_OF_RANGE,
        Problem.TOO_LONG,
        Problem.LABEL_LENGTH,  # a searched label as a ruling's is refused (`search._key`)
        Problem.LABEL_DISALLOWED_CHARACTER,
        Problem.DIRECTOR_REQUIRED,
        Problem.BAD_AUTHORIZATION,
        Problem.CREDENTIAL_INVALID,
        Problem.STORE_UNAVAILABLE,
    ),
)
def rulings_json():
    items, next_before, head = _found(query_args(PARAMETERS))
    return jsonify(rulings=items, next_before=next_before, head=head)


@bp.get("/director/rulings")
@directors_only
def rulings_page() -> Response:
    # The form sends every field, an unset one empty ("any"): an empty field is no filter.
    args = {k: v for k, v in query_args((*PARAMETERS, "lang", "open")).items() if k != "lang" and v}
    opened = args.pop("open", None)  # a ruling the director opens for a second opinion
    items, next_before, head = _found(args)
    kept = {k: v for k, v in args.items() if k != "before"}  # the filter, on every page
    older = None
    if next_before is not None:
        older = url_for("audit.rulings_page", **kept, before=next_before, **kept_language())
    lang = request_language()
    downloads = {
        fmt: url_for("audit.rulings_export", **kept, format=fmt, **kept_language())
        for fmt in sheet.FORMATS
    }
    return director_page(
        "director_rulings.html",
        200,
        "audit.rulings_page",
        limits={"query": QUERY_MAX},
        switch_args=args,
        items=[
            shown(r, lang, opened)
            | {
                "open_url": url_for(  # this page, with the ruling opened for a second opinion
                    "audit.rulings_page",
                    **args,
                    **kept_language(),
                    open=r["ruling_id"],
                    _anchor=f"opinion-{r['seq']}",
                )
            }
            for r in items
        ],
        zone=zone_name(),
        downloads=downloads,
        head=head,
        args=args,
        older=older,
        rulesets=sorted(rulesets()),
        kinds=KINDS,
        verdicts=VERDICTS,
    )


@bp.get("/director/rulings/export")
@directors_only
def rulings_export() -> Response:
    """What the rulings page's filter shows, on every page, as a spreadsheet file (`format`:
    csv or xlsx) in the page's language and locale, times on the event's clock (`sheet`). A
    download (GET, nothing changes): the director's session is all it needs, as the page."""
    args = {k: v for k, v in query_args((*PARAMETERS, "lang", "format")).items() if v}
    fmt = args.pop("format", "csv")
    if fmt not in sheet.FORMATS:
        raise ApiError(
            Problem.OUT_OF_RANGE, f"'format' must be {' or '.join(sheet.FORMATS)}", "format"
        )
    args.pop("before", None)  # every page of the filter (`lang` is the page's, no filter)
    query = read_query(args)
    lang = request_language()
    zone = current_settings().zone
    with store.connection() as conn:
        found = every(conn, query)
        if fmt == "csv":
            text = io.StringIO(newline="")
            sheet.write_csv(found, text, lang, zone)
            data = text.getvalue().encode("utf-8")
        else:
            binary = io.BytesIO()
            sheet.write_xlsx(found, binary, lang, zone)
            data = binary.getvalue()
    day = datetime.now(UTC).astimezone(zone).strftime("%Y-%m-%d")
    response = current_app.response_class(data, mimetype=sheet.MEDIA_TYPES[fmt])
    response.headers["Content-Disposition"] = f'attachment; filename="rulings-{day}.{fmt}"'
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    error_pages(app, [bp.name], error_page)
