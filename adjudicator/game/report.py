"""The report of a walk over a record: each line as the walk saw it (`Turn`), the whole game
(`GameReport`: every turn, how the game ended, the final scores) and the text report of
`adjudicator replay`, with score disagreements and rule deviations in separate parts.

A `Turn` holds the score (the engine's) and the rules (the game's) side by side, so a score
disagreement and a rule deviation stay apart. The game state says how the game ended and who
won (`GameState.results`, through `final.winners`, the one place that decides it: a loss on
time, SSF's minimum spread, shared ties, as for `final-score`); the walk only puts the report
together (`Walk.report`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.board import Board
from adjudicator.engine.placement import PlacementError
from adjudicator.game.kinds import PLAY
from adjudicator.messages import Said


@dataclass
class Turn:
    line: int
    player: str
    kind: str
    move: str
    recorded_score: int
    recorded_total: int
    bag: int = 0  # tiles in the bag after the line
    scoreless_in_a_row: int = 0  # … and scoreless turns in a row then
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
    restarts: list[dict[str, Any]]  # restarts the record states (003 Verloop van het spel)

    @property
    def scores_ok(self) -> bool:
        return not self.score_disagreements

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

    def to_dict(self, rules: bool = True) -> dict[str, Any]:
        """`rules=False`: the score side only (`adjudicator replay --no-rules`)."""
        head = {"file": self.file, "language": self.language, "lexicon": self.lexicon}
        totals = zip(self.players, self.recorded_totals, self.computed_totals, strict=True)
        players = [{"nick": p, "recorded_total": r, "computed_total": c} for p, r, c in totals]
        turns, board = [t.to_dict(rules) for t in self.turns], self.board.to_rows()
        if not rules:
            ok = self.scores_ok and not any(t.placement for t in self.turns)
            return {**head, "ok": ok, "players": players, "turns": turns, "board": board}
        return {
            "ruleset": self.ruleset,
            **head,
            "ok": self.ok,
            "score_disagreements": self.score_disagreements,
            "rule_deviations": self.rule_deviations,
            "players": players,
            "turns": turns,
            "challenges": self.challenges,
            **({"restarts": self.restarts} if self.restarts else {}),  # only where one is stated
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
            "board": board,
        }


def print_scores(report: GameReport, end: str = "\n\n") -> None:
    """The score part of `adjudicator replay`: recorded and computed score of every line."""
    lex = report.lexicon or "none"
    print(f"{report.file}  (language {report.language}, lexicon {lex})")
    print(f"{'line':>5}  {'player':<12} {'move':<20} {'rec':>5} {'calc':>5}  {'total':>11}  ")
    for t in report.turns:
        mark = "ok" if t.ok else "DIFFERS"
        totals = f"{t.recorded_total}/{t.computed_total}"
        print(
            f"{t.line:>5}  {t.player[:12]:<12} {t.move[:20]:<20} {t.recorded_score:>+5} "
            f"{t.computed_score:>+5}  {totals:>11}  {mark}"
        )
        if not t.total_ok:
            print("       ! the recorded total is not the previous total plus this score")
        for e in t.placement_lines + t.errors:
            print(f"       ! {e}")
        for i in t.info:
            print(f"       i {i}")
        for word in t.not_in_lexicon or ():  # the maintainer's own listing, never over HTTP
            print(f"       i not in {report.lexicon}: {word}")
    for nick, rec, calc in zip(
        report.players, report.recorded_totals, report.computed_totals, strict=True
    ):
        verdict = "agree" if rec == calc else "DIFFER"
        print(f"  {nick}: recorded {rec}, computed {calc}: {verdict}")
    bad = sum(1 for t in report.turns if not t.ok)
    print(f"  {len(report.turns)} turns, {report.plays} plays, {bad} disagreement(s)", end=end)


def print_rules(report: GameReport) -> None:
    """The rules part of `adjudicator replay`."""
    print(f"  rules ({report.ruleset}):")
    for turn in report.turns:
        for d in turn.rule_deviations:
            print(f"{turn.line:>5}  {turn.player[:12]:<12} {turn.text[:40]:<40} ! {d}")
    for d in report.deviations_at_end:
        print(f"{'end':>5}  ! {d}")
    if not report.rule_deviations:
        print("       every exchange, pass, challenge, withdrawal and end line follows the rules")
    for restart in report.restarts:  # allowed or not, the board and scores start again there
        print(
            f"  restarted after line {restart['line']}: {restart['turns_voided']} turn(s) left out"
        )
    scores = ", ".join(f"{name} {total}" for name, total in report.final_scores.items())
    if report.ended:
        print(f"  game over: {report.ending_text}")
        if report.lost_on_time:
            print(f"  lost on time: {', '.join(report.lost_on_time)}")
        result = (
            f"winner {report.winner}"
            if report.winner
            else f"tie between {' and '.join(report.winners)}"
        )
        print(f"  final scores: {scores}; {result}")
    else:
        print(f"  the record stops before the end of the game; scores so far: {scores}")
    print(
        f"  {report.score_disagreements} score disagreement(s), "
        f"{report.rule_deviations} rule deviation(s)\n"
    )
