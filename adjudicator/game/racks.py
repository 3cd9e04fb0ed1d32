"""Racks as tile counts: reading rack text, rack values, and the tile set's limits.

A rack is written as letters with `?` for a blank (`AEQ?`), the GCG convention. A letter the set
has no tile for (Danish Q, W) cannot be on a rack: it can only be played with a blank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from adjudicator.engine.placement import language, read_rack
from adjudicator.engine.tiles import BLANK
from adjudicator.game.errors import GameInputError
from adjudicator.messages import Said, joined
from adjudicator.problems import Problem
from lexicon.languages import LanguageProfile
from lexicon.limits import RACK_SIZE


class RackError(GameInputError):
    """Rack text that cannot be true under the tile set; `field` says which input is at fault."""


def parse_rack(
    profile: LanguageProfile, text: str, field: str | None = None, most: int = RACK_SIZE
) -> Counter[str]:
    """Rack text → tile counts (`?` for blanks), read as the placement check reads a rack, and
    refused with the field named when no such rack can exist in the set. `most`: the tiles it
    may hold (more for the tiles left on several racks)."""
    if not isinstance(text, str):
        raise RackError(Said("rack_not_string"), field, Problem.WRONG_SHAPE)
    counts, unreadable = read_rack(text.strip(), profile)
    if unreadable:
        raise RackError(
            Said("rack_not_a_tile", char=repr(unreadable[0]), language=language(profile.code)),
            field,
            Problem.UNKNOWN_LETTER,
        )
    if counts.get(BLANK) and profile.blanks == 0:
        said = Said("rack_no_blanks", language=language(profile.code))
        raise RackError(said, field, Problem.BAD_RACK)
    for key in counts:
        if key in profile.blank_only:
            raise RackError(
                Said("rack_blank_only", letter=key, language=language(profile.code)),
                field,
                Problem.UNKNOWN_LETTER,
            )
    tiles = Counter(counts)
    if sum(tiles.values()) > most:
        raise RackError(Said("rack_too_many", most=most, n=len(text)), field, Problem.BAD_RACK)
    return tiles


def tile_set(profile: LanguageProfile) -> Counter[str]:
    """The set's tiles, blanks under `?`: what racks and board together can hold."""
    tiles = Counter({letter: t.count for letter, t in profile.tiles.items()})
    tiles[BLANK] = profile.blanks
    return tiles


def rack_value(profile: LanguageProfile, tiles: Mapping[str, int]) -> int:
    """Face value of a rack; a blank is worth nothing."""
    return sum(profile.value(t) * n for t, n in tiles.items() if t != BLANK)


def rack_text(tiles: Mapping[str, int]) -> str:
    """Tile counts → rack text, letters in order and blanks last (stable for reports)."""
    letters = sorted(t for t in tiles if t != BLANK)
    return "".join(t * tiles[t] for t in letters) + BLANK * tiles.get(BLANK, 0)


def check_within_set(
    profile: LanguageProfile, racks: Iterable[tuple[str, Mapping[str, int]]]
) -> None:
    """Racks (and a board, passed as one more named rack) together cannot hold more of a tile
    than the set has: two players cannot both hold the only Z."""
    seen: Counter[str] = Counter()
    owners: dict[str, list[str]] = {}
    for name, tiles in racks:
        seen.update(tiles)
        for tile in tiles:
            owners.setdefault(tile, []).append(name)
    have = tile_set(profile)
    for tile, n in seen.items():
        if n > have[tile]:
            raise RackError(
                Said(
                    "rack_over_set",
                    names=joined("record_both", owners[tile]),
                    owners=len(owners[tile]),
                    n=n,
                    what=Said("rack_blank_word") if tile == BLANK else tile,
                    language=language(profile.code),
                    have=have[tile],
                ),
                owners[tile][-1],
                Problem.TOO_MANY_TILES,
            )
