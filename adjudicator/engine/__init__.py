"""One move: board, notation, placement, words, scores — pure Python, no web framework. Game
records and the walk over them are the game layer's (`adjudicator.game`).

Public API: `evaluate_move(profile, board, play, rack=None) -> MoveResult` and
`check_words(lexicon, words) -> list[WordVerdict]`; see `evaluate.py`.
"""

from adjudicator.engine.board import Board, BoardError
from adjudicator.engine.evaluate import apply_play, check_words, evaluate_move
from adjudicator.engine.notation import NotationError, Play

__all__ = [
    "Board",
    "BoardError",
    "NotationError",
    "Play",
    "apply_play",
    "check_words",
    "evaluate_move",
]
