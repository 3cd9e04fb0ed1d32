"""A typed view of a ruleset's rule sections, so the rule functions read names, not dict keys.

Built from `Ruleset.data` (already checked by `adjudicator.rulesets`); optional fields get
their defaults here, in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Verdict:
    """A yes/no answer with the reason and the source section it rests on (docs/rules.md §1)."""

    allowed: bool
    code: str
    reason: str
    source: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "allowed": self.allowed,
            "code": self.code,
            "reason": self.reason,
            "source": self.source,
        }


@dataclass(frozen=True)
class ExchangeRule:
    min_bag: int
    opening_turns: int  # SBNL: in a player's first N turns an exchange needs nothing else…
    opening_in_a_row: bool  # …as long as all of them were exchanges (003 "achter elkaar")
    later_requires_previous_placement: bool
    later_max_in_a_row: int  # 0 = no limit
    source: str


@dataclass(frozen=True)
class EndRule:
    out_with_empty_bag: bool
    passes_in_a_row_each: int  # DSF: 2 → both pass twice in a row (4 passes with 2 players)
    scoreless_turns: int  # 0 = no such rule
    scoreless_counts_withdrawn: bool
    scoreless_counts_exchanges: bool
    scoreless_needs_empty_bag: bool  # 004: only once the bag is empty
    scoreless_counts_zero_point_plays: bool  # 004 counts turns that score 0, plays included
    equal_turns: bool  # SBNL: the game ends when a player is out AND turns are equal
    stuck_player_sits_out: bool  # SBNL: who can neither place nor exchange sits out for good
    point_target_option: bool
    overtime_ends_game: bool
    time_up: bool
    blocked: bool
    source: str


@dataclass(frozen=True)
class FinalRule:
    own_rack_factor: int  # when someone went out: others lose this × their own rack
    out_gains_factor: int  # … and the one who went out gains this × the others' racks
    scoreless_own_rack_factor: int  # any other ending: each loses this × own rack
    source: str


@dataclass(frozen=True)
class ClockRule:
    minutes: int
    shared: bool
    penalty_per_started_minute: int
    loss_after_minutes: int  # 0 = no loss on time
    loss_when: str  # "more_than" (DSF: more than 5) or "at_least" (SSF: 15 minutes)
    loss_min_spread: int
    source: str


@dataclass(frozen=True)
class ChallengeRule:
    mode: str
    valid_kind: str
    valid_points: int
    invalid_kind: str
    invalid_points: int
    free_challenge_option: bool
    source: str


@dataclass(frozen=True)
class DrawRule:
    """Who starts (docs/rules.md §12)."""

    blank: str  # "beats_all" (004) or "not_counted": drawn again (003)
    nearest: str  # "start": nearest A wins (000 §3.3a, 003); "end": nearest the last letter
    nearest_option: bool  # dk-home: a request may take the other reading of 004's "højeste"
    given_winner_option: bool  # SSF: 002 names no draw method, so the winner may be given
    winner_chooses: bool  # SSF: the winner chooses between `choices` (002)
    choices: tuple[str, ...]
    tiles_go_back: bool
    source: str


@dataclass(frozen=True)
class OverdrawRule:
    """What is done with a player who drew too many tiles (docs/rules.md §13)."""

    text: dict[str, str]  # in the ruleset's language and English
    source: str


@dataclass(frozen=True)
class Rules:
    ruleset_id: str
    language: str
    max_players: int
    pass_allowed: bool
    pass_source: str
    exchange: ExchangeRule
    end: EndRule
    final: FinalRule
    clock: ClockRule
    challenge: ChallengeRule
    draw: DrawRule
    overdraw: OverdrawRule

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Rules:
        ex, end, fin, clk, ch = (
            data["exchange"],
            data["end"],
            data["final"],
            data["clock"],
            data["challenge"],
        )
        rid = data["id"]
        draw, over = data.get("draw", {}), data.get("overdraw", {})
        return cls(
            ruleset_id=rid,
            language=data["language"],
            max_players=data.get("max_players", 2),
            pass_allowed=data["pass"]["allowed"],
            pass_source=data["pass"].get("source", rid),
            exchange=ExchangeRule(
                min_bag=ex["min_bag"],
                opening_turns=ex.get("opening_turns", 0),
                opening_in_a_row=ex.get("opening_in_a_row", False),
                later_requires_previous_placement=ex.get(
                    "later_requires_previous_placement", False
                ),
                later_max_in_a_row=ex.get("later_max_in_a_row", 0),
                source=ex.get("source", rid),
            ),
            end=EndRule(
                out_with_empty_bag=end["out_with_empty_bag"],
                passes_in_a_row_each=end["passes_in_a_row_each"],
                scoreless_turns=end["scoreless_turns"],
                scoreless_counts_withdrawn=end.get("scoreless_counts_withdrawn", True),
                scoreless_counts_exchanges=end.get("scoreless_counts_exchanges", True),
                scoreless_needs_empty_bag=end.get("scoreless_needs_empty_bag", False),
                scoreless_counts_zero_point_plays=end.get(
                    "scoreless_counts_zero_point_plays", False
                ),
                equal_turns=end.get("equal_turns", False),
                stuck_player_sits_out=end.get("stuck_player_sits_out", False),
                point_target_option=end.get("point_target_option", False),
                overtime_ends_game=end.get("overtime_ends_game", False),
                time_up=end.get("time_up", False),
                blocked=end.get("blocked", False),
                source=end.get("source", rid),
            ),
            final=FinalRule(
                own_rack_factor=fin["own_rack_factor"],
                out_gains_factor=fin["out_gains_factor"],
                scoreless_own_rack_factor=fin["scoreless_own_rack_factor"],
                source=fin.get("source", rid),
            ),
            clock=ClockRule(
                minutes=clk["minutes"],
                shared=clk.get("shared_clock", False),
                penalty_per_started_minute=clk["penalty_per_started_minute"],
                loss_after_minutes=clk["loss_after_minutes"],
                loss_when=clk.get("loss_when", "more_than"),
                loss_min_spread=clk["loss_min_spread"],
                source=clk.get("source", rid),
            ),
            challenge=ChallengeRule(
                mode=ch["mode"],
                valid_kind=ch["valid"]["kind"],
                valid_points=ch["valid"]["points"],
                invalid_kind=ch["invalid"]["kind"],
                invalid_points=ch["invalid"]["points"],
                free_challenge_option=ch.get("free_challenge_option", False),
                source=ch.get("source", rid),
            ),
            draw=DrawRule(
                blank=draw.get("blank", "beats_all"),
                nearest=draw.get("nearest", "start"),
                nearest_option=draw.get("nearest_option", False),
                given_winner_option=draw.get("given_winner_option", False),
                winner_chooses=draw.get("winner_chooses", False),
                choices=tuple(draw.get("choices", ())),
                tiles_go_back=draw.get("tiles_go_back", True),
                source=draw.get("source", rid),
            ),
            overdraw=OverdrawRule(text=dict(over.get("text", {})), source=over.get("source", rid)),
        )

    def endings(self) -> list[str]:
        """The ways a game can end under these rules (the `ending` values final-score takes)."""
        found = ["out"] if self.end.out_with_empty_bag else []
        if self.end.scoreless_turns:
            found.append("scoreless")
        if self.end.passes_in_a_row_each:
            found.append("passes")
        if self.end.time_up:
            found.append("time_up")
        if self.end.blocked:
            found.append("blocked")
        if self.end.overtime_ends_game:
            found.append("overtime")
        if self.end.point_target_option:
            found.append("point_target")
        return found
