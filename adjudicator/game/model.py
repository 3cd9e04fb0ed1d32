"""The state of a game as a record is replayed, and the only code that changes it.

`GameState` owns every change a turn makes, as wolges' `GameState` owns playing a move, the next
turn and the end of the game: a play (`play`), a pass, exchange or lost turn (`after_turn`), a
withdrawal (`withdraw`), a jury penalty, a challenge bonus, a time penalty, the end-of-game
racks and the results. The walk and its line handlers ask and call; they write none of its
fields, so each rule has one place here or in the rule module it calls (`ending`, `exchange`,
`challenge`, `overtime`, `final`).

The bag is the tile set minus the board minus the racks. Racks are counted, not read: each
player holds 7 tiles while the bag can refill them, so the bag is exact for any record that
starts at the first move, whatever the racks shown. A withdrawn play puts back exactly what the
play took: its tiles come back to the rack and the tiles drawn after it go back to the bag
(000 §4.6e), so a snapshot is restored.
"""

from __future__ import annotations

from collections import Counter
from copy import copy
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.notation import Play
from adjudicator.game import ending as end_rules
from adjudicator.game import overtime
from adjudicator.game.challenge import outcome
from adjudicator.game.exchange import exchange_allowed
from adjudicator.game.final import PlayerResult, end_factor, rack_adjustments, winners
from adjudicator.game.kinds import EXCHANGE, PASS, PLAY, WITHDRAWN
from adjudicator.game.rules import Rules, Verdict
from lexicon.languages import LanguageProfile
from lexicon.limits import RACK_SIZE


@dataclass
class PlayRecord:
    """A play still on the board, for withdrawals, challenges and SBNL penalties."""

    player: int
    line: int
    words: int
    score: int
    before: dict[str, Any]  # what a withdrawal puts back: the `SNAPSHOT` fields, copied
    play: Play | None = None  # the engine's play, to take its tiles off the board
    penalised: bool = False
    bonus: int = 0  # challenge bonus lines written after it so far (5 per word: WESPA)


# The `GameState` fields a play changes and a withdrawal puts back as they were.
SNAPSHOT = (
    "rack_size",
    "board",
    "scoreless",
    "passes",
    "previous_placed",
    "ended",
    "went_out",
    "pending_out",
)


@dataclass
class GameState:
    players: list[str]
    rules: Rules = field(repr=False)
    profile: LanguageProfile = field(repr=False)
    free_challenge: bool = False  # 004's home variant: a failed challenge costs nothing
    rack_size: list[int] = field(init=False)  # each player's tiles
    board: Counter[str] = field(default_factory=Counter)  # tiles on the board, blanks as "?"
    to_move: int | None = None
    turns_taken: list[int] = field(init=False)
    previous_placed: list[bool] = field(init=False)
    exchanges_in_a_row: list[int] = field(init=False)  # each player's own turns
    scoreless: int = 0  # scoreless turns in a row
    passes: int = 0  # passes in a row
    recorded: list[int] = field(init=False)  # each total as the record states it
    computed: list[int] = field(init=False)  # each total from the engine's scores
    plays: list[PlayRecord] = field(default_factory=list)
    last_event_play: PlayRecord | None = None  # the play just made, until the next event
    ended: str | None = None  # how the game ended
    went_out: int | None = None
    pending_out: int | None = None  # SBNL: out, but the other player still has a turn
    lost_on_time: set[int] = field(default_factory=set)
    stuck: set[int] = field(default_factory=set)  # SBNL: can no longer place, sits out
    end_racks: set[int] = field(default_factory=set)  # players whose end-of-game line was read
    challenges: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n, total = len(self.players), self.profile.tile_total
        self.players = list(self.players)
        self.rack_size = [min(RACK_SIZE, max(0, total - RACK_SIZE * i)) for i in range(n)]
        self.turns_taken, self.exchanges_in_a_row = [0] * n, [0] * n
        self.recorded, self.computed = [0] * n, [0] * n
        self.previous_placed = [False] * n

    @property
    def bag(self) -> int:
        return self.profile.tile_total - sum(self.board.values()) - sum(self.rack_size)

    def next_player(self, p: int) -> int:
        return (p + 1) % len(self.players)

    # --- the turns ---------------------------------------------------------------------------

    def play(
        self, p: int, tiles: Counter[str], words: int, score: int, line: int, play: Play | None
    ) -> PlayRecord:
        """Tiles go from p's rack to the board; p draws what the bag can give. Out with the bag
        empty ends the game, under SBNL once the others have had as many turns (003)."""
        before = {name: copy(getattr(self, name)) for name in SNAPSHOT}
        record = PlayRecord(p, line, words, score, before, play)
        n = sum(tiles.values())
        self.board.update(tiles)
        self.rack_size[p] = max(0, self.rack_size[p] - n)
        self.rack_size[p] += min(n, max(0, self.bag))
        self.plays.append(record)
        self.last_event_play = record
        if self.rack_size[p] == 0 and self.bag == 0 and not self.ended:
            self.pending_out = p
        self.after_turn(p, PLAY, score)
        return record

    def play_nothing(self, p: int) -> None:
        """A play that cannot be placed: nothing reaches the board, so it is a pass."""
        self.last_event_play = None
        self.after_turn(p, PASS)

    def withdraw(self, record: PlayRecord) -> None:
        """The play comes off the board; everything it changed is put back (000 §4.6e). The
        withdrawal is the play's own turn, not another one."""
        self.plays.remove(record)
        for name, value in record.before.items():
            setattr(self, name, copy(value))
        self.turns_taken[record.player] -= 1  # after_turn counts the turn again, as withdrawn
        self.after_turn(record.player, WITHDRAWN)

    def after_turn(self, p: int, kind: str, score: int | None = None) -> None:
        """Counters, whose turn, and the end of the game, after a turn of `kind` (scoring
        `score`, for a play) by player p (docs/rules.md §8, §9)."""
        r = self.rules
        self.turns_taken[p] += 1
        self.previous_placed[p] = kind == PLAY
        self.exchanges_in_a_row[p] = self.exchanges_in_a_row[p] + 1 if kind == EXCHANGE else 0
        self.to_move = self.next_player(p)
        while self.to_move in self.stuck and self.to_move != p:  # who sits out is skipped (003)
            self.to_move = self.next_player(self.to_move)
        if end_rules.is_scoreless(r, kind, score):
            self.scoreless += 1
        elif kind == PLAY:
            self.scoreless = 0
        self.passes = self.passes + 1 if kind == PASS else 0
        if self.ended:
            return
        playing = [t for i, t in enumerate(self.turns_taken) if i not in self.stuck]
        if self.pending_out is not None and end_rules.out_ends_game(r, playing):
            self.ended, self.went_out, self.pending_out = "out", self.pending_out, None
        elif end_rules.passes_end(r, self.passes, len(self.players)):
            self.ended = "passes"
        elif end_rules.scoreless_end(r, self.scoreless, self.bag):
            self.ended = "scoreless"

    def line_done(self, kind: str, bonus_line: bool) -> None:
        """After a record line: the play just made stays open to a challenge only after the
        play itself or a challenge bonus line for it (more may follow)."""
        if kind != PLAY and not bonus_line:
            self.last_event_play = None

    def tally(self, p: int, points: int, recorded_total: int) -> int:
        """p's line scored `points` (the engine's) and the record writes `recorded_total`: the
        record's total is followed, so one slip is reported once. The computed total."""
        self.recorded[p] = recorded_total
        self.computed[p] += points
        return self.computed[p]

    def skipped(self, p: int) -> list[int]:
        """The players passed over when p moves instead of the one due."""
        out, q = [], self.to_move
        while q is not None and q != p:
            out.append(q)
            q = self.next_player(q)
        return out

    def sit_out(self, skipped: list[int], jury: bool) -> bool:
        """003 Einde van het spel: the players skipped sit out from now on when none of them
        can move (`jury`: the record notes that the jury ruled so). Whether they do."""
        if not (
            self.rules.end.stuck_player_sits_out and all(self._stuck(q, jury) for q in skipped)
        ):
            return False
        self.stuck.update(skipped)
        return True

    def _stuck(self, q: int, jury: bool) -> bool:
        """003 Einde van het spel: a player may sit out only with no way to move: passing is not
        allowed and no exchange is (003 Ruilregel: fewer than 16 in the bag, or the player's
        previous turn put nothing down), or the jury found so. An exchange barred by the
        history stays barred: sitting out is no turn, so the previous turn stays the one that
        put nothing down, and the letters may not be used again even where a later play makes
        room ("ook al zou dit ... mogelijk zijn geworden"). Whether the letters fit, the record
        shows."""
        no_pass = not end_rules.pass_allowed(self.rules).allowed
        return no_pass and (jury or not self.may_exchange(q).allowed)

    def may_exchange(self, p: int) -> Verdict:
        """May p exchange now (docs/rules.md §7): the bag, and under SBNL p's own turns. A
        record that put down more tiles than the set holds leaves an empty bag, not a negative
        one."""
        return exchange_allowed(
            self.rules,
            max(0, self.bag),
            turn=self.turns_taken[p] + 1,
            previous_placed=self.previous_placed[p],
            exchanges_in_a_row=self.exchanges_in_a_row[p],
        )

    # --- challenges and penalties ------------------------------------------------------------

    def jury_penalty(self, p: int, points: int) -> PlayRecord | None:
        """003 Strafpuntenregel: the jury's `points` (a play's score plus 20) fall on p's latest
        play not penalised yet that scored so; the tiles stay. That play, or None."""
        for r in reversed(self.plays):
            if r.player == p and not r.penalised:
                if outcome(self.rules, False, r.words, r.score).player_points == points:
                    r.penalised = True
                    return r
        return None

    def challenge_bonus(self, record: PlayRecord, points: int) -> None:
        """A bonus line for a valid play challenged (WESPA: 5 per word), one of possibly
        several for the same play."""
        record.bonus += points

    def note_challenge(self, entry: dict[str, Any]) -> None:
        """A challenge ruling read from the record, for the report."""
        self.challenges.append(entry)

    def time_penalty(self, p: int, points: int) -> overtime.Overtime | None:
        """A time-penalty line of p: the overtime it stands for (None: no overtime costs
        `points`); one over the limit has lost on time (000 §4.4.1c, 002)."""
        over = overtime.from_penalty(self.rules, points)
        if over is not None and over.lost_on_time:
            self.lost_on_time.add(p)
        return over

    # --- the end of the game -----------------------------------------------------------------

    def end_unrecorded(self) -> list[str]:
        """End-of-game lines with the game not over by the record's moves: it ended in a way a
        record does not show (the time was up, nobody could place, overtime), where the rules
        have one. Those endings (empty: none), and the game has ended."""
        r = self.rules
        if self.lost_on_time and "overtime" in r.endings():  # 000 §5c: overtime ends the game
            hidden = ["overtime"]
        else:  # not overtime while nobody has run out of it
            hidden = [e for e in ("time_up", "blocked") if e in r.endings()]
        if hidden:
            self.ended = hidden[0]  # the time up, where the rules have both
        return hidden

    def went_out_is(self, p: int) -> bool:
        return self.ended == "out" and p == self.went_out

    def read_end_rack(self, p: int) -> bool:
        """p's end-of-game line is read; False when it is p's second."""
        first = p not in self.end_racks
        self.end_racks.add(p)
        return first

    def end_rack_points(self, p: int, tiles: Counter[str]) -> int:
        """What p's end-of-game line listing `tiles` must score (000 §5.1a, 002, 003, 004): the
        one who went out lists the others' tiles; anyone else their own."""
        racks: list[Counter[str]] = [Counter() for _ in self.players]
        racks[self.next_player(p) if self.went_out_is(p) else p] = tiles
        ending = self.ended or ""
        adjustments = rack_adjustments(self.rules, self.profile, ending, racks, self.went_out)
        return sum(a.points for a in adjustments[p])

    def end_factor(self, p: int) -> int:
        """How many times a rack's value p's end-of-game line moves (0: no such line)."""
        return end_factor(self.rules, self.ended or "", self.went_out_is(p))

    def end_line_due(self, p: int) -> bool:
        """Whether the game's end calls for an end-of-game line of p the record lacks."""
        if p in self.end_racks or not self.end_factor(p):
            return False
        if self.went_out_is(p):
            return any(self.rack_size[j] for j in range(len(self.players)) if j != p)
        return self.rack_size[p] > 0

    def results(self) -> tuple[list[PlayerResult], list[str]]:
        """Each player's result from the recorded totals, and the winners (`final.winners`:
        a loss on time, SSF's minimum spread, shared ties)."""
        results = [
            PlayerResult(name, total, "", 0, [], total, i in self.lost_on_time, "loss")
            for i, (name, total) in enumerate(zip(self.players, self.recorded, strict=True))
        ]
        return results, winners(self.rules, results)
