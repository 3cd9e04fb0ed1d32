"""Rulesets joined to their lexicons: what is available, and the public view of each.

A ruleset's word list comes in editions, each in force from its date (`lexicon.editions`). The
service rules with the edition in force on the event's date, on the event's clock: the day is
read once, when a request starts (`_fix_day`), so an edition never changes in the middle of a
request, and the next request after midnight takes the new one, without a restart. The clock is
`app.extensions["clock"]` (aware UTC `now`), which tests replace with a frozen one.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from functools import partial
from typing import Any

from flask import Flask, current_app, g, has_request_context

from adjudicator.game.rules import tables
from adjudicator.lexicon_registry import registry
from adjudicator.problems import DomainError, Problem
from adjudicator.rulesets import Ruleset, load_rulesets
from adjudicator.settings import current_settings
from lexicon import editions
from lexicon.artifact import Lexicon
from lexicon.languages import LanguageProfile


class RulesetRefused(DomainError):
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
        refusal = house_refusal(ruleset_id)
        if refusal is not None:
            raise RulesetRefused(Problem.HOUSE_RULESET, refusal, "ruleset")
        raise RulesetRefused(Problem.UNKNOWN_RULESET, f"no ruleset {ruleset_id!r}", "ruleset")
    return ruleset


def event_day() -> date:
    """The event's date: today on its clock (its time zone, `TIME_ZONE`), read once per
    request, at its start; outside a request, now."""
    if not has_request_context():
        return _today()
    if "event_day" not in g:
        g.event_day = _today()
    return g.event_day


def _today() -> date:
    return current_app.extensions["clock"]().astimezone(current_settings().zone).date()


def _fix_day() -> None:
    """The request's day, read before anything else of it: one edition per request."""
    g.event_day = _today()


def editions_of(ruleset: Ruleset) -> list[Lexicon]:
    """The ruleset's editions that are loaded, as listed (`Ruleset.edition_ids`)."""
    return [lex for lex in map(registry().loaded.get, ruleset.edition_ids) if lex is not None]


def edition_in_force(ruleset: Ruleset) -> Lexicon | None:
    """The ruleset's edition in force on the event's date (this request's)."""
    return editions.in_force(editions_of(ruleset), event_day())


def house_refusal(ruleset_id: str) -> str | None:
    """Why a ruleset that is not served is refused, when it is known: a house variant in a
    tournament. None for one that is served, or that does not exist."""
    if ruleset_id in rulesets() or ruleset_id not in all_rulesets():
        return None
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
        return f"lexicon {ruleset.lexicon!r} is not loaded"
    if lexicon.house and not ruleset.house_variant:
        off = ", ".join(sorted(lexicon.filters_off))
        return (
            f"lexicon {ruleset.lexicon!r} is a house build (filter {off} off) and only a "
            "house variant may use it"
        )
    return None


def served_lexicon(ruleset: Ruleset) -> Lexicon | None:
    """The ruleset's edition in force if it may rule with it now, else None
    (`unavailable_reason`)."""
    lexicon = edition_in_force(ruleset)
    return None if unavailable_reason(ruleset, lexicon) else lexicon


def lexicon_for(ruleset: Ruleset) -> Lexicon:
    """The ruleset's lexicon (the edition in force on the event's date), or a 503 saying the
    ruleset cannot rule right now."""
    lexicon = edition_in_force(ruleset)
    reason = unavailable_reason(ruleset, lexicon)
    if reason is not None:
        raise RulesetRefused(
            Problem.RULESET_UNAVAILABLE,
            f"ruleset {ruleset.id!r} is unavailable: its {reason}",
            "ruleset",
        )
    return lexicon


def profile_for(ruleset: Ruleset) -> LanguageProfile:
    """The ruleset's language profile: the one its lexicon was compiled with, never a file the
    service reads beside it, so tiles, letters and words always agree."""
    return lexicon_for(ruleset).profile


# The rule tables the public view shows: every one of a ruleset file, as the file writes it
# (`Ruleset.as_written`), so a table added to the model is public without anyone remembering
# it; the disclosure, the house variant and the editions are said under their own keys.
PUBLIC_TABLES = tuple(t for t in tables(Ruleset) if t not in ("disclosure", "house", "editions"))


def public_ruleset(ruleset: Ruleset) -> dict[str, Any]:
    lexicon = served_lexicon(ruleset)
    view = {
        "id": ruleset.id,
        "name": ruleset.name,
        "name_en": ruleset.name_en,
        "language": ruleset.language,
        "sources": ruleset.sources,
        "available": lexicon is not None,
        "disclosure": ruleset.disclosure.policy,
        "lexicon": {"id": ruleset.lexicon, **(lexicon.summary() if lexicon else {})},
        "rules": {t: ruleset.as_written(t) for t in PUBLIC_TABLES},
    }
    if ruleset.house_variant:  # said of a house variant only: the others' view is unchanged
        view["house"] = ruleset.as_written("house")
    return view


def warn_unavailable(app: Flask) -> None:
    for ruleset in app.extensions["rulesets"].values():
        lexicon = app.extensions["lexicons"].loaded.get(ruleset.lexicon)
        reason = unavailable_reason(ruleset, lexicon)
        if reason is not None:
            app.logger.warning("ruleset %s is unavailable: %s", ruleset.id, reason)
        for edition in ruleset.edition_ids[1:]:  # a later edition missing: never used
            if edition not in app.extensions["lexicons"].loaded:
                app.logger.warning(
                    "ruleset %s: its edition %s is not loaded and will not be used",
                    ruleset.id,
                    edition,
                )


def required_rulesets() -> list[str]:
    """The rulesets this deployment must serve: `ADJUDICATOR_RULESETS` (comma-separated), or
    every ruleset it knows."""
    return list(current_settings().rulesets or sorted(rulesets()))


def init_app(app: Flask) -> None:
    app.extensions["rulesets"] = load_rulesets(current_settings(app).ruleset_dir)
    app.extensions.setdefault("clock", partial(datetime.now, UTC))
    app.before_request(_fix_day)
    warn_unavailable(app)
