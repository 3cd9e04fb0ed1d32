"""One line of a game record as the walk saw it: the score (the engine's) and the rules (the
game's) side by side, so a score disagreement and a rule deviation stay apart in the report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.notation import Play


@dataclass
class Turn:
    line: int
    player: str
    kind: str
    move: str
    recorded_score: int
    recorded_total: int
    bag: int  # tiles in the bag after the line
    scoreless_in_a_row: int
    computed_score: int = 0
    computed_total: int = 0
    score_ok: bool = True
    total_ok: bool = True
    notation: str | None = None
    words: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # score disagreements (placement, rack)
    info: list[str] = field(default_factory=list)  # points taken as recorded, old styles
    # The words of a play that the lexicon lacks (None: no lexicon consulted, or not a play).
    # Kept apart from `info` so that the HTTP layer can pass it through the disclosure gate.
    not_in_lexicon: list[str] | None = None
    deviations: list[str] = field(default_factory=list)  # lines the ruleset does not allow
    notes: list[str] = field(default_factory=list)  # what the rules made of the line
    play: Play | None = field(default=None, repr=False)  # the play put on the board, if any
    text: str = field(default="", repr=False)  # the line as written, for the text report

    @property
    def ok(self) -> bool:
        """The score side: the turn's score, the running total and the placement agree."""
        return self.score_ok and self.total_ok and not self.errors

    def to_dict(self, rules: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "line": self.line,
            "player": self.player,
            "kind": self.kind,
            "move": self.move,
            "notation": self.notation,
            "recorded_score": self.recorded_score,
            "computed_score": self.computed_score,
            "recorded_total": self.recorded_total,
            "computed_total": self.computed_total,
            "ok": self.ok,
            "score_ok": self.score_ok,
            "total_ok": self.total_ok,
            "words": self.words,
            "errors": self.errors,
            "info": self.info,
        }
        if self.not_in_lexicon is not None:  # a lexicon was consulted for this play
            out["not_in_lexicon"] = self.not_in_lexicon
        if rules:
            out |= {
                "bag": self.bag,
                "scoreless_in_a_row": self.scoreless_in_a_row,
                "rule_ok": not self.deviations,
                "deviations": self.deviations,
                "rule_notes": self.notes,
            }
        return out
