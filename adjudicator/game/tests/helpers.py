"""Shared helpers: a ruleset's Rules and its language profile, by ruleset id."""

from __future__ import annotations

from collections import Counter
from functools import cache

from adjudicator.game.final import PlayerEnd
from adjudicator.game.racks import parse_rack
from adjudicator.game.rules import Rules
from adjudicator.rulesets import load_rulesets
from lexicon.languages import LanguageProfile, load_profile


@cache
def rules(ruleset_id: str) -> Rules:
    return load_rulesets()[ruleset_id]


def profile(ruleset_id: str) -> LanguageProfile:
    return load_profile(rules(ruleset_id).language)


def player(
    ruleset_id: str, name: str, score: int, rack: str = "", overtime: float = 0
) -> PlayerEnd:
    tiles: Counter[str] = parse_rack(profile(ruleset_id), rack)
    return PlayerEnd(name, score, tiles, overtime)
