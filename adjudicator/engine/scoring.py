"""Scores of a legal play (docs/rules.md §5): letter premiums before word premiums, premiums only
under new tiles, word premiums multiply (×4, ×9), blanks 0, +50 for all seven tiles."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.engine.board import LETTER_MULT, SIZE, WORD_MULT
from adjudicator.engine.tiles import TileSet
from adjudicator.engine.words import Word
from lexicon.limits import RACK_SIZE

BINGO_BONUS = 50


def score_word(word: Word, ts: TileSet) -> int:
    values = ts.values
    step = 1 if word.horizontal else SIZE
    i = word.row * SIZE + word.col
    total = 0
    multiplier = 1
    for letter, new, blank in zip(word.letters, word.new, word.blanks, strict=True):
        value = 0 if blank else values.get(letter, 0)
        if new:
            total += value * LETTER_MULT[i]
            multiplier *= WORD_MULT[i]  # a blank still carries its square's word premium
        else:
            total += value
        i += step
    return total * multiplier


def score_play(
    words: Sequence[Word], tiles_played: int, ts: TileSet
) -> tuple[list[int], bool, int]:
    """Per-word scores (same order as `words`), whether it is a bingo, and the turn's total,
    bingo bonus included."""
    # A list is built faster than a generator runs.
    per_word = [score_word(w, ts) for w in words]
    bingo = tiles_played == RACK_SIZE
    return per_word, bingo, sum(per_word) + (BINGO_BONUS if bingo else 0)
