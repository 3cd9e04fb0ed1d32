"""The lines of a record that are not moves: challenge rulings, time penalties, end racks.

Each is read against the rule functions, never re-derived here: a challenge line against
`challenge.outcome`, a time penalty against `overtime.from_penalty`, an end rack against
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

from adjudicator.game import ending as end_rules
from adjudicator.game import overtime
from adjudicator.game.challenge import Outcome, outcome
from adjudicator.game.gcg import Event
from adjudicator.game.model import GameState
from adjudicator.game.racks import RackError, parse_rack, rack_text, rack_value, tile_set
from adjudicator.game.report import Turn
from adjudicator.game.rules import Rules
from adjudicator.messages import Said, joined
from lexicon.limits import RACK_SIZE


def challenge(s: GameState, ev: Event, p: int, turn: Turn, lose_turn: Callable[[], None]) -> bool:
    """A challenge line of player p. `lose_turn`: the walk's failed challenge that cost p the
    turn (the turn order is checked there). Whether it is a bonus line, after which another
    bonus line for the same play may follow."""
    rules = s.rules
    src, rid = rules.challenge.source, rules.id
    turn.computed_score = ev.score
    turn.inform(f"record_{ev.kind}_points_as_recorded", score=ev.signed)
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
            turn.deviate(
                "record_jury_penalty_mismatch",
                score=ev.signed,
                penalty=penalty,
                player=ev.player,
                needed=-ev.score - penalty,
                source=src,
            )
        else:
            turn.note(
                "record_jury_wrong_word",
                line=match.line,
                score=match.score,
                penalty=penalty,
                source=src,
            )
    elif last is not None and last.player == p and ev.score > 0:
        # a valid play challenged earns its player a bonus
        entry |= {"player": ev.player, "challenger": s.players[s.next_player(p)]}
        entry |= {"valid": True, "consequence": "player_bonus_per_word"}
        # one line for all the words, or a line per word (two `+5` lines after one play)
        per_word = outcome(rules, True, 1)
        bonuses = [outcome(rules, True, k).player_points for k in range(1, last.words + 1)]
        if per_word.player_points <= 0:
            turn.deviate("record_bonus_not_in_rules", score=ev.signed, **ruled(rules, per_word))
        elif last.bonus + ev.score not in bonuses:
            turn.deviate(
                "record_bonus_wrong_after" if last.bonus else "record_bonus_wrong",
                per=per_word.player_points,
                words=last.words,
                score=ev.signed,
                bonus=f"{last.bonus:+d}",
                source=src,
            )
        else:
            s.challenge_bonus(last, ev.score)
            bonus_line = True
            turn.note("record_words_found_valid", n=bonuses.index(ev.score) + 1)
    elif last is not None and last.player != p and ev.score <= 0:
        _failed_challenge(s, ev, turn, entry, lose_turn)
    else:
        entry |= {"player": ev.player, "valid": None, "consequence": "unknown"}
        turn.deviate("record_challenge_fits_no_rule", score=ev.signed, ruleset=rid, source=src)
    s.note_challenge(entry)
    return bonus_line


def _failed_challenge(
    s: GameState, ev: Event, turn: Turn, entry: dict[str, Any], lose_turn: Callable[[], None]
) -> None:
    """The challenger's line after a play that stood."""
    rules = s.rules
    src = rules.challenge.source
    last = s.last_event_play
    assert last is not None
    ruling = outcome(rules, True, free_challenge=s.free_challenge)
    entry |= {"player": s.players[last.player], "challenger": ev.player, "valid": True}
    if ev.score < 0:
        entry["consequence"] = "challenger_penalty"
        if ruling.challenger_points != ev.score:
            turn.deviate("record_failed_challenge_score", score=ev.signed, **ruled(rules, ruling))
        return
    if ruling.kind == "none" and s.free_challenge:
        entry["consequence"] = "none"
        turn.note("record_free_challenge", player=ev.player, source=src)
        return
    entry["consequence"] = "challenger_loses_turn"
    if not ruling.challenger_loses_turn:
        turn.deviate("record_failed_challenge_turn", **ruled(rules, ruling))
    lose_turn()
    turn.note("record_challenged_lost_turn", player=ev.player)


def time_penalty(s: GameState, ev: Event, p: int, turn: Turn) -> None:
    rules = s.rules
    rule = rules.clock
    turn.computed_score = ev.score
    turn.inform(f"record_{ev.kind}_points_as_recorded", score=ev.signed)
    per = rule.penalty_per_started_minute
    if not per:
        turn.deviate("record_no_time_penalty", ruleset=rules.id, source=rule.source)
        return
    over = s.time_penalty(p, ev.score)
    if over is None:
        turn.deviate("record_time_penalty_wrong", per=per, score=ev.signed, source=rule.source)
        return
    turn.note("record_minutes_over", n=over.started_minutes)
    if over.lost_on_time:
        turn.note("record_lost_on_time", limit=overtime.loss_limit(rules), source=rule.source)
    elif over.maybe_lost:
        turn.note("record_maybe_lost_on_time", limit=rule.loss_after_minutes, source=rule.source)


def end_rack(s: GameState, ev: Event, p: int, turn: Turn) -> None:
    r, profile = s.rules, s.profile
    if not s.ended and not _hidden_ending(s, turn):
        turn.deviate("record_end_line_not_over", n=s.bag)
        return
    if not s.read_end_rack(p):
        turn.deviate("record_second_end_line", player=ev.player)
        return
    try:  # the one who went out may list the tiles of several racks
        tiles = parse_rack(profile, ev.tiles or "", most=RACK_SIZE * (len(s.players) - 1))
    except RackError as exc:
        turn.deviate("record_end_rack_error", rack=ev.tiles, reason=exc.message)
        return
    went_out = s.went_out_is(p)
    expected = s.end_rack_points(p, tiles)
    value = rack_value(profile, tiles)
    factor = s.end_factor(p)
    turn.computed_score = expected
    if ev.score == expected and value:
        turn.inform(
            "record_rack_worth",
            rack=ev.tiles or "",
            value=value,
            factor=f"{expected // value:+d}",
        )
    unseen = tile_set(profile) - s.board  # with the bag empty, exactly the tiles on the racks
    if went_out and factor and tiles != unseen and s.bag == 0:
        turn.deviate("record_tiles_left", unseen=rack_text(unseen), tiles=rack_text(tiles))
    if s.ended != "out" and ev.rack is not None:
        try:  # read as the walk reads any rack shown: one the set cannot hold is a deviation
            shown = parse_rack(profile, ev.rack)
        except RackError as exc:
            turn.deviate("record_rack_error", rack=ev.rack, reason=exc.message)
        else:
            if rack_text(shown) != rack_text(tiles):
                turn.deviate("record_holds_not", player=ev.player, rack=ev.rack, tiles=ev.tiles)
    if not factor:
        turn.deviate("record_no_end_line", player=ev.player, ruleset=r.id, source=r.final.source)
    elif ev.score != expected:
        turn.deviate(
            "record_gains_wrong" if went_out else "record_loses_wrong",
            player=ev.player,
            factor=factor,
            tiles=rack_text(tiles),
            value=value,
            expected=f"{expected:+d}",
            score=ev.signed,
            source=r.final.source,
        )
    else:
        turn.note(
            "record_gains" if went_out else "record_loses",
            player=ev.player,
            factor=factor,
            value=value,
            source=r.final.source,
        )


def _hidden_ending(s: GameState, turn: Turn) -> bool:
    """End lines with the game not over by the record's moves: `GameState.end_unrecorded`
    says whether the rules have an ending a record does not show, and ends the game so."""
    hidden = s.end_unrecorded()
    if not hidden:
        return False
    r = s.rules
    how = joined("record_either", (end_rules.describe(r, e) for e in hidden))
    turn.note("record_hidden_ending", how=how, source=r.end.source)
    return True


def ruled(rules: Rules, ruling: Outcome) -> dict[str, object]:
    """What a remark on a line that does not fit `ruling` names: the ruleset, the consequence
    its rules give (in the words the rulings page gives it, `consequence_<kind>`), and their
    source."""
    said = Said(f"consequence_{ruling.kind}", points=ruling.points)
    return {"ruleset": rules.id, "consequence": said, "source": rules.challenge.source}
