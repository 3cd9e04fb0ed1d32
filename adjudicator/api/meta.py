"""Liveness, readiness and the OpenAPI document."""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources

from flask import Blueprint, current_app, jsonify, request

from adjudicator.api import API_PREFIX
from adjudicator.caching import cacheable
from adjudicator.catalogue import rulesets
from adjudicator.lexicons import registry
from lexicon import __version__

bp = Blueprint("meta", __name__, url_prefix=API_PREFIX)


@cache
def openapi_document() -> dict:
    """The document as shipped, with `info.version` from the package's one version."""
    doc = json.loads((resources.files("adjudicator") / "openapi.json").read_text("utf-8"))
    doc["info"]["version"] = __version__
    return doc


def server_url() -> str:
    """The API's absolute base URL: `ADJUDICATOR_PUBLIC_URL` when the operator set one (behind a
    proxy the request's own host may be an internal name), else the URL this request came to."""
    public = current_app.config.get("PUBLIC_URL")
    base = str(public).rstrip("/") if public else request.host_url.rstrip("/")
    return base + API_PREFIX


@bp.get("/healthz")
def healthz():
    return jsonify(status="ok")


@bp.get("/readyz")
def readyz():
    reg = registry()
    unavailable = sorted(r.id for r in rulesets().values() if r.lexicon_id not in reg.loaded)
    ready = bool(reg.loaded)
    body = {
        "ready": ready,
        "lexicons": sorted(reg.loaded),
        "failed": [{"file": name, "reason": why} for name, why in sorted(reg.failed.items())],
        "unavailable_rulesets": unavailable,
    }
    return jsonify(body), 200 if ready else 503


@bp.get("/openapi.json")
def openapi():
    doc = copy.copy(openapi_document())
    doc["servers"] = [{"url": server_url(), "description": "this service"}]
    return cacheable(jsonify(doc))
