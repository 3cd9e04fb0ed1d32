"""Manifest summaries: identity and counts of each loaded lexicon, never its words."""

from __future__ import annotations

from flask import Blueprint, jsonify

from adjudicator.lexicon_registry import registry
from adjudicator.web import API_PREFIX
from adjudicator.web.access import public_blueprint
from adjudicator.web.caching import cacheable
from adjudicator.web.contract import operation

# Manifest summaries (identity, counts, licence): never a word, so public in every mode.
bp = public_blueprint(Blueprint("lexicons", __name__, url_prefix=API_PREFIX))


@bp.get("/lexicons")
@operation("listLexicons", "lexicons", "LexiconList")
def list_lexicons():
    reg = registry()
    return cacheable(jsonify(lexicons=[lex.summary() for _, lex in sorted(reg.loaded.items())]))
