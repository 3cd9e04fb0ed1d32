"""May this player exchange now? (docs/rules.md §7.)

Most rulesets need only the bag: at least 7 tiles (000 §4.7b, 002). SBNL's "Ruilregel" (003)
also looks at the player's own turns: in the first three any exchange goes; later only once at
a time, after a turn that put a tile down, and with at least 16 tiles in the bag.
"""

from __future__ import annotations

from adjudicator.game.errors import GameInputError
from adjudicator.game.rules import Rules, Verdict
from adjudicator.messages import Said
from adjudicator.problems import Problem
from lexicon.limits import RACK_SIZE


def needs_turn_history(rules: Rules) -> bool:
    """Whether the answer depends on the player's turn number and previous turn (SBNL)."""
    return bool(rules.exchange.opening_turns or rules.exchange.later_requires_previous_placement)


def exchange_allowed(
    rules: Rules,
    bag: int,
    turn: int | None = None,
    previous_placed: bool | None = None,
    count: int | None = None,
    exchanges_in_a_row: int | None = None,
) -> Verdict:
    """`turn`: the player's own turn number (1 = their first); `previous_placed`: whether their
    previous turn put at least one tile on the board; `count`: how many tiles they want to swap;
    `exchanges_in_a_row`: how many of the player's own turns right before this one were
    exchanges (SBNL's opening exchanges must come in a row from the start).
    Raises GameInputError when the ruleset needs an input that was not given."""
    rule = rules.exchange
    if bag < 0:
        raise GameInputError("the bag cannot hold fewer than 0 tiles", "bag", Problem.OUT_OF_RANGE)
    if count is not None:
        if not 1 <= count <= RACK_SIZE:
            raise GameInputError(f"exchange 1 to {RACK_SIZE} tiles, not {count}", "count")
        if count > bag:
            said = Said("exchange_count_over_bag", n=count, bag=bag)
            return Verdict(False, "bag_too_small", said, rule.source)
    if turn is not None and turn < 1:
        raise GameInputError("turns are counted from 1", "turn", Problem.OUT_OF_RANGE)
    # Checked whether or not this turn needs it: an impossible history is never ignored.
    if exchanges_in_a_row is not None and (
        exchanges_in_a_row < 0 or (turn is not None and exchanges_in_a_row >= turn)
    ):
        before = "" if turn is None else f" before turn {turn}"
        raise GameInputError(
            f"{exchanges_in_a_row} exchanges in a row{before} cannot be",
            "exchanges_in_a_row",
            Problem.OUT_OF_RANGE,
        )
    if previous_placed and exchanges_in_a_row:
        raise GameInputError(
            f"{exchanges_in_a_row} exchanges in a row cannot end with a turn that put a tile"
            " down: with previous_placed true, give 0",
            "exchanges_in_a_row",
            Problem.OUT_OF_RANGE,
        )
    if previous_placed is None and exchanges_in_a_row:
        previous_placed = False  # the previous turn was an exchange
    if needs_turn_history(rules) and turn is None:
        raise GameInputError(
            f"under {rules.id} the answer depends on the player's turn number", "turn"
        )
    if (
        turn is not None
        and turn <= rule.opening_turns
        and _opening_run(rules, turn, previous_placed, exchanges_in_a_row)
    ):
        said = Said("exchange_opening", n=rule.opening_turns, turn=turn)
        return Verdict(True, "opening_turns", said, rule.source)
    enough = bag >= rule.min_bag  # too few tiles answers before the previous turn is asked
    if enough and rule.later_requires_previous_placement:
        if previous_placed is None:
            raise GameInputError(
                f"after turn {rule.opening_turns}, {rules.id} asks whether the"
                " player's previous turn put a tile on the board",
                "previous",
            )
        if not previous_placed:
            said = Said("exchange_after_placement")
            return Verdict(False, "previous_turn_placed_nothing", said, rule.source)
    code = "bag_has_enough" if enough else "bag_too_small"
    said = Said("exchange_bag_count", bag=bag, min=rule.min_bag)
    return Verdict(enough, code, said, rule.source)


def _opening_run(
    rules: Rules, turn: int, previous_placed: bool | None, exchanges_in_a_row: int | None
) -> bool:
    """Whether every turn of the player so far was an exchange: 003 Ruilregel allows the
    opening exchanges "ten hoogste drie beurten achter elkaar", so a play breaks the run."""
    if not rules.exchange.opening_in_a_row or turn == 1:
        return True
    if previous_placed:
        return False  # the previous turn put a tile down: the run from the start is broken
    if exchanges_in_a_row is None:
        raise GameInputError(
            f"under {rules.id} an exchange in turn {turn} depends on whether all the"
            " player's turns so far were exchanges: give how many came right before it",
            "exchanges_in_a_row",
        )
    return exchanges_in_a_row == turn - 1  # its range was checked by exchange_allowed
