"""Move validation and scoring over HTTP, with the lexicon ruling under the ruleset's policy.

The engine answers placement and score; this layer decides what may be said about the words.
Under the `play` policy a play may form several words and the response must not tell which one
is invalid: words are listed with positions and scores but no verdicts, every word is looked up,
and placement errors (which say nothing about the lexicon) are the only per-word statements.
"""

from __future__ import annotations

from flask import Blueprint

from adjudicator import disclosure
from adjudicator.api.bodies import MoveRequest, PlayTiles, Position
from adjudicator.api.ruling import recorded
from adjudicator.catalogue import lexicon_for
from adjudicator.engine import (
    Board,
    BoardError,
    NotationError,
    Play,
    apply_play,
    check_words,
    evaluate_move,
)
from adjudicator.problems import Problem
from adjudicator.rulesets import Ruleset
from adjudicator.rulings import new_ruling_id
from adjudicator.web import API_PREFIX
from adjudicator.web.access import lexicon_dependent
from adjudicator.web.answers import MoveResult
from adjudicator.web.contract import RULING, WORD_FORMS, operation
from adjudicator.web.errors import ApiError

bp = Blueprint("moves", __name__, url_prefix=API_PREFIX)

# What `read_position` refuses of a position (games/board reads one too).
POSITION = (
    Problem.BAD_BOARD,
    Problem.BAD_NOTATION,
    Problem.ILLEGAL_EARLIER_PLAY,
    Problem.TOO_MANY_PLAYS,
)


def read_position(position: Position, profile) -> tuple[Board, Play | None]:
    """The position a request gives: `board` (15 rows) or `plays` (earlier plays in notation,
    each checked); with `plays`, also the last of them (None for a `board`, or no plays)."""
    if position.board is not None:
        try:
            return Board.from_rows(position.board, profile), None
        except BoardError as exc:
            field = f"board[{exc.row - 1}]" if exc.row else "board"
            raise ApiError(Problem.BAD_BOARD, str(exc), field) from None
    board, last = Board(), None
    for i, text in enumerate(position.plays or ()):
        field = f"plays[{i}]"
        try:
            result = evaluate_move(profile, board, text)
        except NotationError as exc:
            raise ApiError(Problem.BAD_NOTATION, str(exc), field) from None
        if not result.legal:
            first = result.errors[0]
            raise ApiError(Problem.ILLEGAL_EARLIER_PLAY, f"{text!r}: {first.message}", field)
        apply_play(board, result.play)
        last = result.play
    return board, last


def _play(play: str | PlayTiles) -> str | list[tuple[int, int, str, bool]]:
    """The play as the engine reads it: notation text, or (row, col, letter, blank) tiles."""
    if isinstance(play, str):
        return play
    return [(tile.row, tile.col, tile.letter, tile.blank) for tile in play.tiles]


@bp.post("/rulesets/<ruleset_id>/moves/validate")
@lexicon_dependent
@operation(
    "validateMove",
    "moves",
    "MoveResult",
    body=MoveRequest,
    idempotent=True,
    problems=(
        *RULING,
        *WORD_FORMS,
        Problem.OUT_OF_RANGE,
        *POSITION,
        Problem.TOO_MANY_TILES,
        Problem.INCONSISTENT_INPUT,
    ),
)
@recorded("move", MoveRequest)
def validate(ruleset: Ruleset, asked: MoveRequest) -> MoveResult:
    lexicon = lexicon_for(ruleset)
    profile = lexicon.profile
    board, _ = read_position(asked, profile)
    try:
        result = evaluate_move(profile, board, _play(asked.play), asked.rack)
    except NotationError as exc:
        field = "play" if exc.tile is None else f"play.tiles[{exc.tile}].letter"
        raise ApiError(Problem.BAD_NOTATION, str(exc), field) from None

    if not result.legal:
        # No ruling and no score for a play that cannot be made: the placement errors are the
        # answer. No word is looked up, so nothing here depends on the lexicon at all.
        words, ruling, score, bingo = [], None, None, False
    else:
        verdicts = check_words(lexicon, [w.word for w in result.words])  # all of them, always
        # The engine lists the main word first, then cross-words in board order: an order of the
        # board alone, never of the verdicts.
        valid = [v.valid for v in verdicts]
        words = disclosure.words(
            ruleset.disclosure.policy, [w.to_dict() for w in result.words], valid
        )
        ruling, score, bingo = disclosure.play_ruling(valid), result.score, result.bingo
    return {
        "ruling_id": new_ruling_id(),
        "ruleset": ruleset.id,
        "policy": ruleset.disclosure.policy,
        "legal": result.legal,
        "errors": [e.to_dict() for e in result.errors],
        "notation": result.notation,
        "words": words,
        "bingo": bingo,
        "score": score,
        "ruling": ruling,
        "lexicon": lexicon.identity(),
    }
