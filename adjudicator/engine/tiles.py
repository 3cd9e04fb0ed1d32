"""The tile set of a language, read from its LanguageProfile (docs/rules.md §2).

The engine asks the profile once and keeps plain dicts, so that a play's checks and scores do
not go through the profile's methods square by square.
"""

from __future__ import annotations

from dataclasses import dataclass

from lexicon.languages import LanguageProfile
from lexicon.normalise import Normaliser

BLANK = "?"


@dataclass(frozen=True)
class TileSet:
    language: str
    alphabet: frozenset[str]
    counts: dict[str, int]
    values: dict[str, int]
    blanks: int
    blank_only: frozenset[str]

    def value(self, letter: str, blank: bool = False) -> int:
        """Face value; a blank is 0 whatever it stands for, and so is a blank-only letter."""
        return 0 if blank else self.values.get(letter, 0)


# Profiles hold dicts and are not hashable: cache by identity, keeping the profile alive.
_tilesets: dict[int, tuple[LanguageProfile, TileSet]] = {}
_normalisers: dict[int, tuple[LanguageProfile, Normaliser]] = {}


def _build(profile: LanguageProfile) -> TileSet:
    return TileSet(
        language=profile.code,
        alphabet=frozenset(profile.alphabet),
        counts={letter: t.count for letter, t in profile.tiles.items()},
        values={letter: t.value for letter, t in profile.tiles.items()},
        blanks=profile.blanks,
        blank_only=frozenset(profile.blank_only),
    )


def tileset(profile: LanguageProfile) -> TileSet:
    """The (cached) tile set of a profile."""
    hit = _tilesets.get(id(profile))
    if hit is None or hit[0] is not profile:
        hit = _tilesets[id(profile)] = (profile, _build(profile))
    return hit[1]


def normaliser_for(profile: LanguageProfile) -> Normaliser:
    """One shared Normaliser per profile: all letter folding in the engine goes through it."""
    hit = _normalisers.get(id(profile))
    if hit is None or hit[0] is not profile:
        hit = _normalisers[id(profile)] = (profile, Normaliser(profile))
    return hit[1]


def tile_letter(profile: LanguageProfile, ch: str) -> str | None:
    """The one letter of the language a tile written `ch` bears, by the challenge's own query
    check (`Normaliser.query_fold`); None for any character a player's word may not hold, and
    for one that stands for two letters (Dutch ĳ is I and J: two tiles). The upper case is never
    read on its own: `ß` would be `SS`, two letters on one square, which no score exists for."""
    folded = normaliser_for(profile).query_fold(ch)
    return folded if folded is not None and len(folded) == 1 else None
