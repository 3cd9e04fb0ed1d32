"""The lines of a record that are not moves: challenge rulings, time penalties, end racks.

Each is read against the rule functions, never re-derived here: a challenge line against
`challenge.outcome`, a time penalty against `clock.from_penalty`, an end rack against
`final.rack_adjustments`. A handler takes the game state and the line, and changes the game
only through `GameState`'s methods. GCG has no line for some rulings, so these conventions are
read (RECORDS.md has the table):
- `(challenge) +N` by the player who made the last play: a bonus for a valid play challenged
  (WESPA, NASPA Collins division: 5 per word);
- `(challenge) -10` by the other player: SSF's penalty for a failed challenge;
- `(challenge) +0` by the other player: a failed challenge that cost the challenger the turn
  (DSF, NASPA, home; a pass line is read the same way in NASPA records), or cost nothing under
  the free-challenge variant (004);
- `(challenge) -N` by the player who made an earlier play: SBNL's jury penalty, the turn's
  points plus 20 (003 Strafpuntenregel); the tiles stay on the board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.game import clock
from adjudicator.game import ending as end_rules
from adjudicator.game.challenge import outcome
from adjudicator.game.gcg import Event
from adjudicator.game.model import GameState, unseen_tiles
from adjudicator.game.racks import RackError, parse_rack, rack_text, rack_value
from adjudicator.game.turn import Turn
from lexicon.limits import RACK_SIZE


def challenge(s: GameState, ev: Event, p: int, turn: Turn, lose_turn: Callable[[], None]) -> bool:
    """A challenge line of player p. `lose_turn`: the walk's failed challenge that cost p the
    turn (the turn order is checked there). Whether it is a bonus line, after which another
    bonus line for the same play may follow."""
    rules = s.rules
    src, rid = rules.challenge.source, rules.id
    turn.computed_score = ev.score
    turn.info.append(f"{ev.kind} points taken as recorded ({ev.score:+d})")
    last = s.last_event_play
    entry: dict[str, Any] = {"line": ev.line, "points": ev.score}
    jury = outcome(rules, False)
    bonus_line = False
    if ev.score < 0 and jury.kind == "turn_score_plus_penalty":
        entry |= {"player": ev.player, "challenger": "jury", "valid": False}
        entry["consequence"] = jury.kind
        match = s.jury_penalty(p, ev.score)
        penalty = jury.player_points and -jury.player_points
        if match is None:
            turn.deviations.append(
                f"a penalty of {ev.score:+d}: it must be a play's score plus"
                f" {penalty}, and no play of {ev.player} scored"
                f" {-ev.score - penalty} ({src})"
            )
        else:
            turn.notes.append(
                f"the play on line {match.line} ({match.score}) had a wrong word:"
                f" −{match.score} − {penalty} ({src})"
            )
    elif last is not None and last.player == p and ev.score > 0:
        # a valid play challenged earns its player a bonus
        entry |= {"player": ev.player, "challenger": s.players[s.next_player(p)]}
        entry |= {"valid": True, "consequence": "player_bonus_per_word"}
        # one line for all the words, or a line per word (two `+5` lines after one play)
        per_word = outcome(rules, True, 1)
        total = last.bonus + ev.score
        fits = [
            k for k in range(1, last.words + 1) if outcome(rules, True, k).player_points == total
        ]
        line_words = [
            k for k in range(1, last.words + 1) if outcome(rules, True, k).player_points == ev.score
        ]
        if per_word.player_points <= 0:
            turn.deviations.append(
                f"a challenge bonus of {ev.score:+d}, but under {rid} a"
                f" valid play challenged means: {per_word.kind.replace('_', ' ')} ({src})"
            )
        elif not fits:
            turn.deviations.append(
                f"a challenge bonus is {per_word.player_points} per word challenged; the play"
                f" formed {last.words} word(s), so {ev.score:+d}"
                f"{f' after {last.bonus:+d}' if last.bonus else ''} cannot be right ({src})"
            )
        else:
            s.challenge_bonus(last, ev.score)
            bonus_line = True
            turn.notes.append(f"{line_words[0]} word(s) challenged and found valid")
    elif last is not None and last.player != p and ev.score <= 0:
        _failed_challenge(s, ev, turn, entry, lose_turn)
    else:
        entry |= {"player": ev.player, "valid": None, "consequence": "unknown"}
        turn.deviations.append(
            f"a challenge line of {ev.score:+d} that fits no challenge rule of {rid} here ({src})"
        )
    s.note_challenge(entry)
    return bonus_line


def _failed_challenge(
    s: GameState, ev: Event, turn: Turn, entry: dict[str, Any], lose_turn: Callable[[], None]
) -> None:
    """The challenger's line after a play that stood."""
    rules = s.rules
    src, rid = rules.challenge.source, rules.id
    last = s.last_event_play
    assert last is not None
    ruling = outcome(rules, True, free_challenge=s.free_challenge)
    entry |= {"player": s.players[last.player], "challenger": ev.player, "valid": True}
    points = f" {-ruling.challenger_points}" if ruling.challenger_points else ""
    if ev.score < 0:
        entry["consequence"] = "challenger_penalty"
        if ruling.challenger_points != ev.score:
            turn.deviations.append(
                f"a failed challenge recorded as {ev.score:+d}, but under "
                f"{rid}: {ruling.kind.replace('_', ' ')}{points} ({src})"
            )
        return
    if ruling.kind == "none" and s.free_challenge:
        entry["consequence"] = "none"
        turn.notes.append(f"{ev.player} challenged; a free challenge costs nothing ({src})")
        return
    entry["consequence"] = "challenger_loses_turn"
    if not ruling.challenger_loses_turn:
        turn.deviations.append(
            f"a failed challenge that cost the turn, but under "
            f"{rid}: {ruling.kind.replace('_', ' ')} ({src})"
        )
    lose_turn()
    turn.notes.append(f"{ev.player} challenged and lost the turn")


def time_penalty(s: GameState, ev: Event, p: int, turn: Turn) -> None:
    rules = s.rules
    rule = rules.clock
    turn.computed_score = ev.score
    turn.info.append(f"{ev.kind} points taken as recorded ({ev.score:+d})")
    per = rule.penalty_per_started_minute
    if not per:
        turn.deviations.append(f"a time penalty, but {rules.id} has none ({rule.source})")
        return
    over = s.time_penalty(p, ev.score)
    if over is None:
        turn.deviations.append(
            f"a time penalty is {per} points per started minute, not {ev.score:+d} ({rule.source})"
        )
        return
    turn.notes.append(f"{over.started_minutes} started minute(s) over")
    limit = rule.loss_after_minutes
    if over.lost_on_time:
        turn.notes.append(f"{clock.loss_limit(rules)} over: the game is lost ({rule.source})")
    elif over.maybe_lost:
        turn.notes.append(f"lost on time if the overtime reached {limit}:00 ({rule.source})")


def end_rack(s: GameState, ev: Event, p: int, turn: Turn) -> None:
    r, profile = s.rules, s.profile
    if not s.ended and not _hidden_ending(s, turn):
        turn.deviations.append(
            f"an end-of-game line, but the game is not over ({s.bag} tiles in the bag)"
        )
        return
    if not s.read_end_rack(p):
        turn.deviations.append(f"a second end-of-game line for {ev.player}")
        return
    try:  # the one who went out may list the tiles of several racks
        tiles = parse_rack(profile, ev.tiles or "", most=RACK_SIZE * (len(s.players) - 1))
    except RackError as exc:
        turn.deviations.append(f"end rack {ev.tiles}: {exc.message}")
        return
    ending = s.ended or ""
    went_out = s.went_out_is(p)
    expected = s.end_rack_points(p, tiles)
    value = rack_value(profile, tiles)
    factor = s.end_factor(p)
    why = "went out and gains" if went_out else "loses"
    turn.computed_score = expected
    if ev.score == expected and value:
        turn.info.append(
            f"rack {ev.tiles or ''} is worth {value}; recorded as {expected // value:+d}×"
        )
    unseen = unseen_tiles(s, profile)
    if went_out and factor and tiles != unseen and s.bag == 0:
        turn.deviations.append(f"the tiles left are {rack_text(unseen)}, not {rack_text(tiles)}")
    if ending != "out" and ev.rack is not None:
        try:  # read as the walk reads any rack shown: one the set cannot hold is a deviation
            shown = parse_rack(profile, ev.rack)
        except RackError as exc:
            turn.deviations.append(f"rack {ev.rack}: {exc.message}")
        else:
            if rack_text(shown) != rack_text(tiles):
                turn.deviations.append(f"{ev.player} holds {ev.rack}, not {ev.tiles}")
    if not factor:
        turn.deviations.append(
            f"no end-of-game line for {ev.player} under {r.id} ({r.final.source})"
        )
    elif ev.score != expected:
        turn.deviations.append(
            f"{ev.player} {why} {factor}× {rack_text(tiles)} ({value}) = {expected:+d},"
            f" not {ev.score:+d} ({r.final.source})"
        )
    else:
        turn.notes.append(f"{ev.player} {why} {factor}× {value} ({r.final.source})")


def _hidden_ending(s: GameState, turn: Turn) -> bool:
    """End lines with the game not over by the record's moves: `GameState.end_unrecorded`
    says whether the rules have an ending a record does not show, and ends the game so."""
    hidden = s.end_unrecorded()
    if not hidden:
        return False
    r = s.rules
    turn.notes.append(
        "the game ended in a way a record does not show ("
        + " or ".join(end_rules.describe(r, e) for e in hidden)
        + f", {r.end.source})"
    )
    return True
