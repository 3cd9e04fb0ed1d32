"""A record sent as JSON turns, read into the same `GameRecord` a GCG file gives, so both take
one path (games/verify, games/board, the directors' *Check a game* page)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator import bounds
from adjudicator.game.gcg import Event, GameRecord, require_whole
from adjudicator.game.kinds import CHALLENGE, END_RACK, EXCHANGE, PASS, PLAY, TIME, WITHDRAWN
from adjudicator.problems import DomainError, Problem

KINDS = (PLAY, PASS, EXCHANGE, WITHDRAWN, CHALLENGE, TIME, END_RACK)
TURN_TYPES = {kind.replace("-", "_"): kind for kind in KINDS}  # a JSON name: `end_rack`
TURN_TYPE_MESSAGE = f"'type' must be one of {sorted(TURN_TYPES)}"


class RecordError(DomainError):
    """A JSON record that says what no game can: a player twice, or a turn of no player."""


def read_turns(names: list[str], turns: Sequence[Any]) -> GameRecord:
    """The record of the players `names` and their `turns` (each as `api.bodies.Turn`: its
    player, type, move, rack, tiles, count, score, total and note), naming the turn at fault."""
    if len(set(names)) != len(names):
        raise RecordError(Problem.DUPLICATE_PLAYER, "player names must differ", "players")
    totals = dict.fromkeys(names, 0)
    events: list[Event] = []
    for i, turn in enumerate(turns):
        field = f"turns[{i}]"
        player = turn.player
        if player not in totals:
            raise RecordError(
                Problem.UNKNOWN_PLAYER, f"{player!r} is not in 'players'", f"{field}.player"
            )
        if turn.type is None:
            raise RecordError(Problem.WRONG_SHAPE, TURN_TYPE_MESSAGE, f"{field}.type")
        kind = TURN_TYPES[turn.type]
        total = totals[player] + turn.score if turn.total is None else turn.total
        if abs(total) > bounds.MAX_POINTS:
            raise RecordError(
                Problem.OUT_OF_RANGE, f"the running total passes {bounds.MAX_POINTS}", field
            )
        totals[player] = total
        ev = Event(
            kind,
            player,
            i + 1,
            f"{player}: {turn.type} {turn.move or ''}".strip(),
            rack=turn.rack or None,
            score=turn.score,
            total=total,
        )
        if kind == PLAY:
            parts = (turn.move or "").split()
            if len(parts) != 2:
                raise RecordError(
                    Problem.BAD_NOTATION, "a play's 'move' is '8H WORD'", f"{field}.move"
                )
            ev.coordinate, ev.word = parts
        elif kind == EXCHANGE:
            if turn.tiles:
                ev.tiles, ev.count = turn.tiles, len(turn.tiles)
            elif turn.count is not None:
                ev.count = turn.count
            else:
                raise RecordError(
                    Problem.WRONG_SHAPE, "an exchange needs 'tiles' or 'count'", field
                )
        elif kind == END_RACK:
            ev.tiles = turn.tiles or ""
        if turn.note:  # as a GCG `#note` line after the turn
            ev.notes.append(turn.note)
        events.append(ev)
    return require_whole(GameRecord("<turns>", list(names), events))
