"""One move: board, notation, placement, words, scores — pure Python, no web framework. Game
records and the walk over them are the game layer's (`adjudicator.game`).

Public API: `evaluate_move(profile, board, play, rack=None) -> MoveResult` and
`check_words(lexicon, words) -> list[WordVerdict]`; see `api.py`.
"""

from adjudicator.engine.board import Board, BoardError, Cell
from adjudicator.engine.evaluate import MoveResult, ScoredWord, apply_play, evaluate_move
from adjudicator.engine.notation import NewTile, NotationError, Play, parse, play_from_tiles
from adjudicator.engine.placement import ERROR_CODES, PlacementError, check_placement
from adjudicator.engine.wordcheck import WordVerdict, check_words

__all__ = [
    "ERROR_CODES",
    "Board",
    "BoardError",
    "Cell",
    "MoveResult",
    "NewTile",
    "NotationError",
    "Play",
    "PlacementError",
    "ScoredWord",
    "WordVerdict",
    "apply_play",
    "check_placement",
    "check_words",
    "evaluate_move",
    "parse",
    "play_from_tiles",
]
