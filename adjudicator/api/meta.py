"""Liveness, readiness and the OpenAPI document."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from flask import Blueprint, current_app, jsonify, request

from adjudicator.audit import health
from adjudicator.catalogue import (
    edition_in_force,
    house_refusal,
    required_rulesets,
    rulesets,
    unavailable_reason,
)
from adjudicator.lexicon_registry import registry
from adjudicator.rundir import abnormal_exits
from adjudicator.settings import current_settings
from adjudicator.store import current_store
from adjudicator.web import API_PREFIX
from adjudicator.web.access import public_blueprint
from adjudicator.web.answers import Readiness
from adjudicator.web.caching import cacheable
from adjudicator.web.contract import Answer, operation
from lexicon import __version__

# `readyz` is 503 after this many abnormal worker exits within the window: a worker dying again
# and again, not one killed by chance.
CRASH_LIMIT = 3
CRASH_WINDOW_SECONDS = 60.0

# Health, readiness and the OpenAPI document: public in every mode.
bp = public_blueprint(Blueprint("meta", __name__, url_prefix=API_PREFIX))


@cache
def openapi_document() -> dict:
    """The document as shipped, with `info.version` from the package's one version."""
    doc = json.loads((resources.files("adjudicator") / "openapi.json").read_text("utf-8"))
    doc["info"]["version"] = __version__
    return doc


@bp.get("/healthz")
@operation("healthz", "service", "Health")
def healthz():
    return jsonify(status="ok")


@bp.get("/readyz")
@operation("readyz", "service", "Readiness", also={503: Answer("Readiness")})
def readyz():
    """Ready when every ruleset the deployment must serve can serve (or a partial service is
    allowed and at least one can), the store answers (a ruling that cannot be recorded is not
    given) and the workers are not dying over and over."""
    reg = registry()
    known = rulesets()
    view = {}
    for ruleset_id in required_rulesets():
        ruleset = known.get(ruleset_id)
        if ruleset is None:
            reason = house_refusal(ruleset_id) or "no such ruleset"
            view[ruleset_id] = {"available": False, "reason": reason}
            continue
        lexicon = edition_in_force(ruleset)  # the edition in force on the event's date
        reason = unavailable_reason(ruleset, lexicon)
        view[ruleset_id] = {
            "available": reason is None,
            "lexicon": lexicon.id if lexicon else ruleset.lexicon,
            **({"reason": reason} if reason else {"sha256": lexicon.identity()["sha256"]}),
        }
    unavailable = sorted(r for r, v in view.items() if not v["available"])
    partial = current_settings().allow_partial
    crashes = abnormal_exits(current_settings().run_dir, CRASH_WINDOW_SECONDS)
    store = current_store()
    store_problem = store.unreachable()
    refused = None
    if store_problem is not None:  # the reason may name hosts and paths: the log only
        current_app.logger.warning("readyz: the store cannot be used: %s", store_problem)
    else:  # reachable, but it may still refuse every ruling (a damaged log, a full disk)
        refused = health.writable(current_app, store)
        if refused is not None:
            current_app.logger.warning(
                "readyz: the store refuses rulings (%s): %s", refused.cause, refused.detail
            )
    recording = store_problem is None and refused is None
    serving = len(unavailable) < len(view)
    ready = (not unavailable or (partial and serving)) and crashes < CRASH_LIMIT and recording
    body: Readiness = {
        "ready": ready,
        "partial_allowed": partial,
        "rulesets": view,
        "unavailable_rulesets": unavailable,
        "lexicons": sorted(reg.loaded),
        "on_disk": {i: reg.on_disk(lex) for i, lex in sorted(reg.loaded.items())},
        "failed": [{"file": name, "reason": why} for name, why in sorted(reg.failed.items())],
        "workers": {
            "abnormal_exits": crashes,
            "window_seconds": CRASH_WINDOW_SECONDS,
            "limit": CRASH_LIMIT,
        },
        "store": {
            "reachable": store_problem is None,
            "writable": recording,
            "cause": None if refused is None else refused.cause,
        },
        "last_reload": current_app.extensions.get("last_reload"),
    }
    return jsonify(body), 200 if ready else 503


@bp.get("/openapi.json")
@operation("openapi", "service", "OpenApiDocument")
def openapi():
    # `ADJUDICATOR_PUBLIC_URL` when the operator set one (behind a proxy the request's own host
    # may be an internal name), else the URL this request came to
    url = (current_settings().public_url or request.host_url).rstrip("/") + API_PREFIX
    servers = [{"url": url, "description": "this service"}]
    return cacheable(jsonify(openapi_document() | {"servers": servers}))
