"""The engine's public entry points for the HTTP layer and the replay tool.

`evaluate_move` answers placement and score; `check_words` answers the lexicon. What may be
disclosed to whom (per-word or play-level verdicts) is the caller's business, not the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.engine.board import Board
from adjudicator.engine.notation import Play, parse, play_from_tiles, render, render_tiles
from adjudicator.engine.placement import GEOMETRY_CODES, PlacementError, check_placement
from adjudicator.engine.scoring import score_play
from adjudicator.engine.tiles import tileset
from adjudicator.engine.wordcheck import WordVerdict, check_words
from adjudicator.engine.words import Word, formed_words
from lexicon.languages import LanguageProfile

__all__ = ["MoveResult", "ScoredWord", "check_words", "evaluate_move", "WordVerdict"]


@dataclass(frozen=True, slots=True)
class ScoredWord:
    word: Word
    score: int

    def to_dict(self) -> dict[str, Any]:
        w = self.word
        return {
            "word": w.letters,
            "display": w.display,
            "coordinate": w.coordinate,
            "row": w.row,
            "col": w.col,
            "direction": "across" if w.horizontal else "down",
            "squares": w.square_names(),
            "new": list(w.new),
            "blanks": list(w.blanks),
            "main": w.main,
            "score": self.score,
        }


@dataclass
class MoveResult:
    """`legal` is True when there is no placement error. Words and scores are filled in
    whenever the geometry is sound (even if, say, the rack lacks a tile), else left empty."""

    legal: bool
    errors: list[PlacementError]
    words: list[ScoredWord]
    bingo: bool
    score: int
    notation: str | None
    play: Play


def evaluate_move(
    profile: LanguageProfile,
    board: Board,
    play: Play | str | Sequence[tuple],
    rack: str | None = None,
) -> MoveResult:
    """Check and score one play on `board` (the board before it; left unchanged).

    `play` is a Play, notation text (`8H CAFé`), or structured tiles ((row, col, letter,
    blank); 0-based). Raises NotationError only for text that is not notation, or a
    letter the challenge's query check refuses (a tile's `NotationError.tile` names it)."""
    if isinstance(play, str):
        play = parse(play, profile, board)
    elif not isinstance(play, Play):
        play = play_from_tiles(play, profile, board)
    errors = check_placement(board, play, profile, rack)
    if errors and any(e.code in GEOMETRY_CODES for e in errors):  # no scan when legal
        notation = render_tiles(play.tiles) if play.tiles else None
        return MoveResult(False, errors, [], False, 0, notation, play)
    formed = formed_words(board, play)
    per_word, bingo, total = score_play(formed, len(play.tiles), tileset(profile))
    words = [ScoredWord(w, s) for w, s in zip(formed, per_word, strict=True)]
    return MoveResult(not errors, errors, words, bingo, total, render(play, board), play)


def apply_play(board: Board, play: Play) -> None:
    """Put a play's tiles on the board (in place); the caller has checked it."""
    for t in play.tiles:
        board.place(t.row, t.col, t.letter, t.blank)
