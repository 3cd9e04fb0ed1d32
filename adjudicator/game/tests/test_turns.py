"""JSON turns read into a GameRecord, refused with the game layer's own `RecordError`."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from adjudicator import bounds
from adjudicator.game.gcg import END_RACK, EXCHANGE, PLAY, GcgError
from adjudicator.game.turns import TURN_TYPE_MESSAGE, RecordError, read_turns
from adjudicator.problems import Problem

FIELDS = ("player", "type", "move", "rack", "tiles", "count", "score", "total", "note")


def turn(**given: object) -> SimpleNamespace:
    """A turn as `api.bodies.Turn` gives it: every field, None where not sent."""
    return SimpleNamespace(**({f: None for f in FIELDS} | {"score": 0} | given))


def refused(names: list[str], turns: list[SimpleNamespace]) -> RecordError:
    with pytest.raises(RecordError) as raised:
        read_turns(names, turns)
    return raised.value


def test_turns_read_as_a_gcg_record_would():
    record = read_turns(
        ["ann", "bob"],
        [
            turn(player="ann", type="play", move="8H CAT", rack="ACT", score=10),
            turn(player="bob", type="exchange", tiles="QV"),
            turn(player="ann", type="end_rack", tiles="E", score=2, note="jury: ok"),
        ],
    )
    assert record.players == ["ann", "bob"]
    assert [e.kind for e in record.events] == [PLAY, EXCHANGE, END_RACK]
    play, exchange, end = record.events
    assert (play.coordinate, play.word, play.total, play.line) == ("8H", "CAT", 10, 1)
    assert (exchange.tiles, exchange.count) == ("QV", 2)
    assert (end.tiles, end.total, end.notes) == ("E", 12, ["jury: ok"])


@pytest.mark.parametrize(
    ("names", "turns", "code", "field", "message"),
    [
        (["ann", "ann"], [], Problem.DUPLICATE_PLAYER, "players", "player names must differ"),
        (
            ["ann", "bob"],
            [turn(player="cy", type="pass")],
            Problem.UNKNOWN_PLAYER,
            "turns[0].player",
            "'cy' is not in 'players'",
        ),
        (["ann", "bob"], [turn(player="ann")], Problem.WRONG_SHAPE, "turns[0].type", None),
        (
            ["ann", "bob"],
            [turn(player="ann", type="pass", total=bounds.MAX_POINTS + 1)],
            Problem.OUT_OF_RANGE,
            "turns[0]",
            f"the running total passes {bounds.MAX_POINTS}",
        ),
        (
            ["ann", "bob"],
            [turn(player="ann", type="play", move="8H")],
            Problem.BAD_NOTATION,
            "turns[0].move",
            "a play's 'move' is '8H WORD'",
        ),
        (
            ["ann", "bob"],
            [turn(player="ann", type="pass"), turn(player="bob", type="exchange")],
            Problem.WRONG_SHAPE,
            "turns[1]",
            "an exchange needs 'tiles' or 'count'",
        ),
    ],
)
def test_a_turn_no_record_can_hold_is_refused_naming_it(names, turns, code, field, message):
    error = refused(names, turns)
    assert (error.code, error.field) == (code, field)
    assert error.message == (message or TURN_TYPE_MESSAGE)


def test_a_record_of_no_turns_is_no_game():
    """The reader's one check of a whole record, as for a GCG text (`require_whole`)."""
    with pytest.raises(GcgError, match="the record has no moves"):
        read_turns(["ann", "bob"], [])
    with pytest.raises(GcgError, match="the record declares no #player lines"):
        read_turns([], [])
