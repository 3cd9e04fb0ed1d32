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

    @property
    def points(self) -> int:
        """The size of what the ruling moves, whichever player it moves it for."""
        return abs(self.player_points) or abs(self.challenger_points)


def outcome(
    rules: Rules, valid: bool, words: int = 1, turn_score: int = 0, free_challenge: bool = False
) -> Outcome:
    """`words`: how many words were challenged; `turn_score`: what the play scored;
    `free_challenge`: the home variant where a failed challenge costs nothing (004)."""
    rule = rules.challenge
    consequence = rule.valid if valid else rule.invalid
    kind, points = consequence.kind, consequence.points
    if kind == "challenger_loses_turn" and free_challenge and rule.free_challenge_option:
        kind = "none"
    # Each kind's player points, challenger points, withdrawn, challenger loses the turn.
    effects = {
        "challenger_loses_turn": (0, 0, False, True),
        "challenger_penalty": (0, -points, False, False),
        "player_bonus_per_word": (points * words, 0, False, False),
        "play_withdrawn": (-turn_score, 0, True, False),
        # 003 "Strafpuntenregel": the letters stay ("definitief geplaatst"); the points go.
        "turn_score_plus_penalty": (-(turn_score + points), 0, False, False),
    }
    return Outcome(kind, *effects.get(kind, (0, 0, False, False)), rule.source)
