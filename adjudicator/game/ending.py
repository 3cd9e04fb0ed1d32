"""Passing and the end of the game (docs/rules.md §8, §9).

A scoreless turn is one that leaves no new tile on the board: a pass, an exchange, a play that
was withdrawn after a challenge, a turn lost to a failed challenge. Whether exchanges and
withdrawn plays count is ruleset data (002 counts both, following NSA; APSP does not count
exchanges). DSF has no scoreless rule but ends after both players pass twice in a row (000 §5b).
"""

from __future__ import annotations

from adjudicator.game.kinds import EXCHANGE, LOST_TURN, PASS, PLAY, WITHDRAWN
from adjudicator.game.rules import Rules, Verdict
from adjudicator.messages import Said


def pass_allowed(rules: Rules) -> Verdict:
    code = "pass_allowed" if rules.pass_.allowed else "pass_not_allowed"
    return Verdict(rules.pass_.allowed, code, Said(code), rules.pass_.source)


def is_scoreless(rules: Rules, kind: str, score: int | None = None) -> bool:
    """Whether a turn of this kind (and score, for a play) counts towards the scoreless-turns
    limit. 002 counts turns that put no new tile down; 004 counts turns that score 0 points,
    so a play of two blanks for 0 counts there."""
    if kind == PLAY:
        return rules.end.scoreless_counts_zero_point_plays and score == 0
    if kind in (PASS, LOST_TURN):
        return True
    if kind == EXCHANGE:
        return rules.end.scoreless_counts_exchanges
    if kind == WITHDRAWN:
        return rules.end.scoreless_counts_withdrawn
    return False


def scoreless_end(rules: Rules, scoreless_in_a_row: int, bag: int | None = None) -> bool:
    """Six (or the ruleset's number of) scoreless turns in a row end the game; under 004 only
    once the bag is empty ("Tømmes posen, uden at nogen kan gå ud, slutter spillet efter seks
    pointløse ture i træk"). `bag` None: not known, so not checked."""
    limit = rules.end.scoreless_turns
    if rules.end.scoreless_needs_empty_bag and bag is not None and bag > 0:
        return False
    return bool(limit) and scoreless_in_a_row >= limit


def passes_end(rules: Rules, passes_in_a_row: int, players: int) -> bool:
    """DSF: "hvis begge spillere melder pas to gange i træk" (000 §4.8c, §5b) — each player
    passes twice in a row, so 4 passes with 2 players."""
    each = rules.end.passes_in_a_row_each
    return bool(each) and passes_in_a_row >= each * players


def out_ends_game(rules: Rules, turns_taken: list[int]) -> bool:
    """A player has gone out with the bag empty. SBNL ends only once both have had the same
    number of turns (003): if the starting player goes out, the other plays once more."""
    end = rules.end
    return end.out_with_empty_bag and (not end.equal_turns or len(set(turns_taken)) == 1)


def describe(rules: Rules, ending: str) -> str:
    """One line on how the game ended, for reports (`Said`: English, or a page's language)."""
    counts = {"scoreless": rules.end.scoreless_turns, "passes": rules.end.passes_in_a_row_each}
    return Said(f"ending_{ending}", n=counts.get(ending, 0))
