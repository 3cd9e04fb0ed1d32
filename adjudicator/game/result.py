"""The report of a walk over a record: every turn, how the game ended, the final scores.

The game state says how the game ended and who won (`GameState.results`, through
`final.winners`, the one place that decides it: a loss on time, SSF's minimum spread, shared
ties, as for `final-score`); this only puts the report together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adjudicator.engine.board import Board
from adjudicator.game import ending as end_rules
from adjudicator.game.kinds import PLAY
from adjudicator.game.turn import Turn

if TYPE_CHECKING:
    from adjudicator.game.walk import Walk


@dataclass
class GameReport:
    ruleset: str
    file: str
    language: str
    lexicon: str | None
    players: list[str]
    turns: list[Turn]
    recorded_totals: list[int]
    computed_totals: list[int]
    board: Board
    ended: str | None
    ending_text: str | None
    went_out: str | None
    final_scores: dict[str, int]
    winners: list[str]
    lost_on_time: list[str]
    challenges: list[dict[str, Any]]
    deviations_at_end: list[str]

    @property
    def scores_ok(self) -> bool:
        return all(t.ok for t in self.turns) and self.recorded_totals == self.computed_totals

    @property
    def score_disagreements(self) -> int:
        bad = sum(1 for t in self.turns if not t.ok)
        return bad + (self.recorded_totals != self.computed_totals)

    @property
    def rule_deviations(self) -> int:
        return sum(len(t.rule_deviations) for t in self.turns) + len(self.deviations_at_end)

    @property
    def ok(self) -> bool:
        return self.scores_ok and not self.rule_deviations

    @property
    def plays(self) -> int:
        return sum(1 for t in self.turns if t.kind == PLAY)

    @property
    def winner(self) -> str | None:
        return self.winners[0] if self.ended and len(self.winners) == 1 else None

    def _players(self) -> list[dict[str, Any]]:
        return [
            {"nick": p, "recorded_total": r, "computed_total": c}
            for p, r, c in zip(
                self.players, self.recorded_totals, self.computed_totals, strict=True
            )
        ]

    def to_dict(self, rules: bool = True) -> dict[str, Any]:
        """`rules=False`: the score side only (`adjudicator replay --no-rules`)."""
        if not rules:
            return {
                "file": self.file,
                "language": self.language,
                "lexicon": self.lexicon,
                "ok": self.scores_ok and not any(t.placement for t in self.turns),
                "players": self._players(),
                "turns": [t.to_dict(rules=False) for t in self.turns],
                "board": self.board.to_rows(),
            }
        return {
            "ruleset": self.ruleset,
            "file": self.file,
            "language": self.language,
            "lexicon": self.lexicon,
            "ok": self.ok,
            "score_disagreements": self.score_disagreements,
            "rule_deviations": self.rule_deviations,
            "players": self._players(),
            "turns": [t.to_dict() for t in self.turns],
            "challenges": self.challenges,
            "result": {
                "ended": self.ended is not None,
                "ending": self.ended,
                "ending_text": self.ending_text,
                "went_out": self.went_out,
                "final_scores": self.final_scores,
                "winner": self.winner,
                "winners": self.winners if self.ended else [],
                "tie": bool(self.ended) and len(self.winners) > 1,
                "leader": self.winners[0] if len(self.winners) == 1 else None,
                "lost_on_time": self.lost_on_time,
                "deviations": self.deviations_at_end,
            },
            "board": self.board.to_rows(),
        }


def build_report(w: Walk) -> GameReport:
    s, r = w.state, w.rules
    at_end = [
        f"the end-of-game line for {name} is missing"
        for i, name in enumerate(s.players)
        if s.ended and s.end_line_due(i)
    ]
    results, best = s.results()
    return GameReport(
        r.id,
        w.record.file,
        w.profile.code,
        w.lexicon.id if w.lexicon else None,
        list(s.players),
        w.turns,
        list(s.recorded),
        list(s.computed),
        w.board,
        s.ended,
        end_rules.describe(r, s.ended) if s.ended else None,
        s.players[s.went_out] if s.went_out is not None else None,
        {x.name: x.final_score for x in results},
        best,
        [s.players[i] for i in sorted(s.lost_on_time)],
        s.challenges,
        at_end,
    )
