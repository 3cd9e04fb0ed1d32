"""The one walk over a game record: board and game state together, one `Turn` per line.

For each play the engine answers placement and score (`evaluate_move`); everything else is the
game's rule functions (`exchange`, `ending`, `challenge`, `overtime`, `final`), applied by
the `GameState` (`model`), which alone changes the game: the walk checks each line, writes what
it found in the `Turn` and calls the state's methods. The lines that are not moves (challenges,
time penalties, end-of-game racks) are read in `lines`; `Walk.report` puts the report
(`report`) together. A score disagreement (the engine) and a rule deviation (the ruleset) stay apart in each `Turn`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from adjudicator.engine.board import Board
from adjudicator.engine.evaluate import apply_play, check_words, evaluate_move
from adjudicator.engine.notation import NotationError, Play, parse_parts
from adjudicator.engine.placement import read_rack
from adjudicator.game import ending as end_rules
from adjudicator.game import lines
from adjudicator.game.challenge import outcome
from adjudicator.game.errors import GameInputError
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
from adjudicator.game.model import GameState
from adjudicator.game.racks import BLANK, RackError, check_within_set, parse_rack
from adjudicator.game.report import GameReport, Turn
from adjudicator.game.restart import (
    RestartNote,
    is_restart_note,
    read_note,
    restart_verdict,
    time_left,
)
from adjudicator.game.rules import Rules
from adjudicator.messages import Said, Texts, joined
from adjudicator.problems import Problem
from lexicon.artifact import Lexicon
from lexicon.languages import LanguageProfile


def walk(
    record: GameRecord,
    rules: Rules,
    profile: LanguageProfile,
    lexicon: Lexicon | None = None,
    free_challenge: bool = False,
    boards: list[Board] | None = None,
) -> GameReport:
    """Walk `record` under `rules`. GcgError (with the line) only for a move that is not
    notation at all, GameInputError for more players than the ruleset is for; everything else
    is a turn of the report. `free_challenge`: the home
    variant where a failed challenge costs nothing (004 Almindelige varianter). `boards`, when
    given (empty), gets the empty board and then the board after each turn, so boards[k] is the
    board after report.turns[k - 1]: the positions a picture of the game shows."""
    return Walk(record, rules, profile, lexicon, free_challenge, boards).run().report()


def positions(
    record: GameRecord, rules: Rules, profile: LanguageProfile
) -> list[tuple[Board, Play]]:
    """(board before, play) for every play of a record, withdrawn ones included, from the same
    walk; for benchmarks and property tests that need real positions."""
    return Walk(record, rules, profile, None, False, positions=[]).run().positions


class Walk:
    def __init__(
        self,
        record: GameRecord,
        rules: Rules,
        profile: LanguageProfile,
        lexicon: Lexicon | None,
        free_challenge: bool,
        boards: list[Board] | None = None,
        positions: list[tuple[Board, Play]] | None = None,
    ):
        nicks = list(record.players)
        for ev in record.events:  # records without #player lines: first come, first listed
            if ev.player not in nicks:
                nicks.append(ev.player)
        if len(nicks) > rules.max_players:
            raise GameInputError(
                f"{rules.id} is for at most {rules.max_players} players",
                "players",
                Problem.PLAYER_COUNT,
            )
        self.record, self.rules, self.profile, self.lexicon = record, rules, profile, lexicon
        self.board = Board()
        self.state = GameState(nicks, rules, profile, free_challenge)
        self.turns: list[Turn] = []
        self.previous: Event | None = None
        self.bonus_line = False  # a challenge bonus line: more may follow for the same play
        self.positions = positions  # (board, play) of every play, collected only when asked
        self.boards = boards  # the empty board, then the board after each event, when asked
        if boards is not None:
            boards.append(Board())
        # Since the game (last) started: who moved first, and the kinds of that player's turns,
        # for a restart (003 Verloop van het spel); the restarts stated, for the report.
        self.first_player: str | None = None
        self.first_turns: list[str] = []
        self.started_at = 0  # the index in `turns` of the first turn since the last start
        self.restarts: list[dict[str, object]] = []

    def run(self) -> Walk:
        """Every line of the record, in order."""
        for ev in self.record.events:
            self.event(ev)
        return self

    def report(self) -> GameReport:
        s, r = self.state, self.rules
        at_end = [
            Said("record_end_line_missing", player=name)
            for i, name in enumerate(s.players)
            if s.ended and s.end_line_due(i)
        ]
        results, best = s.results()
        return GameReport(
            r.id,
            self.record.file,
            self.profile.code,
            self.lexicon.id if self.lexicon else None,
            list(s.players),
            self.turns,
            list(s.recorded),
            list(s.computed),
            self.board,
            s.ended,
            end_rules.describe(r, s.ended) if s.ended else None,
            s.players[s.went_out] if s.went_out is not None else None,
            {x.name: x.final_score for x in results},
            best,
            [s.players[i] for i in sorted(s.lost_on_time)],
            s.challenges,
            at_end,
            self.restarts,
        )

    def event(self, ev: Event) -> None:
        s = self.state
        p = s.players.index(ev.player)
        turn = Turn(ev.line, ev.player, ev.kind, move_text(ev), ev.score, ev.total, text=ev.text)
        self.check_rack(ev, p, turn)
        self.bonus_line = False
        if ev.kind == PASS and self._no_challenge_of_going_out(p):
            turn.note("record_pass_after_out", out=s.players[s.went_out or 0], player=ev.player)
        else:
            if ev.kind in TURNS:
                self.turn_order(p, turn, jury=jury_ruled(ev))
                if self.first_player is None:
                    self.first_player = ev.player
                if ev.player == self.first_player:
                    self.first_turns.append(ev.kind)
            HANDLERS[ev.kind](self, ev, p, turn)
        s.line_done(ev.kind, self.bonus_line)
        turn.bag, turn.scoreless_in_a_row = s.bag, s.scoreless
        self._tally(ev, p, turn)
        self.turns.append(turn)
        self.previous = ev
        if (restart := read_note(ev.notes)) is not None:
            self.restart(ev, turn, restart)
        if self.boards is not None:
            self.boards.append(self.board.copy())

    def restart(self, ev: Event, turn: Turn, note: RestartNote) -> None:
        """The record says the game starts again after this line (003 Verloop van het spel):
        the board is emptied and the turns so far leave the score; the clock is not set back,
        so a loss on time stands. Where the ruleset does not allow it here, the restart is a
        rule deviation, and the record is still followed from an empty board."""
        s, rules = self.state, self.rules
        verdict = restart_verdict(rules, self.first_player, self.first_turns, not s.board, note)
        voided = len(self.turns) - self.started_at
        if verdict.allowed:
            turn.note(
                "restart_note",
                reason=verdict.reason,
                voided=voided,
                spent=time_left(rules, note.seconds_used),
                source=verdict.source,
            )
        else:
            turn.deviate("restart_deviation", reason=verdict.reason, source=verdict.source)
        fresh = GameState(s.players, rules, self.profile, s.free_challenge)
        fresh.lost_on_time = set(s.lost_on_time)  # the time is not given back
        fresh.challenges = s.challenges  # rulings made before it stay on record
        self.state, self.board = fresh, Board()
        self.first_player, self.first_turns, self.started_at = None, [], len(self.turns)
        self.previous = None
        self.restarts.append(
            {
                "line": ev.line,
                "jury": note.jury,
                "allowed": verdict.allowed,
                "code": verdict.code,
                "turns_voided": voided,
                "clock_reset": False,
                "seconds_used": note.seconds_used,
            }
        )

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
        recorded = self.state.recorded[p]
        turn.score_ok = turn.computed_score == ev.score
        turn.total_ok = recorded + ev.score == ev.total
        if (
            ev.kind == WITHDRAWN
            and ev.score == 0
            and turn.computed_score
            and recorded + turn.computed_score == ev.total
        ):
            # Old records (WSC 2001) write a withdrawal as +0 and revert the total.
            turn.score_ok = turn.total_ok = True
            turn.inform("record_old_withdrawal")
        turn.computed_total = self.state.tally(p, turn.computed_score, ev.total)

    # --- what every turn is checked for --------------------------------------------------

    def turn_order(self, p: int, turn: Turn, jury: bool = False) -> None:
        """Whether p may move now. `jury`: the record notes that the jury ruled on this line,
        so a player it skips was found stuck even where the bag alone does not show it."""
        s = self.state
        if s.ended:
            turn.deviate("record_turn_after_end", how=end_rules.describe(self.rules, s.ended))
        elif p in s.stuck:
            turn.deviate("record_stuck", player=s.players[p], source=self.rules.end.source)
        elif s.to_move is not None and p != s.to_move:
            skipped = s.skipped(p)
            if s.sit_out(skipped, jury):
                names = joined("record_both", (s.players[q] for q in skipped))
                turn.note(
                    "record_sit_out",
                    names=names,
                    player=s.players[p],
                    source=self.rules.end.source,
                )
            else:
                turn.deviate("record_not_your_turn", player=s.players[p], due=s.players[s.to_move])

    def note_end(self, turn: Turn) -> None:
        s = self.state
        if s.ended and s.ended != "out":
            turn.note("record_game_over", how=end_rules.describe(self.rules, s.ended))

    def check_rack(self, ev: Event, p: int, turn: Turn) -> None:
        """A rack shown on the line must fit the tile set with the board, and hold no more
        tiles than the player has."""
        if ev.rack is None or ev.kind in (CHALLENGE, TIME, END_RACK, WITHDRAWN):
            return  # a withdrawal repeats the rack of the play it takes back
        if ev.kind == PLAY and read_rack(ev.rack, self.profile)[1]:
            return  # a character that is no tile: the engine's `bad-rack`, said once
        try:
            # more than 7 is read, to say what an overdraw calls for
            tiles = parse_rack(self.profile, ev.rack, most=self.profile.tile_total)
            check_within_set(
                self.profile,
                [(Said("rack_owner_board"), self.state.board), (Said("rack_owner_rack"), tiles)],
            )
        except RackError as exc:
            turn.deviate("record_rack_error", rack=ev.rack, reason=exc.message)
            return
        expected = self.state.rack_size[p]
        # Fewer tiles is a partial rack (an annotator sees only what the opponent plays).
        if sum(tiles.values()) > expected and not self.state.ended:
            # What the ruleset prescribes, in its own words where it gives the language (where
            # it gives none, `record_overdrawn_without_rule`, as `Texts` says).
            over = self.rules.overdraw
            turn.deviate(
                "record_overdrawn",
                rack=ev.rack,
                n=sum(tiles.values()),
                player=ev.player,
                expected=expected,
                bag=self.state.bag,
                source=over.source,
                rule=Texts(over.text),
            )

    def lose_turn(self, p: int, turn: Turn) -> None:
        """A failed challenge cost player p the turn (000 §4.6d, NASPA, 004)."""
        self.turn_order(p, turn)
        self.state.after_turn(p, LOST_TURN)


# --- the moves ---------------------------------------------------------------------------------


def jury_ruled(ev: Event) -> bool:
    """Whether a `#note` on this line says the jury ruled on it (RECORDS.md): GCG has no line
    for a jury's finding that a player can no longer place (003 Einde van het spel)."""
    return any("jury" in note.casefold() for note in ev.notes if not is_restart_note(note))


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
    # Every placement error is a rule deviation (docs/rules.md §5), and a play that cannot be
    # made gets no word ruling, as moves/validate gives none.
    turn.placement.extend(result.errors)
    if w.lexicon is not None and result.legal:
        verdicts = check_words(w.lexicon, [sw.word for sw in result.words])  # every word
        turn.not_in_lexicon = [v.word for v in verdicts if not v.valid]
    s = w.state
    if not result.words:  # the engine reports the placement; nothing reached the board
        turn.note("record_cannot_place")
        s.play_nothing(p)
        return
    apply_play(w.board, play)
    tiles = Counter(BLANK if t.blank else t.letter for t in play.tiles)
    s.play(p, tiles, len(turn.words), result.score, ev.line, play)
    if s.ended == "out":
        turn.note("record_went_out", player=ev.player)
    elif s.pending_out == p:
        turn.note("record_pending_out", player=ev.player, source=w.rules.end.source)


def _pass(w: Walk, ev: Event, p: int, turn: Turn) -> None:
    prev = w.previous
    after_play = prev is not None and prev.kind == PLAY and prev.player != ev.player
    verdict = end_rules.pass_allowed(w.rules)
    if not verdict.allowed:
        turn.deviate("record_rule_not_followed", reason=verdict.reason, source=verdict.source)
    if after_play and outcome(w.rules, True).challenger_loses_turn:
        turn.note("record_pass_after_play")
    w.state.after_turn(p, PASS)
    w.note_end(turn)


def _exchange(w: Walk, ev: Event, p: int, turn: Turn) -> None:
    s = w.state
    if ev.tiles and ev.rack:
        _check_exchanged(ev.tiles, ev.rack, w.profile, turn)
    verdict = s.may_exchange(p)
    if not verdict.allowed:
        turn.deviate("record_exchange_not_allowed", reason=verdict.reason, source=verdict.source)
    elif ev.count is not None and ev.count > s.bag:
        turn.deviate("record_swapped_too_many", n=ev.count, bag=s.bag)
    s.after_turn(p, EXCHANGE)
    w.note_end(turn)


def _withdrawn(w: Walk, ev: Event, p: int, turn: Turn) -> None:
    s = w.state
    record = s.last_event_play
    if record is None or record.player != p or record.play is None:
        turn.deviate("record_withdrawn_alone")
        return
    for t in record.play.tiles:
        w.board.remove(t.row, t.col)
    turn.computed_score = -record.score
    ruling = outcome(w.rules, False, record.words, record.score)
    if not ruling.withdrawn:
        turn.deviate("record_not_taken_back", **lines.ruled(w.rules, ruling))
    s.withdraw(record)
    s.note_challenge(
        {
            "line": ev.line,
            "player": ev.player,
            "challenger": s.players[s.next_player(p)],
            "valid": False,
            "consequence": "play_withdrawn",
            "points": -record.score,
        }
    )
    w.note_end(turn)


def _challenge(w: Walk, ev: Event, p: int, turn: Turn) -> None:
    w.bonus_line = lines.challenge(w.state, ev, p, turn, lambda: w.lose_turn(p, turn))


def _check_exchanged(tiles: str, rack: str, profile: LanguageProfile, turn: Turn) -> None:
    """The tiles an exchange line names must be tiles, and on the rack it shows."""
    have, _ = read_rack(rack, profile)
    need, bad = read_rack(tiles, profile)
    for ch in bad:
        turn.errors.append(Said("record_exchanged_not_a_tile", tile=repr(ch)))
    for key, k in need.items():
        if have.get(key, 0) < k:
            turn.errors.append(Said("record_exchanged_not_on_rack", tile=key, rack=rack))


def move_text(ev: Event) -> str:
    if ev.kind == PLAY:
        return f"{ev.coordinate} {ev.word}"
    if ev.kind == EXCHANGE:
        return f"-{ev.tiles or ev.count}"
    if ev.kind == END_RACK:
        return f"({ev.tiles})"
    return {PASS: "-", WITHDRAWN: "--"}.get(ev.kind, f"({ev.kind})")


HANDLERS: dict[str, Callable[[Walk, Event, int, Turn], None]] = {
    PLAY: _play,
    PASS: _pass,
    EXCHANGE: _exchange,
    WITHDRAWN: _withdrawn,
    CHALLENGE: _challenge,
    # The lines that change only the game state (`lines`): handed the state, not the walk.
    TIME: lambda w, ev, p, turn: lines.time_penalty(w.state, ev, p, turn),
    END_RACK: lambda w, ev, p, turn: lines.end_rack(w.state, ev, p, turn),
}
