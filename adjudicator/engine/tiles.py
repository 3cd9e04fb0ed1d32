"""The tile set of a language, read from its LanguageProfile (docs/rules.md §2).

The engine asks the profile once and keeps plain dicts, so that a play's checks and scores do
not go through the profile's methods square by square.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from lexicon.languages import LanguageProfile
from lexicon.normalise import Normaliser

BLANK = "?"
P = TypeVar("P")
T = TypeVar("T")


@dataclass(frozen=True)
class TileSet:
    language: str
    alphabet: frozenset[str]
    counts: dict[str, int]
    values: dict[str, int]
    blanks: int
    blank_only: frozenset[str]


def per_profile(build: Callable[[P], T]) -> Callable[[P], T]:
    """`build(profile)`, made once per profile. Profiles hold dicts and are not hashable:
    cached by identity, keeping the profile alive."""
    made: dict[int, tuple[P, T]] = {}

    def cached(profile: P) -> T:
        hit = made.get(id(profile))
        if hit is None or hit[0] is not profile:
            hit = made[id(profile)] = (profile, build(profile))
        return hit[1]

    return cached


@per_profile
def tileset(profile: LanguageProfile) -> TileSet:
    """The (cached) tile set of a profile."""
    return TileSet(
        language=profile.code,
        alphabet=frozenset(profile.alphabet),
        counts={letter: t.count for letter, t in profile.tiles.items()},
        values={letter: t.value for letter, t in profile.tiles.items()},
        blanks=profile.blanks,
        blank_only=frozenset(profile.blank_only),
    )


# One shared Normaliser per profile: all letter folding in the engine goes through it.
normaliser_for = per_profile(Normaliser)


def tile_letter(profile: LanguageProfile, ch: str) -> str | None:
    """The one letter of the language a tile written `ch` bears, by the challenge's own query
    check (`Normaliser.query_fold`); None for any character a player's word may not hold, and
    for one that stands for two letters (Dutch ĳ is I and J: two tiles). The upper case is never
    read on its own: `ß` would be `SS`, two letters on one square, which no score exists for."""
    folded = normaliser_for(profile).query_fold(ch)
    return folded if folded is not None and len(folded) == 1 else None
