"""The state of a game as a record is replayed: whose turn, racks, bag, counters, history.

The bag is the tile set minus the board minus the racks. Racks are counted, not read: each
player holds 7 tiles while the bag can refill them, so the bag is exact for any record that
starts at the first move, whatever the racks shown. A withdrawn play puts back exactly what the
play took: its tiles come back to the rack and the tiles drawn after it go back to the bag
(000 §4.6e), so a snapshot is restored.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.notation import Play
from adjudicator.game.racks import BLANK
from lexicon.languages import LanguageProfile
from lexicon.limits import RACK_SIZE


@dataclass
class PlayRecord:
    """A play still on the board, for withdrawals, challenges and SBNL penalties."""

    player: int
    line: int
    tiles: Counter[str]
    words: int
    score: int
    before: Snapshot
    play: Play | None = None  # the engine's play, to take its tiles off the board
    penalised: bool = False
    bonus: int = 0  # challenge bonus lines written after it so far (5 per word: WESPA)


@dataclass
class Snapshot:
    rack_size: list[int]
    board: Counter[str]
    scoreless: int
    passes: int
    previous_placed: list[bool]
    ended: str | None
    went_out: int | None
    pending_out: int | None


@dataclass
class GameState:
    players: list[str]
    total_tiles: int
    rack_size: list[int] = field(default_factory=list)
    board: Counter[str] = field(default_factory=Counter)  # tiles on the board, blanks as "?"
    to_move: int | None = None
    turns_taken: list[int] = field(default_factory=list)
    previous_placed: list[bool] = field(default_factory=list)
    exchanges_in_a_row: list[int] = field(default_factory=list)  # each player's own turns
    scoreless: int = 0  # scoreless turns in a row
    passes: int = 0  # passes in a row
    plays: list[PlayRecord] = field(default_factory=list)
    last_event_play: PlayRecord | None = None  # the play just made, until the next event
    ended: str | None = None  # how the game ended
    went_out: int | None = None
    pending_out: int | None = None  # SBNL: out, but the other player still has a turn
    lost_on_time: set[int] = field(default_factory=set)
    stuck: set[int] = field(default_factory=set)  # SBNL: can no longer place, sits out
    challenges: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def new(cls, players: list[str], profile: LanguageProfile) -> GameState:
        n = len(players)
        total = profile.tile_total
        return cls(
            players=list(players),
            total_tiles=total,
            rack_size=[min(RACK_SIZE, max(0, total - RACK_SIZE * i)) for i in range(n)],
            turns_taken=[0] * n,
            previous_placed=[False] * n,
            exchanges_in_a_row=[0] * n,
        )

    @property
    def bag(self) -> int:
        return self.total_tiles - sum(self.board.values()) - sum(self.rack_size)

    def next_player(self, p: int) -> int:
        return (p + 1) % len(self.players)

    def snapshot(self) -> Snapshot:
        return Snapshot(
            list(self.rack_size),
            Counter(self.board),
            self.scoreless,
            self.passes,
            list(self.previous_placed),
            self.ended,
            self.went_out,
            self.pending_out,
        )

    def restore(self, s: Snapshot) -> None:
        self.rack_size = list(s.rack_size)
        self.board = Counter(s.board)
        self.scoreless, self.passes = s.scoreless, s.passes
        self.previous_placed = list(s.previous_placed)
        self.ended, self.went_out, self.pending_out = s.ended, s.went_out, s.pending_out

    def place(
        self, p: int, tiles: Counter[str], words: int, score: int, line: int, play: Play | None
    ) -> PlayRecord:
        """Tiles go from p's rack to the board; p draws what the bag can give."""
        record = PlayRecord(p, line, tiles, words, score, self.snapshot(), play)
        n = sum(tiles.values())
        self.board.update(tiles)
        self.rack_size[p] = max(0, self.rack_size[p] - n)
        self.rack_size[p] += min(n, max(0, self.bag))
        self.plays.append(record)
        return record

    def withdraw(self, record: PlayRecord) -> None:
        """The play comes off the board; everything it changed is put back (000 §4.6e)."""
        self.plays.remove(record)
        self.restore(record.before)


def tile_key(letter: str, blank: bool) -> str:
    return BLANK if blank else letter


def unseen_tiles(state: GameState, profile: LanguageProfile) -> Counter[str]:
    """The tile set minus the board: with the bag empty, exactly the tiles on the racks."""
    left: Counter[str] = Counter({k: t.count for k, t in profile.tiles.items()})
    left[BLANK] = profile.blanks
    left.subtract(state.board)
    return +left
