"""The game state on its own, without a record: it owns every change a turn makes (a play, the
counters, whose turn, the end of the game, the results), so its rules are checked here without
a walk."""

from __future__ import annotations

from collections import Counter

from adjudicator.game.kinds import EXCHANGE, PASS
from adjudicator.game.model import GameState

from .helpers import profile, rules


def state(ruleset: str) -> GameState:
    return GameState(["ann", "bob"], rules(ruleset), profile(ruleset))


def test_four_passes_end_a_dsf_game_000_5b():
    """Each player passes twice in a row (000 §4.8c, §5b); an exchange starts the count over."""
    s = state("dsf-2015")
    for p in (0, 1, 0):
        s.after_turn(p, PASS)
    s.after_turn(1, EXCHANGE)
    assert s.ended is None and s.passes == 0 and s.to_move == 0
    for p in (0, 1, 0, 1):
        s.after_turn(p, PASS)
    assert s.ended == "passes"


def test_a_withdrawn_play_puts_back_what_it_took_000_4_6e():
    s = state("dsf-2015")
    bag, racks = s.bag, list(s.rack_size)
    record = s.play(0, Counter("KAT"), 1, 12, 1, None)
    assert s.bag == bag - 3 and s.last_event_play is record and s.to_move == 1
    s.withdraw(record)
    assert (s.bag, s.rack_size, +s.board) == (bag, racks, Counter())
    assert s.turns_taken == [1, 0] and s.to_move == 1 and s.plays == []


def test_out_with_the_bag_empty_ends_only_after_equal_turns_under_sbnl_003():
    s = state("sbnl-punten")
    s.rack_size = [3, 7]
    s.board = Counter({"E": s.profile.tile_total - 10})  # the bag is empty
    s.play(0, Counter("EEE"), 1, 9, 1, None)
    assert s.pending_out == 0 and s.ended is None
    s.after_turn(1, PASS)
    assert s.ended == "out" and s.went_out == 0


def test_the_end_racks_and_the_results():
    """The one who went out gains the others' racks (NASPA: twice their value, and the other
    loses nothing); an overtime loss decides the winner whatever the score (DSF, 000 §4.4.1c)."""
    s = state("naspa")
    s.ended, s.went_out = "out", 0
    assert s.read_end_rack(0) and not s.read_end_rack(0)
    assert s.end_rack_points(0, Counter("QZ")) == 2 * 20 and s.end_factor(0) == 2
    assert s.end_rack_points(1, Counter("QZ")) == 0 and not s.end_line_due(1)
    dsf = state("dsf-2015")
    assert dsf.time_penalty(0, -60) is not None and dsf.lost_on_time == {0}
    dsf.tally(0, 50, 50)
    results, winners = dsf.results()
    assert winners == ["bob"] and results[0].lost_on_time
