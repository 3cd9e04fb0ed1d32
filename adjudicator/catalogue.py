"""Rulesets joined to their lexicons: what is available, and the public view of each."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app

from adjudicator.lexicon_registry import registry
from adjudicator.problems import Problem
from adjudicator.rulesets import Ruleset, load_rulesets
from adjudicator.settings import current_settings
from adjudicator.web.errors import ApiError
from lexicon.artifact import Lexicon
from lexicon.languages import LanguageProfile


def rulesets() -> dict[str, Ruleset]:
    return current_app.extensions["rulesets"]


def ruleset_or_404(ruleset_id: str) -> Ruleset:
    ruleset = rulesets().get(ruleset_id)
    if ruleset is None:
        raise ApiError(Problem.UNKNOWN_RULESET, f"no ruleset {ruleset_id!r}", "ruleset")
    return ruleset


def lexicon_for(ruleset: Ruleset) -> Lexicon:
    """The ruleset's lexicon, or a 503 saying the ruleset cannot rule right now."""
    lexicon = registry().get(ruleset.lexicon_id)
    if lexicon is None:
        raise ApiError(
            Problem.RULESET_UNAVAILABLE,
            f"ruleset {ruleset.id!r} is unavailable: its lexicon {ruleset.lexicon_id!r} is not loaded",
            "ruleset",
        )
    return lexicon


def profile_for(ruleset: Ruleset) -> LanguageProfile:
    """The ruleset's language profile: the one its lexicon was compiled with, never a file the
    service reads beside it, so tiles, letters and words always agree."""
    return lexicon_for(ruleset).profile


# The rule tables the public view shows, each as its file states it (`Ruleset.as_written`).
PUBLIC_TABLES = ("challenge", "exchange", "pass", "end", "final", "clock")


def public_ruleset(ruleset: Ruleset) -> dict[str, Any]:
    lexicon = registry().get(ruleset.lexicon_id)
    view = {
        "id": ruleset.id,
        "name": ruleset.name,
        "name_en": ruleset.name_en,
        "language": ruleset.language,
        "sources": ruleset.sources,
        "available": lexicon is not None,
        "disclosure": ruleset.policy,
        "lexicon": {"id": ruleset.lexicon_id, **(lexicon.summary() if lexicon else {})},
        "rules": {t: ruleset.as_written(t) for t in PUBLIC_TABLES},
    }
    return view


def warn_unavailable(app: Flask) -> None:
    for ruleset in app.extensions["rulesets"].values():
        if ruleset.lexicon_id not in app.extensions["lexicons"].loaded:
            app.logger.warning(
                "ruleset %s is unavailable: lexicon %s is not loaded",
                ruleset.id,
                ruleset.lexicon_id,
            )


def required_rulesets() -> list[str]:
    """The rulesets this deployment must serve: `ADJUDICATOR_RULESETS` (comma-separated), or
    every ruleset it knows."""
    wanted = current_settings().rulesets
    if not wanted:
        return sorted(rulesets())
    return sorted({r.strip() for r in str(wanted).split(",") if r.strip()})


def init_app(app: Flask) -> None:
    app.extensions["rulesets"] = load_rulesets(current_settings(app).ruleset_dir)
    warn_unavailable(app)
