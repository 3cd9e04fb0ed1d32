"""Rulesets joined to their lexicons: what is available, and the public view of each."""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app

from adjudicator.lexicon_registry import registry
from adjudicator.problems import DomainError, Problem
from adjudicator.rulesets import Ruleset, load_rulesets
from adjudicator.settings import current_settings
from lexicon.artifact import Lexicon
from lexicon.languages import LanguageProfile


class RulesetError(DomainError):
    """A ruleset asked for that this service does not have, or cannot rule with right now."""


def all_rulesets() -> dict[str, Ruleset]:
    """Every ruleset loaded, the house variants (004) too."""
    return current_app.extensions["rulesets"]


def rulesets() -> dict[str, Ruleset]:
    """The rulesets this deployment serves: in tournament mode, never a house variant (004
    Almindelige varianter, docs/rules.md §4.6), so no list, kiosk or pairing offers one."""
    every = all_rulesets()
    if not current_settings().tournament:
        return every
    return {i: r for i, r in every.items() if not r.house_variant}


def ruleset_or_404(ruleset_id: str) -> Ruleset:
    ruleset = rulesets().get(ruleset_id)
    if ruleset is None:
        if ruleset_id in all_rulesets():  # known, but a house variant in a tournament
            raise RulesetError(Problem.HOUSE_RULESET, house_refusal(ruleset_id), "ruleset")
        raise RulesetError(Problem.UNKNOWN_RULESET, f"no ruleset {ruleset_id!r}", "ruleset")
    return ruleset


def house_refusal(ruleset_id: str) -> str:
    return (
        f"ruleset {ruleset_id!r} is a house variant (004 Almindelige varianter) and is not "
        "served in tournament mode"
    )


def unavailable_reason(ruleset: Ruleset, lexicon: Lexicon | None) -> str | None:
    """Why the ruleset cannot rule with `lexicon` (its lexicon as loaded), or None.

    A house build (a compiler filter off, e.g. proper names kept) serves house variants only:
    a tournament ruleset pointed at one (by its file or a deployment's `lexicons.toml`) is
    unavailable, never ruling with words its federation does not allow.
    """
    if lexicon is None:
        return f"lexicon {ruleset.lexicon_id!r} is not loaded"
    if lexicon.house and not ruleset.house_variant:
        off = ", ".join(sorted(lexicon.filters_off))
        return (
            f"lexicon {ruleset.lexicon_id!r} is a house build (filter {off} off) and only a "
            "house variant may use it"
        )
    return None


def served_lexicon(ruleset: Ruleset) -> Lexicon | None:
    """The ruleset's lexicon if it may rule with it now, else None (`unavailable_reason`)."""
    lexicon = registry().get(ruleset.lexicon_id)
    return None if unavailable_reason(ruleset, lexicon) else lexicon


def lexicon_for(ruleset: Ruleset) -> Lexicon:
    """The ruleset's lexicon, or a 503 saying the ruleset cannot rule right now."""
    lexicon = registry().get(ruleset.lexicon_id)
    reason = unavailable_reason(ruleset, lexicon)
    if reason is not None:
        raise RulesetError(
            Problem.RULESET_UNAVAILABLE,
            f"ruleset {ruleset.id!r} is unavailable: its {reason}",
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
    lexicon = served_lexicon(ruleset)
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
    if ruleset.house_variant:  # said of a house variant only: the others' view is unchanged
        view["house"] = ruleset.as_written("house")
    return view


def warn_unavailable(app: Flask) -> None:
    for ruleset in app.extensions["rulesets"].values():
        lexicon = app.extensions["lexicons"].get(ruleset.lexicon_id)
        reason = unavailable_reason(ruleset, lexicon)
        if reason is not None:
            app.logger.warning("ruleset %s is unavailable: %s", ruleset.id, reason)


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
