"""One line of a game record as the walk saw it: the score (the engine's) and the rules (the
game's) side by side, so a score disagreement and a rule deviation stay apart in the report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.placement import PlacementError
from adjudicator.messages import Said


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
    errors: list[str] = field(default_factory=list)  # score-side remarks (an exchange's tiles)
    info: list[str] = field(default_factory=list)  # points taken as recorded, old styles
    # The words of a play that the lexicon lacks (None: no lexicon consulted, or not a play).
    # Kept apart from `info` so that the HTTP layer can pass it through the disclosure gate.
    not_in_lexicon: list[str] | None = None
    deviations: list[str] = field(default_factory=list)  # lines the ruleset does not allow
    # The engine's placement errors of a play (docs/rules.md §5): each is a rule deviation too,
    # kept with its code so that a page can say it in its own language.
    placement: list[PlacementError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the rules made of the line
    text: str = field(default="", repr=False)  # the line as written, for the text report

    # A remark is a sentence of the catalogue (`Said`), so that a page says it in its language.
    def deviate(self, key: str, **values: object) -> None:
        self.deviations.append(Said(key, **values))

    def note(self, key: str, **values: object) -> None:
        self.notes.append(Said(key, **values))

    def inform(self, key: str, **values: object) -> None:
        self.info.append(Said(key, **values))

    @property
    def ok(self) -> bool:
        """The score side: the turn's score and the running total agree (placement errors
        are rule deviations, `placement`)."""
        return self.score_ok and self.total_ok and not self.errors

    @property
    def placement_lines(self) -> list[str]:
        """The placement errors in English, each as `code: message` (as moves/validate)."""
        return [f"{e.code}: {e.message}" for e in self.placement]

    @property
    def rule_deviations(self) -> list[str]:
        """Every rule deviation of the line, in English: the placement errors first (in
        `placement_errors` order), then the ruleset's."""
        return self.placement_lines + self.deviations

    def to_dict(self, rules: bool = True) -> dict[str, Any]:
        """`rules=False`: the score side alone (`replay --no-rules`), which still names the
        placement errors (as `errors`), since it checks placement and scores."""
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
            "ok": self.ok if rules else self.ok and not self.placement,
            "score_ok": self.score_ok,
            "total_ok": self.total_ok,
            "words": self.words,
            "errors": self.errors if rules else self.placement_lines + self.errors,
            "info": self.info,
        }
        if self.not_in_lexicon is not None:  # a lexicon was consulted for this play
            out["not_in_lexicon"] = self.not_in_lexicon
        if rules:
            out |= {
                "bag": self.bag,
                "scoreless_in_a_row": self.scoreless_in_a_row,
                "rule_ok": not self.rule_deviations,
                "deviations": self.rule_deviations,
                "placement_errors": [e.to_dict() for e in self.placement],
                "rule_notes": self.notes,
            }
        return out
