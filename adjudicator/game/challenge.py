"""What a challenge ruling does to the scores and the turn (docs/rules.md §6).

The ruleset names a consequence kind for "valid" and for "invalid"; this turns a kind into
points for the player who made the play, points for the challenger, and what happens to the
tiles and the turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.engine.plain import Plain
from adjudicator.game.rules import Rules


@dataclass(frozen=True)
class Outcome(Plain):
    kind: str
    player_points: int  # to the player whose play was challenged (or checked by the jury)
    challenger_points: int
    withdrawn: bool  # the tiles go back to the rack and the play scores nothing
    challenger_loses_turn: bool
    source: str


def outcome(
    rules: Rules, valid: bool, words: int = 1, turn_score: int = 0, free_challenge: bool = False
) -> Outcome:
    """`words`: how many words were challenged; `turn_score`: what the play scored;
    `free_challenge`: the home variant where a failed challenge costs nothing (004)."""
    rule = rules.challenge
    kind = (rule.valid if valid else rule.invalid).kind
    points = (rule.valid if valid else rule.invalid).points
    src = rule.source
    if kind == "challenger_loses_turn":
        if free_challenge and rule.free_challenge_option:
            return Outcome("none", 0, 0, False, False, src)
        return Outcome(kind, 0, 0, False, True, src)
    if kind == "challenger_penalty":
        return Outcome(kind, 0, -points, False, False, src)
    if kind == "player_bonus_per_word":
        return Outcome(kind, points * words, 0, False, False, src)
    if kind == "play_withdrawn":
        return Outcome(kind, -turn_score, 0, True, False, src)
    if kind == "turn_score_plus_penalty":
        # 003 "Strafpuntenregel": the letters stay ("definitief geplaatst"); the points go.
        return Outcome(kind, -(turn_score + points), 0, False, False, src)
    return Outcome("none", 0, 0, False, False, src)
