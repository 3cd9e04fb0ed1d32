"""The one walk over a game record: board and game state together, one `Turn` per line.

For each play the engine answers placement and score (`evaluate_move`); everything else is the
game's rule functions (`exchange`, `ending`, `challenge`, `clock`, `final`). The lines that are
not moves (challenges, time penalties, end-of-game racks) are read in `lines`; the end of the
game and the report are built in `result`. A score disagreement (the engine) and a rule
deviation (the ruleset) stay apart in each `Turn`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from adjudicator.engine.api import apply_play, check_words, evaluate_move
from adjudicator.engine.board import Board
from adjudicator.engine.notation import NotationError, Play, parse_parts
from adjudicator.engine.placement import parse_rack as read_rack
from adjudicator.game import ending as end_rules
from adjudicator.game import lines
from adjudicator.game.challenge import outcome
from adjudicator.game.exchange import exchange_allowed
from adjudicator.game.gcg import Event, GameRecord, GcgError
from adjudicator.game.kinds import (
    CHALLENGE,
    END_RACK,
    EXCHANGE,
    LOST_TURN,
    PASS,
    PLAY,
    TIME,
    TURNS,
    WITHDRAWN,
)
from adjudicator.game.model import GameState, tile_key
from adjudicator.game.racks import RackError, check_within_set, parse_rack
from adjudicator.game.result import GameReport, build_report
from adjudicator.game.rules import Rules
from adjudicator.game.turn import Turn
from lexicon.artifact import Lexicon
from lexicon.languages import LanguageProfile


def walk(
    record: GameRecord,
    rules: Rules,
    profile: LanguageProfile,
    lexicon: Lexicon | None = None,
    free_challenge: bool = False,
) -> GameReport:
    """Walk `record` under `rules`. GcgError (with the line) only for a move that is not
    notation at all; everything else is a turn of the report. `free_challenge`: the home
    variant where a failed challenge costs nothing (004 Almindelige varianter)."""
    w = Walk(record, rules, profile, lexicon, free_challenge)
    for ev in record.events:
        w.event(ev)
    return build_report(w)


def walk_with_boards(
    record: GameRecord,
    rules: Rules,
    profile: LanguageProfile,
    lexicon: Lexicon | None = None,
    free_challenge: bool = False,
) -> tuple[GameReport, list[Board]]:
    """`walk`, and the board after each of its turns (first the empty board, so boards[k] is
    the board after report.turns[k - 1]): the positions a picture of the game shows."""
    w = Walk(record, rules, profile, lexicon, free_challenge)
    w.boards = [Board()]
    for ev in record.events:
        w.event(ev)
    return build_report(w), w.boards


def positions(
    record: GameRecord, rules: Rules, profile: LanguageProfile
) -> list[tuple[Board, Play]]:
    """(board before, play) for every play of a record, withdrawn ones included, from the same
    walk; for benchmarks and property tests that need real positions."""
    w = Walk(record, rules, profile, None, False)
    w.positions = []
    for ev in record.events:
        w.event(ev)
    return w.positions


class Walk:
    def __init__(
        self,
        record: GameRecord,
        rules: Rules,
        profile: LanguageProfile,
        lexicon: Lexicon | None,
        free_challenge: bool,
    ):
        nicks = [p.nick for p in record.players]
        for ev in record.events:  # records without #player lines: first come, first listed
            if ev.player not in nicks:
                nicks.append(ev.player)
        self.record, self.rules, self.profile, self.lexicon = record, rules, profile, lexicon
        self.free_challenge = free_challenge
        self.board = Board()
        self.state = GameState.new(nicks, profile)
        self.turns: list[Turn] = []
        self.recorded = [0] * len(nicks)
        self.computed = [0] * len(nicks)
        self.end_lines: dict[int, Event] = {}
        self.previous: Event | None = None
        self.bonus_line = False  # a challenge bonus line: more may follow for the same play
        self.positions: list[tuple[Board, Play]] | None = None  # collected only when asked
        self.boards: list[Board] | None = None  # the board after each event, when asked

    @property
    def players(self) -> list[str]:
        return self.state.players

    def event(self, ev: Event) -> None:
        s = self.state
        p = s.players.index(ev.player)
        turn = Turn(
            ev.line, ev.player, ev.kind, move_text(ev), ev.score, ev.total, s.bag, s.scoreless
        )
        turn.text = ev.text
        self.check_rack(ev, p, turn)
        self.bonus_line = False
        if ev.kind == PASS and self._no_challenge_of_going_out(p):
            turn.notes.append(
                f"a pass after {s.players[s.went_out or 0]} went out: {ev.player} does not"
                " challenge the last play (the convention of Macondo and Woogles)"
            )
        else:
            if ev.kind in TURNS:
                self.turn_order(p, turn, jury=jury_ruled(ev))
            HANDLERS[ev.kind](self, ev, p, turn)
        if ev.kind != PLAY and not self.bonus_line:
            s.last_event_play = None
        turn.bag, turn.scoreless_in_a_row = s.bag, s.scoreless
        self._tally(ev, p, turn)
        self.turns.append(turn)
        self.previous = ev
        if self.boards is not None:
            self.boards.append(self.board.copy())

    def _no_challenge_of_going_out(self, p: int) -> bool:
        """A pass right after another player went out: no turn, just no challenge."""
        s, prev = self.state, self.previous
        return (
            s.ended == "out"
            and s.went_out is not None
            and p != s.went_out
            and prev is not None
            and prev.kind == PLAY
            and prev.player == s.players[s.went_out]
        )

    def _tally(self, ev: Event, p: int, turn: Turn) -> None:
        """The score side: this line's score and the player's running total."""
        turn.score_ok = turn.computed_score == ev.score
        turn.total_ok = self.recorded[p] + ev.score == ev.total
        if (
            ev.kind == WITHDRAWN
            and ev.score == 0
            and turn.computed_score
            and self.recorded[p] + turn.computed_score == ev.total
        ):
            # Old records (WSC 2001) write a withdrawal as +0 and revert the total.
            turn.score_ok = turn.total_ok = True
            turn.info.append("withdrawal written as +0 with the total reverted (old style)")
        self.recorded[p] = ev.total  # follow the record, so one slip is reported once
        self.computed[p] += turn.computed_score
        turn.computed_total = self.computed[p]

    # --- what every turn is checked for --------------------------------------------------

    def turn_order(self, p: int, turn: Turn, jury: bool = False) -> None:
        """Whether p may move now. `jury`: the record notes that the jury ruled on this line,
        so a player it skips was found stuck even where the bag alone does not show it."""
        s = self.state
        if s.ended:
            turn.deviations.append(
                f"a turn after the game ended ({end_rules.describe(self.rules, s.ended)})"
            )
        elif p in s.stuck:
            turn.deviations.append(
                f"{s.players[p]} could no longer place: those letters may not be used any more"
                f" ({self.rules.end.source})"
            )
        elif s.to_move is not None and p != s.to_move:
            skipped = self._skipped(s.to_move, p)
            stuck = self.rules.end.stuck_player_sits_out and all(
                self._stuck_now(q, jury) for q in skipped
            )
            if stuck:
                s.stuck.update(skipped)
                names = " and ".join(s.players[q] for q in skipped)
                turn.notes.append(
                    f"{names} can neither place, exchange nor pass: {s.players[p]} plays on"
                    f" ({self.rules.end.source})"
                )
            else:
                turn.deviations.append(f"not {s.players[p]}'s turn: {s.players[s.to_move]} was due")

    def _skipped(self, due: int, p: int) -> list[int]:
        out, q = [], due
        while q != p:
            out.append(q)
            q = self.state.next_player(q)
        return out

    def _stuck_now(self, q: int, jury: bool) -> bool:
        """003 Einde van het spel: a player may sit out only with no way to move: passing is not
        allowed and the bag can no longer feed an exchange (SBNL: fewer than 16 in it), or the
        jury found so. An exchange barred only by this turn's history (the previous turn put
        nothing down) is no such end: the next turn may exchange again. Whether the letters
        fit, the record shows."""
        s = self.state
        if end_rules.pass_allowed(self.rules).allowed:
            return False
        if jury:
            return True
        return not exchange_allowed(
            self.rules,
            s.bag,
            turn=s.turns_taken[q] + 1,
            previous_placed=True,  # the history at its most lenient: only the bag is asked
            exchanges_in_a_row=0,
        ).allowed

    def after_turn(self, p: int, kind: str, score: int | None = None) -> None:
        """Counters and the end of the game, after a turn of `kind` (scoring `score`, for a
        play) by player p."""
        s, r = self.state, self.rules
        s.turns_taken[p] += 1
        s.previous_placed[p] = kind == PLAY
        s.exchanges_in_a_row[p] = s.exchanges_in_a_row[p] + 1 if kind == EXCHANGE else 0
        s.to_move = s.next_player(p)
        while s.to_move in s.stuck and s.to_move != p:  # who sits out is skipped (003)
            s.to_move = s.next_player(s.to_move)
        if end_rules.is_scoreless(r, kind, score):
            s.scoreless += 1
        elif kind == PLAY:
            s.scoreless = 0
        s.passes = s.passes + 1 if kind == PASS else 0
        if s.ended:
            return
        playing = [t for i, t in enumerate(s.turns_taken) if i not in s.stuck]
        if s.pending_out is not None and end_rules.out_ends_game(r, playing):
            s.ended, s.went_out, s.pending_out = "out", s.pending_out, None
        elif end_rules.passes_end(r, s.passes, len(s.players)):
            s.ended = "passes"
        elif end_rules.scoreless_end(r, s.scoreless, s.bag):
            s.ended = "scoreless"

    def note_end(self, turn: Turn) -> None:
        s = self.state
        if s.ended and s.ended != "out":
            turn.notes.append(f"the game is over: {end_rules.describe(self.rules, s.ended)}")

    def check_rack(self, ev: Event, p: int, turn: Turn) -> None:
        """A rack shown on the line must fit the tile set with the board, and hold no more
        tiles than the player has."""
        if ev.rack is None or ev.kind in (CHALLENGE, TIME, END_RACK, WITHDRAWN):
            return  # a withdrawal repeats the rack of the play it takes back
        try:
            # more than 7 is read, to say what an overdraw calls for
            tiles = parse_rack(self.profile, ev.rack, most=self.profile.tile_total)
            check_within_set(self.profile, [("the board", self.state.board), ("the rack", tiles)])
        except RackError as exc:
            turn.deviations.append(f"rack {ev.rack}: {exc.message}")
            return
        expected = self.state.rack_size[p]
        # Fewer tiles is a partial rack (an annotator sees only what the opponent plays).
        if sum(tiles.values()) > expected and not self.state.ended:
            over = self.rules.overdraw
            prescribed = f": {over.text['en']} ({over.source})" if over.text else ""
            turn.deviations.append(
                f"rack {ev.rack} has {sum(tiles.values())} tiles; {ev.player} holds {expected}"
                f" ({self.state.bag} in the bag). Drawn too many{prescribed}"
            )

    def lose_turn(self, p: int, turn: Turn) -> None:
        """A failed challenge cost player p the turn (000 §4.6d, NASPA, 004)."""
        self.turn_order(p, turn)
        self.after_turn(p, LOST_TURN)


# --- the moves ---------------------------------------------------------------------------------


def jury_ruled(ev: Event) -> bool:
    """Whether a `#note` on this line says the jury ruled on it (RECORDS.md): GCG has no line
    for a jury's finding that a player can no longer place (003 Einde van het spel)."""
    return any("jury" in note.casefold() for note in ev.notes)


def _play(w: Walk, ev: Event, p: int, turn: Turn) -> None:
    try:
        play = parse_parts(ev.coordinate or "", ev.word or "", w.profile, w.board)
    except NotationError as exc:
        raise GcgError(str(exc), None, ev.line) from None
    if w.positions is not None:
        w.positions.append((w.board.copy(), play))
    result = evaluate_move(w.profile, w.board, play, rack=ev.rack)
    turn.computed_score = result.score
    turn.notation = result.notation
    turn.words = [sw.word.display for sw in result.words]
    turn.errors.extend(f"{e.code}: {e.message}" for e in result.errors)
    if w.lexicon is not None:
        verdicts = check_words(w.lexicon, [sw.word for sw in result.words])  # every word
        turn.not_in_lexicon = [v.word for v in verdicts if not v.valid]
    s = w.state
    if not result.words:  # the engine reports the placement; nothing reached the board
        turn.notes.append("the play cannot be placed; the rules check goes on without it")
        s.last_event_play = None
        w.after_turn(p, PASS)
        return
    apply_play(w.board, play)
    turn.play = play
    tiles = Counter(tile_key(t.letter, t.blank) for t in play.tiles)
    s.last_event_play = s.place(p, tiles, len(turn.words), result.score, ev.line, play)
    if s.rack_size[p] == 0 and s.bag == 0 and not s.ended:
        s.pending_out = p
    w.after_turn(p, PLAY, result.score)
    if s.ended == "out":
        turn.notes.append(f"{ev.player} went out: the game is over")
    elif s.pending_out == p:
        turn.notes.append(
            f"{ev.player} is out; the game ends when both have had as many turns"
            f" ({w.rules.end.source})"
        )


def _pass(w: Walk, ev: Event, p: int, turn: Turn) -> None:
    prev = w.previous
    after_play = prev is not None and prev.kind == PLAY and prev.player != ev.player
    verdict = end_rules.pass_allowed(w.rules)
    if not verdict.allowed:
        turn.deviations.append(f"{verdict.reason} ({verdict.source})")
    if after_play and outcome(w.rules, True).challenger_loses_turn:
        turn.notes.append("a pass after a play: also how a failed challenge is recorded")
    w.after_turn(p, PASS)
    w.note_end(turn)


def _exchange(w: Walk, ev: Event, p: int, turn: Turn) -> None:
    s = w.state
    if ev.tiles and ev.rack:
        _check_subset(ev.tiles, ev.rack, w.profile, turn, "exchanged")
    verdict = exchange_allowed(
        w.rules,
        s.bag,
        turn=s.turns_taken[p] + 1,
        previous_placed=s.previous_placed[p],
        exchanges_in_a_row=s.exchanges_in_a_row[p],
    )
    if not verdict.allowed:
        turn.deviations.append(f"exchange not allowed: {verdict.reason} ({verdict.source})")
    elif ev.count is not None and ev.count > s.bag:
        turn.deviations.append(f"{ev.count} tiles swapped with {s.bag} in the bag")
    w.after_turn(p, EXCHANGE)
    w.note_end(turn)


def _withdrawn(w: Walk, ev: Event, p: int, turn: Turn) -> None:
    s, ch = w.state, w.rules.challenge
    record = s.last_event_play
    if record is None or record.player != p or record.play is None:
        turn.deviations.append("a withdrawn play must follow the player's own play at once")
        return
    for t in record.play.tiles:
        w.board.remove(t.row, t.col)
    turn.computed_score = -record.score
    ruling = outcome(w.rules, False, record.words, record.score)
    if not ruling.withdrawn:
        turn.deviations.append(
            f"under {w.rules.id} a wrong word is not taken back: "
            f"{ruling.kind.replace('_', ' ')} ({ch.source})"
        )
    turns = s.turns_taken[p]
    s.withdraw(record)
    s.turns_taken[p] = turns - 1  # after_turn counts the turn again, as withdrawn
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
    w.after_turn(p, WITHDRAWN)
    w.note_end(turn)


def _check_subset(tiles: str, rack: str, profile: LanguageProfile, turn: Turn, what: str) -> None:
    have, _ = read_rack(rack, profile)
    need, bad = read_rack(tiles, profile)
    for ch in bad:
        turn.errors.append(f"{what} tile {ch!r} is not a tile of the language")
    for key, k in need.items():
        if have.get(key, 0) < k:
            turn.errors.append(f"{what} {key} is not on the rack {rack}")


def move_text(ev: Event) -> str:
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


HANDLERS: dict[str, Callable[[Walk, Event, int, Turn], None]] = {
    PLAY: _play,
    PASS: _pass,
    EXCHANGE: _exchange,
    WITHDRAWN: _withdrawn,
    CHALLENGE: lines.challenge,
    TIME: lines.time_penalty,
    END_RACK: lines.end_rack,
}
