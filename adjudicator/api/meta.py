"""Liveness, readiness and the OpenAPI document."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from flask import Blueprint, jsonify

from adjudicator.api import API_PREFIX
from adjudicator.catalogue import rulesets
from adjudicator.lexicons import registry

bp = Blueprint("meta", __name__, url_prefix=API_PREFIX)


@cache
def openapi_document() -> dict:
    return json.loads((resources.files("adjudicator") / "openapi.json").read_text("utf-8"))


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
    return jsonify(openapi_document())
