"""Replay a game record move by move and compare every recorded score with the engine's.

A disagreement is a per-turn score that differs, a cumulative total that is not the previous
total plus the turn's score, or a play the placement rules refuse. Words missing from the
lexicon are reported as information only: real games contain phonies that went unchallenged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.api import apply_play, evaluate_move
from adjudicator.engine.board import Board
from adjudicator.engine.gcg import (
    CHALLENGE,
    END_RACK,
    EXCHANGE,
    PASS,
    PLAY,
    TIME,
    WITHDRAWN,
    Event,
    GameRecord,
    GcgError,
)
from adjudicator.engine.notation import NotationError, Play, parse_parts
from adjudicator.engine.placement import parse_rack
from adjudicator.engine.tiles import tileset
from adjudicator.engine.wordcheck import check_words
from lexicon.artifact import Lexicon
from lexicon.languages import LanguageProfile


@dataclass
class Turn:
    line: int
    player: str
    kind: str
    move: str
    recorded_score: int
    computed_score: int
    recorded_total: int
    computed_total: int
    score_ok: bool
    total_ok: bool
    notation: str | None = None
    words: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # disagreements (placement, rack)
    info: list[str] = field(default_factory=list)  # accepted-as-recorded bonuses, old styles
    # The words of a play that the lexicon lacks (None: no lexicon consulted, or not a play).
    # Kept apart from `info` so that the HTTP layer can pass it through the disclosure gate.
    not_in_lexicon: list[str] | None = None
    play: Play | None = field(default=None, repr=False)  # the play put on the board, if any

    @property
    def ok(self) -> bool:
        return self.score_ok and self.total_ok and not self.errors

    def to_dict(self) -> dict[str, Any]:
        out = {
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
        return out


@dataclass
class ReplayReport:
    file: str
    language: str
    lexicon: str | None
    players: list[str]
    turns: list[Turn]
    recorded_totals: list[int]
    computed_totals: list[int]
    board: Board

    @property
    def ok(self) -> bool:
        return all(t.ok for t in self.turns) and self.recorded_totals == self.computed_totals

    @property
    def plays(self) -> int:
        return sum(1 for t in self.turns if t.kind == PLAY)

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "language": self.language,
            "lexicon": self.lexicon,
            "ok": self.ok,
            "players": [
                {"nick": p, "recorded_total": r, "computed_total": c}
                for p, r, c in zip(
                    self.players, self.recorded_totals, self.computed_totals, strict=True
                )
            ],
            "turns": [t.to_dict() for t in self.turns],
            "board": self.board.to_rows(),
        }


def replay(
    record: GameRecord,
    profile: LanguageProfile,
    lexicon: Lexicon | None = None,
    end_factors: tuple[int, ...] = (1, 2),
) -> ReplayReport:
    """Replay all events. Raises GcgError (with file and line) for a move that is not
    notation at all; everything else becomes a turn in the report.

    `end_factors`: how many times a rack's value an end-of-game line may score (1 = WESPA
    style, 2 = NASPA style, where the player who went out gets twice the opponent's rack)."""
    board = Board()
    nicks = [p.nick for p in record.players]
    recorded = [0] * len(nicks)
    computed = [0] * len(nicks)
    turns: list[Turn] = []
    history: list[tuple[int, Play, int]] = []  # plays on the board: (player, play, score)

    for ev in record.events:
        if ev.player not in nicks:  # records without #player lines: first come, first listed
            nicks.append(ev.player)
            recorded.append(0)
            computed.append(0)
        p = nicks.index(ev.player)
        turn = Turn(
            ev.line, ev.player, ev.kind, _move_text(ev), ev.score, 0, ev.total, 0, True, True
        )
        if ev.kind == PLAY:
            _replay_play(ev, turn, board, profile, lexicon, history, p)
        elif ev.kind == WITHDRAWN:
            if not history or history[-1][0] != p:
                turn.errors.append("withdrawn, but this player's play is not the last one")
            else:
                _, play, score = history.pop()
                for t in play.tiles:
                    board.remove(t.row, t.col)
                turn.computed_score = -score
        elif ev.kind in (PASS, EXCHANGE):
            if ev.kind == EXCHANGE and ev.tiles and ev.rack:
                _check_subset(ev.tiles, ev.rack, profile, turn, "exchanged")
        elif ev.kind in (CHALLENGE, TIME):
            turn.computed_score = ev.score
            turn.info.append(f"{ev.kind} points taken as recorded ({ev.score:+d})")
        elif ev.kind == END_RACK:
            _replay_end_rack(ev, turn, profile, end_factors)
        else:  # pragma: no cover - the reader produces only the kinds above
            raise GcgError(f"unknown event kind {ev.kind!r}", record.file, ev.line)
        turn.score_ok = turn.computed_score == ev.score
        turn.total_ok = recorded[p] + ev.score == ev.total
        if (
            ev.kind == WITHDRAWN
            and ev.score == 0
            and turn.computed_score
            and recorded[p] + turn.computed_score == ev.total
        ):
            # Old records (WSC 2001) write a withdrawal as +0 and revert the total.
            turn.score_ok = turn.total_ok = True
            turn.info.append("withdrawal written as +0 with the total reverted (old style)")
        recorded[p] = ev.total  # follow the record, so one slip is reported once
        computed[p] += turn.computed_score
        turn.computed_total = computed[p]
        turns.append(turn)
    lexicon_id = lexicon.id if lexicon else None
    return ReplayReport(
        record.file, profile.code, lexicon_id, nicks, turns, recorded, computed, board
    )


def _move_text(ev: Event) -> str:
    if ev.kind == PLAY:
        return f"{ev.coordinate} {ev.word}"
    if ev.kind == EXCHANGE:
        return f"-{ev.tiles or ev.count}"
    if ev.kind == PASS:
        return "-"
    if ev.kind == WITHDRAWN:
        return "--"
    if ev.kind == END_RACK:
        return f"({ev.tiles})"
    return f"({ev.kind})"


def _replay_play(
    ev: Event,
    turn: Turn,
    board: Board,
    profile: LanguageProfile,
    lexicon: Lexicon | None,
    history: list[tuple[int, Play, int]],
    p: int,
) -> None:
    try:
        play = parse_parts(ev.coordinate or "", ev.word or "", profile, board)
    except NotationError as exc:
        raise GcgError(str(exc), None, ev.line) from None
    result = evaluate_move(profile, board, play, rack=ev.rack)
    turn.computed_score = result.score
    turn.notation = result.notation
    turn.words = [sw.word.display for sw in result.words]
    turn.errors.extend(f"{e.code}: {e.message}" for e in result.errors)
    if lexicon is not None:
        verdicts = check_words(lexicon, [sw.word for sw in result.words])  # every word
        turn.not_in_lexicon = [v.word for v in verdicts if not v.valid]
    if result.words:  # geometry sound: the tiles go on the board
        apply_play(board, play)
        history.append((p, play, result.score))
        turn.play = play


def _check_subset(tiles: str, rack: str, profile: LanguageProfile, turn: Turn, what: str) -> None:
    have, _ = parse_rack(rack, profile)
    need, bad = parse_rack(tiles, profile)
    for ch in bad:
        turn.errors.append(f"{what} tile {ch!r} is not a tile of the language")
    for key, k in need.items():
        if have.get(key, 0) < k:
            turn.errors.append(f"{what} {key} is not on the rack {rack}")


def _replay_end_rack(
    ev: Event, turn: Turn, profile: LanguageProfile, end_factors: tuple[int, ...]
) -> None:
    tiles = ev.tiles or ""
    counts, bad = parse_rack(tiles, profile)
    for ch in bad:
        turn.errors.append(f"end rack holds {ch!r}, which is not a tile")
    value = sum(tileset(profile).values.get(k, 0) * n for k, n in counts.items())
    sign = -1 if ev.score < 0 else 1
    candidates = [sign * f * value for f in end_factors]
    turn.computed_score = ev.score if ev.score in candidates else candidates[-1]
    if ev.score in candidates and value:
        factor = abs(ev.score) // value
        turn.info.append(f"rack {tiles} is worth {value}; recorded as {sign * factor:+d}×")


def positions(record: GameRecord, profile: LanguageProfile) -> list[tuple[Board, Play]]:
    """(board before, play) for every play of a record, withdrawn ones included; for
    benchmarks and property tests that need real positions."""
    board = Board()
    out: list[tuple[Board, Play]] = []
    placed: list[Play] = []
    for ev in record.events:
        if ev.kind == WITHDRAWN and placed:
            for t in placed.pop().tiles:
                board.remove(t.row, t.col)
        if ev.kind != PLAY:
            continue
        try:
            play = parse_parts(ev.coordinate or "", ev.word or "", profile, board)
        except NotationError as exc:
            raise GcgError(str(exc), record.file, ev.line) from None
        out.append((board.copy(), play))
        if evaluate_move(profile, board, play).words:
            apply_play(board, play)
            placed.append(play)
    return out
