"""Move validation and scoring over HTTP, with the lexicon ruling under the ruleset's policy.

The engine answers placement and score; this layer decides what may be said about the words.
Under the `play` policy a play may form several words and the response must not tell which one
is invalid: words are listed with positions and scores but no verdicts, every word is looked up,
and placement errors (which say nothing about the lexicon) are the only per-word statements.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from adjudicator import disclosure, idempotency
from adjudicator.api import API_PREFIX
from adjudicator.audit import record
from adjudicator.audit.labels import FIELDS as LABEL_FIELDS
from adjudicator.audit.labels import read_labels
from adjudicator.auth import bookkeeping
from adjudicator.auth.caller import current_caller
from adjudicator.auth.guard import lexicon_dependent, rules
from adjudicator.catalogue import lexicon_for, ruleset_or_404
from adjudicator.engine import (
    Board,
    BoardError,
    NotationError,
    Play,
    apply_play,
    check_words,
    evaluate_move,
)
from adjudicator.errors import ApiError
from adjudicator.requests import json_body, only_fields
from adjudicator.rulings import new_ruling_id
from lexicon.limits import BOARD_SIZE

bp = Blueprint("moves", __name__, url_prefix=API_PREFIX)

MAX_HISTORY = 100  # a game has far fewer plays; this bounds the work one request can ask for


def read_position(data: dict[str, Any], profile) -> tuple[Board, Play | None]:
    """The position a request gives: `board` (15 rows) or `plays` (earlier plays in notation,
    each checked); with `plays`, also the last of them (None for a `board`, or no plays)."""
    if "board" in data and "plays" in data:
        raise ApiError(400, "wrong_shape", "give either 'board' or 'plays', not both", "board")
    if "board" in data:
        rows = data["board"]
        if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
            raise ApiError(400, "bad_board", "'board' must be a list of 15 strings", "board")
        try:
            return Board.from_rows(rows, profile), None
        except BoardError as exc:
            field = f"board[{exc.row - 1}]" if exc.row else "board"
            raise ApiError(400, "bad_board", str(exc), field) from None
    board, last = Board(), None
    plays = data.get("plays", [])
    if not isinstance(plays, list) or not all(isinstance(p, str) for p in plays):
        raise ApiError(400, "wrong_shape", "'plays' must be a list of notation strings", "plays")
    if len(plays) > MAX_HISTORY:
        raise ApiError(400, "too_many_plays", f"at most {MAX_HISTORY} earlier plays", "plays")
    for i, text in enumerate(plays):
        field = f"plays[{i}]"
        try:
            result = evaluate_move(profile, board, text)
        except NotationError as exc:
            raise ApiError(400, "bad_notation", str(exc), field) from None
        if not result.legal:
            first = result.errors[0]
            raise ApiError(400, "illegal_earlier_play", f"{text!r}: {first.message}", field)
        apply_play(board, result.play)
        last = result.play
    return board, last


def _play(data: dict[str, Any]) -> str | list[dict[str, Any]]:
    play = data.get("play")
    if isinstance(play, str):
        return play
    if not isinstance(play, dict) or set(play) != {"tiles"} or not isinstance(play["tiles"], list):
        raise ApiError(400, "wrong_shape", "'play' is notation text or {\"tiles\": [...]}", "play")
    tiles = []
    for i, tile in enumerate(play["tiles"]):
        field = f"play.tiles[{i}]"
        if not isinstance(tile, dict) or not {"row", "col", "letter"} <= set(tile):
            raise ApiError(400, "wrong_shape", "a tile needs row, col and letter", field)
        if set(tile) - {"row", "col", "letter", "blank"}:
            raise ApiError(400, "unknown_field", "a tile has only row, col, letter, blank", field)
        for key in ("row", "col"):
            if not isinstance(tile[key], int) or isinstance(tile[key], bool):
                raise ApiError(400, "wrong_shape", f"'{key}' must be a whole number", field)
            if not 0 <= tile[key] < BOARD_SIZE:
                raise ApiError(
                    400, "out_of_range", f"'{key}' is 0 to {BOARD_SIZE - 1}", f"{field}.{key}"
                )
        if not isinstance(tile["letter"], str) or not isinstance(tile.get("blank", False), bool):
            raise ApiError(400, "wrong_shape", "'letter' is a string, 'blank' true/false", field)
        tiles.append(tile)
    if len(tiles) > 15:
        raise ApiError(400, "too_many_tiles", "a play cannot have more than 15 tiles", "play.tiles")
    return tiles


@bp.post("/rulesets/<ruleset_id>/moves/validate")
@lexicon_dependent
@rules
def validate(ruleset_id: str):
    ruleset = ruleset_or_404(ruleset_id)
    data = json_body()
    only_fields(data, {"board", "plays", "play", "rack", *LABEL_FIELDS})
    if "play" not in data:
        raise ApiError(400, "wrong_shape", "'play' is required", "play")
    rack = data.get("rack")
    if rack is not None and not isinstance(rack, str):
        raise ApiError(400, "wrong_shape", "'rack' must be a string such as 'AEIRST?'", "rack")
    labels = read_labels(data)
    lexicon = lexicon_for(ruleset)
    profile = lexicon.profile
    board, _ = read_position(data, profile)
    try:
        result = evaluate_move(profile, board, _play(data), rack)
    except NotationError as exc:
        field = "play" if exc.tile is None else f"play.tiles[{exc.tile}].letter"
        raise ApiError(400, "bad_notation", str(exc), field) from None

    if not result.legal:
        # No ruling and no score for a play that cannot be made: the placement errors are the
        # answer. No word is looked up, so nothing here depends on the lexicon at all.
        words, ruling, score, bingo = [], None, None, False
    else:
        verdicts = check_words(lexicon, [w.word for w in result.words])  # all of them, always
        # The engine lists the main word first, then cross-words in board order: an order of the
        # board alone, never of the verdicts.
        valid = [v.valid for v in verdicts]
        words = disclosure.words(ruleset.policy, [w.to_dict() for w in result.words], valid)
        ruling, score, bingo = disclosure.play_ruling(valid), result.score, result.bingo
    body = {
        "ruling_id": new_ruling_id(),
        "ruleset": ruleset.id,
        "policy": ruleset.policy,
        "legal": result.legal,
        "errors": [e.to_dict() for e in result.errors],
        "notation": result.notation,
        "words": words,
        "bingo": bingo,
        "score": score,
        "ruling": ruling,
        "lexicon": lexicon.identity(),
    }
    consequence = {
        "legal": result.legal,
        "errors": [e.code for e in result.errors],
        "score": result.score,
    }
    caller = current_caller()  # the view says who asked, what they owe and the key it came with
    return record.record_ruling(
        body,
        caller=caller,
        charge=bookkeeping.pending(),
        key=idempotency.from_request(caller),
        kind="move",
        ruleset=ruleset,
        labels=labels,
        verdict=ruling,
        consequence=consequence,
        play=result.notation,
    )
