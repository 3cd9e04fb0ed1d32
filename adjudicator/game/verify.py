"""Check a whole game record against a ruleset: every non-play line, the ending, the winner.

The engine's replay answers "do the scores add up"; this answers "was each turn allowed, and is
the game over": exchanges given the bag (and SBNL's turn history), passes, challenge lines,
withdrawn phonies, end-of-game lines and time penalties. The two answers stay apart in the
report: a score disagreement is not a rule deviation.

GCG has no line for some rulings, so these conventions are read (RECORDS.md has the table):
- `(challenge) +N` by the player who made the last play: a bonus for a valid play challenged
  (WESPA, NASPA Collins division: 5 per word);
- `(challenge) -10` by the other player: SSF's penalty for a failed challenge;
- `(challenge) +0` by the other player: a failed challenge that cost the challenger the turn
  (DSF, NASPA, home; a pass line is read the same way in NASPA records);
- `(challenge) -N` by the player who made an earlier play: SBNL's jury penalty, the turn's
  points plus 20 (003 Strafpuntenregel); the tiles stay on the board.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

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
)
from adjudicator.engine.replay import ReplayReport, Turn, replay
from adjudicator.game import ending as end_rules
from adjudicator.game.exchange import exchange_allowed
from adjudicator.game.model import GameState, tile_key, unseen_tiles
from adjudicator.game.racks import RackError, check_within_set, parse_rack, rack_text, rack_value
from adjudicator.game.rules import Rules
from lexicon.artifact import Lexicon
from lexicon.languages import LanguageProfile


@dataclass
class RuleCheck:
    """The rule verdicts on one line of the record."""

    line: int
    player: str
    kind: str
    move: str
    bag: int  # tiles in the bag after the line
    scoreless_in_a_row: int
    deviations: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "player": self.player,
            "kind": self.kind,
            "move": self.move,
            "bag": self.bag,
            "scoreless_in_a_row": self.scoreless_in_a_row,
            "deviations": self.deviations,
            "notes": self.notes,
        }


@dataclass
class GameVerdict:
    ruleset: str
    scores: ReplayReport
    checks: list[RuleCheck]
    ended: str | None
    ending_text: str | None
    went_out: str | None
    final_scores: dict[str, int]
    winners: list[str]
    lost_on_time: list[str]
    challenges: list[dict[str, Any]]
    deviations_at_end: list[str]

    @property
    def score_disagreements(self) -> int:
        bad = sum(1 for t in self.scores.turns if not t.ok)
        return bad + (self.scores.recorded_totals != self.scores.computed_totals)

    @property
    def rule_deviations(self) -> int:
        return sum(len(c.deviations) for c in self.checks) + len(self.deviations_at_end)

    @property
    def ok(self) -> bool:
        return self.scores.ok and not self.rule_deviations

    @property
    def winner(self) -> str | None:
        return self.winners[0] if self.ended and len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        scores = self.scores.to_dict()
        checks = {c.line: c for c in self.checks}
        turns = []
        for t in scores["turns"]:
            c = checks[t["line"]]
            turns.append(
                {
                    **t,
                    "bag": c.bag,
                    "scoreless_in_a_row": c.scoreless_in_a_row,
                    "rule_ok": not c.deviations,
                    "deviations": c.deviations,
                    "rule_notes": c.notes,
                }
            )
        return {
            "ruleset": self.ruleset,
            "file": scores["file"],
            "language": scores["language"],
            "lexicon": scores["lexicon"],
            "ok": self.ok,
            "score_disagreements": self.score_disagreements,
            "rule_deviations": self.rule_deviations,
            "players": scores["players"],
            "turns": turns,
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
            "board": scores["board"],
        }


def verify(
    record: GameRecord,
    rules: Rules,
    profile: LanguageProfile,
    lexicon: Lexicon | None = None,
) -> GameVerdict:
    """Replay `record` for scores (the engine) and for the rules (here). GcgError only for a
    move that is not notation at all."""
    factors = tuple(
        f for f in (rules.final.out_gains_factor, rules.final.own_rack_factor) if f
    ) or (1,)
    factors = tuple(sorted(set(factors) | {rules.final.scoreless_own_rack_factor or 1}))
    scores = replay(record, profile, lexicon, end_factors=factors)
    checker = _Checker(rules, profile, scores.players)
    for ev, turn in zip(record.events, scores.turns, strict=True):
        checker.event(ev, turn)  # the replay has placed each play; the checker reads it
    return checker.verdict(scores)


class _Checker:
    def __init__(self, rules: Rules, profile: LanguageProfile, players: list[str]):
        self.rules, self.profile = rules, profile
        self.state = GameState.new(players, profile)
        self.checks: list[RuleCheck] = []
        self.end_lines: dict[int, Event] = {}
        self.previous: Event | None = None
        self.at_end: list[str] = []

    # --- one event ------------------------------------------------------------------------

    def event(self, ev: Event, turn: Turn) -> None:
        s = self.state
        p = s.players.index(ev.player)
        check = RuleCheck(ev.line, ev.player, ev.kind, ev.text, s.bag, s.scoreless)
        self._check_rack(ev, p, check)
        if ev.kind in (PLAY, PASS, EXCHANGE):
            self._turn_order(p, check)
        if ev.kind == PLAY:
            self._play(ev, p, check, turn)
        else:
            handler = {
                PASS: self._pass,
                EXCHANGE: self._exchange,
                WITHDRAWN: self._withdrawn,
                CHALLENGE: self._challenge,
                TIME: self._time,
                END_RACK: self._end_rack,
            }[ev.kind]
            handler(ev, p, check)
        if ev.kind != PLAY:
            s.last_event_play = None
        check.bag, check.scoreless_in_a_row = s.bag, s.scoreless
        self.checks.append(check)
        self.previous = ev

    def _turn_order(self, p: int, check: RuleCheck) -> None:
        s = self.state
        if s.ended:
            check.deviations.append(
                f"a turn after the game ended ({end_rules.describe(self.rules, s.ended)})"
            )
        elif s.to_move is not None and p != s.to_move:
            check.deviations.append(f"not {s.players[p]}'s turn: {s.players[s.to_move]} was due")

    def _after_turn(self, p: int, kind: str) -> None:
        """Counters and the end of the game, after a turn of `kind` by player p."""
        s, r = self.state, self.rules
        s.turns_taken[p] += 1
        s.previous_placed[p] = kind == end_rules.PLAY
        s.to_move = s.next_player(p)
        if kind == end_rules.PLAY:
            s.scoreless = 0
        elif end_rules.is_scoreless(r, kind):
            s.scoreless += 1
        s.passes = s.passes + 1 if kind == end_rules.PASS else 0
        if s.ended:
            return
        if s.pending_out is not None and end_rules.out_ends_game(r, s.turns_taken):
            s.ended, s.went_out, s.pending_out = "out", s.pending_out, None
        elif end_rules.passes_end(r, s.passes, len(s.players)):
            s.ended = "passes"
        elif end_rules.scoreless_end(r, s.scoreless):
            s.ended = "scoreless"

    def _check_rack(self, ev: Event, p: int, check: RuleCheck) -> None:
        """A rack shown on the line must fit the tile set with the board, and hold no more
        tiles than the player has."""
        if ev.rack is None or ev.kind in (CHALLENGE, TIME, END_RACK, WITHDRAWN):
            return  # a withdrawal repeats the rack of the play it takes back
        try:
            tiles = parse_rack(self.profile, ev.rack)
            check_within_set(self.profile, [("the board", self.state.board), ("the rack", tiles)])
        except RackError as exc:
            check.deviations.append(f"rack {ev.rack}: {exc.message}")
            return
        expected = self.state.rack_size[p]
        # Fewer tiles is a partial rack (an annotator sees only what the opponent plays).
        if sum(tiles.values()) > expected and not self.state.ended:
            check.deviations.append(
                f"rack {ev.rack} has {sum(tiles.values())} tiles; {ev.player} holds {expected}"
                f" ({self.state.bag} in the bag)"
            )

    # --- turns ------------------------------------------------------------------------------

    def _play(self, ev: Event, p: int, check: RuleCheck, turn: Turn) -> None:
        s = self.state
        play = turn.play
        if play is None:  # the engine reports the placement; nothing reached the board
            check.notes.append("the play cannot be placed; the rules check goes on without it")
            s.last_event_play = None
            self._after_turn(p, end_rules.PASS)
            return
        tiles = Counter(tile_key(t.letter, t.blank) for t in play.tiles)
        record = s.place(p, tiles, len(turn.words), turn.computed_score, ev.line)
        s.last_event_play = record
        if s.rack_size[p] == 0 and s.bag == 0 and not s.ended:
            s.pending_out = p
        self._after_turn(p, end_rules.PLAY)
        if s.ended == "out":
            check.notes.append(f"{ev.player} went out: the game is over")
        elif s.pending_out == p:
            check.notes.append(
                f"{ev.player} is out; the game ends when both have had as many turns"
                f" ({self.rules.end.source})"
            )

    def _pass(self, ev: Event, p: int, check: RuleCheck) -> None:
        lost_turn = self._after_opponent_play(p)
        verdict = end_rules.pass_allowed(self.rules)
        if not verdict.allowed:
            check.deviations.append(f"{verdict.reason} ({verdict.source})")
        if lost_turn and self.rules.challenge.valid_kind == "challenger_loses_turn":
            check.notes.append("a pass after a play: also how a failed challenge is recorded")
        self._after_turn(p, end_rules.PASS)
        self._note_end(check)

    def _exchange(self, ev: Event, p: int, check: RuleCheck) -> None:
        s = self.state
        verdict = exchange_allowed(
            self.rules,
            s.bag,
            turn=s.turns_taken[p] + 1,
            previous_placed=s.previous_placed[p],
        )
        if not verdict.allowed:
            check.deviations.append(f"exchange not allowed: {verdict.reason} ({verdict.source})")
        elif ev.count is not None and ev.count > s.bag:
            check.deviations.append(f"{ev.count} tiles swapped with {s.bag} in the bag")
        self._after_turn(p, end_rules.EXCHANGE)
        self._note_end(check)

    def _withdrawn(self, ev: Event, p: int, check: RuleCheck) -> None:
        s = self.state
        record = s.last_event_play
        if record is None or record.player != p:
            check.deviations.append("a withdrawn play must follow the player's own play at once")
            return
        if self.rules.challenge.invalid_kind != "play_withdrawn":
            check.deviations.append(
                f"under {self.rules.ruleset_id} a wrong word is not taken back: "
                f"{self.rules.challenge.invalid_kind.replace('_', ' ')} "
                f"({self.rules.challenge.source})"
            )
        turns = s.turns_taken[p]
        s.withdraw(record)
        s.turns_taken[p] = turns - 1  # _after_turn counts the turn again, as withdrawn
        s.challenges.append(
            {
                "line": ev.line,
                "player": ev.player,
                "challenger": s.players[s.next_player(p)],
                "valid": False,
                "consequence": "play_withdrawn",
                "points": -record.score,
            }
        )
        self._after_turn(p, end_rules.WITHDRAWN)
        self._note_end(check)

    def _note_end(self, check: RuleCheck) -> None:
        s = self.state
        if s.ended and s.ended != "out":
            check.notes.append(f"the game is over: {end_rules.describe(self.rules, s.ended)}")

    def _after_opponent_play(self, p: int) -> bool:
        prev = self.previous
        return prev is not None and prev.kind == PLAY and prev.player != self.state.players[p]

    # --- lines that are not turns --------------------------------------------------------

    def _challenge(self, ev: Event, p: int, check: RuleCheck) -> None:
        s, ch = self.state, self.rules.challenge
        src = ch.source
        last = s.last_event_play
        entry: dict[str, Any] = {"line": ev.line, "points": ev.score}
        if ev.score < 0 and ch.invalid_kind == "turn_score_plus_penalty":
            entry |= {"player": ev.player, "challenger": "jury", "valid": False}
            entry["consequence"] = "turn_score_plus_penalty"
            match = next(
                (
                    r
                    for r in reversed(s.plays)
                    if r.player == p
                    and not r.penalised
                    and -(r.score + ch.invalid_points) == ev.score
                ),
                None,
            )
            if match is None:
                check.deviations.append(
                    f"a penalty of {ev.score:+d}: it must be a play's score plus"
                    f" {ch.invalid_points}, and no play of {ev.player} scored"
                    f" {-ev.score - ch.invalid_points} ({src})"
                )
            else:
                match.penalised = True
                check.notes.append(
                    f"the play on line {match.line} ({match.score}) had a wrong word:"
                    f" −{match.score} − {ch.invalid_points} ({src})"
                )
        elif last is not None and last.player == p and ev.score > 0:
            # a valid play challenged earns its player a bonus
            entry |= {"player": ev.player, "challenger": s.players[s.next_player(p)]}
            entry |= {"valid": True, "consequence": "player_bonus_per_word"}
            if ch.valid_kind != "player_bonus_per_word":
                check.deviations.append(
                    f"a challenge bonus of {ev.score:+d}, but under {self.rules.ruleset_id} a"
                    f" valid play challenged means: {ch.valid_kind.replace('_', ' ')} ({src})"
                )
            elif ev.score % ch.valid_points or ev.score > ch.valid_points * last.words:
                check.deviations.append(
                    f"a challenge bonus is {ch.valid_points} per word challenged; the play formed"
                    f" {last.words} word(s), so {ev.score:+d} cannot be right ({src})"
                )
            else:
                check.notes.append(
                    f"{ev.score // ch.valid_points} word(s) challenged and found valid"
                )
        elif last is not None and last.player != p and ev.score <= 0:
            # the challenger failed
            entry |= {"player": s.players[last.player], "challenger": ev.player, "valid": True}
            if ev.score < 0:
                entry["consequence"] = "challenger_penalty"
                if ch.valid_kind != "challenger_penalty" or ev.score != -ch.valid_points:
                    check.deviations.append(
                        f"a failed challenge recorded as {ev.score:+d}, but under "
                        f"{self.rules.ruleset_id}: {ch.valid_kind.replace('_', ' ')}"
                        f"{f' {ch.valid_points}' if ch.valid_points else ''} ({src})"
                    )
            else:
                entry["consequence"] = "challenger_loses_turn"
                if ch.valid_kind != "challenger_loses_turn":
                    check.deviations.append(
                        f"a failed challenge that cost the turn, but under "
                        f"{self.rules.ruleset_id}: {ch.valid_kind.replace('_', ' ')} ({src})"
                    )
                self._turn_order(p, check)
                self._after_turn(p, end_rules.LOST_TURN)
                check.notes.append(f"{ev.player} challenged and lost the turn")
        else:
            entry |= {"player": ev.player, "valid": None, "consequence": "unknown"}
            check.deviations.append(
                f"a challenge line of {ev.score:+d} that fits no challenge rule of"
                f" {self.rules.ruleset_id} here ({src})"
            )
        s.challenges.append(entry)
        if s.last_event_play is not None and ev.score > 0:
            self.state.last_event_play = s.last_event_play  # more bonus lines may follow

    def _time(self, ev: Event, p: int, check: RuleCheck) -> None:
        clock = self.rules.clock
        per = clock.penalty_per_started_minute
        if not per:
            check.deviations.append(
                f"a time penalty, but {self.rules.ruleset_id} has none ({clock.source})"
            )
            return
        if ev.score >= 0 or ev.score % per:
            check.deviations.append(
                f"a time penalty is {per} points per started minute, not {ev.score:+d}"
                f" ({clock.source})"
            )
            return
        started = -ev.score // per
        check.notes.append(f"{started} started minute(s) over")
        limit = clock.loss_after_minutes
        if limit and started > limit:
            self.state.lost_on_time.add(p)
            check.notes.append(f"more than {limit} minutes over: the game is lost ({clock.source})")
        elif limit and clock.loss_when == "at_least" and started == limit:
            check.notes.append(f"lost on time if the overtime reached {limit}:00 ({clock.source})")

    def _end_rack(self, ev: Event, p: int, check: RuleCheck) -> None:
        s, r = self.state, self.rules
        if not s.ended:
            hidden = [e for e in ("time_up", "blocked", "overtime") if e in r.endings()]
            if hidden:
                s.ended = hidden[0] if len(hidden) == 1 else "time_up"
                check.notes.append(
                    "the game ended in a way a record does not show ("
                    + " or ".join(end_rules.describe(r, e) for e in hidden)
                    + f", {r.end.source})"
                )
            else:
                check.deviations.append(
                    f"an end-of-game line, but the game is not over ({s.bag} tiles in the bag)"
                )
                return
        if p in self.end_lines:
            check.deviations.append(f"a second end-of-game line for {ev.player}")
            return
        self.end_lines[p] = ev
        try:
            tiles = parse_rack(self.profile, ev.tiles or "")
        except RackError as exc:
            check.deviations.append(f"end rack {ev.tiles}: {exc.message}")
            return
        value = rack_value(self.profile, tiles)
        unseen = unseen_tiles(s, self.profile)
        fin = r.final
        if s.ended == "out":
            if p == s.went_out:
                expected, why = fin.out_gains_factor * value, "went out and gains"
                if fin.out_gains_factor and tiles != unseen and s.bag == 0:
                    check.deviations.append(
                        f"the tiles left are {rack_text(unseen)}, not {rack_text(tiles)}"
                    )
                factor = fin.out_gains_factor
            else:
                expected, why = -fin.own_rack_factor * value, "loses"
                factor = fin.own_rack_factor
        else:
            factor = fin.scoreless_own_rack_factor
            expected, why = -factor * value, "loses"
            if ev.rack is not None and rack_text(parse_rack(self.profile, ev.rack)) != rack_text(
                tiles
            ):
                check.deviations.append(f"{ev.player} holds {ev.rack}, not {ev.tiles}")
        if not factor:
            check.deviations.append(
                f"no end-of-game line for {ev.player} under {r.ruleset_id} ({fin.source})"
            )
        elif ev.score != expected:
            check.deviations.append(
                f"{ev.player} {why} {factor}× {rack_text(tiles)} ({value}) = {expected:+d},"
                f" not {ev.score:+d} ({fin.source})"
            )
        else:
            check.notes.append(f"{ev.player} {why} {factor}× {value} ({fin.source})")

    # --- the end ----------------------------------------------------------------------------

    def verdict(self, scores: ReplayReport) -> GameVerdict:
        s, r = self.state, self.rules
        if s.ended:
            for i, name in enumerate(s.players):
                if i not in self.end_lines and self._end_line_due(i):
                    self.at_end.append(f"the end-of-game line for {name} is missing")
        totals = dict(zip(s.players, scores.recorded_totals, strict=True))
        in_time = [n for i, n in enumerate(s.players) if i not in s.lost_on_time] or s.players
        best = max(totals[n] for n in in_time) if in_time else 0
        winners = [n for n in in_time if totals[n] == best]
        return GameVerdict(
            r.ruleset_id,
            scores,
            self.checks,
            s.ended,
            end_rules.describe(r, s.ended) if s.ended else None,
            s.players[s.went_out] if s.went_out is not None else None,
            totals,
            winners,
            [s.players[i] for i in sorted(s.lost_on_time)],
            s.challenges,
            self.at_end,
        )

    def _end_line_due(self, i: int) -> bool:
        s, fin = self.state, self.rules.final
        if s.ended == "out":
            if i == s.went_out:
                return bool(fin.out_gains_factor) and any(
                    s.rack_size[j] for j in range(len(s.players)) if j != i
                )
            return bool(fin.own_rack_factor) and s.rack_size[i] > 0
        return bool(fin.scoreless_own_rack_factor) and s.rack_size[i] > 0
