"""Passing and the end of the game (docs/rules.md §8–§9), each test naming its source."""

from __future__ import annotations

from adjudicator.game.ending import (
    is_scoreless,
    out_ends_game,
    pass_allowed,
    passes_end,
    scoreless_end,
)
from adjudicator.game.kinds import EXCHANGE, PASS, PLAY, WITHDRAWN

from .helpers import rules


def test_sbnl_pass_not_allowed_003():
    """003: "Het is niet toegestaan een beurt over te slaan"."""
    v = pass_allowed(rules("sbnl-punten"))
    assert not v.allowed and v.source.startswith("003")


def test_dsf_pass_allowed_000_4_8a():
    assert pass_allowed(rules("dsf-2015")).allowed


def test_dsf_game_ends_after_both_pass_twice_000_5b():
    """000 §5b / §4.8c: both players pass twice in a row: 4 passes with two players."""
    r = rules("dsf-2015")
    assert not passes_end(r, 3, 2)
    assert passes_end(r, 4, 2)
    assert not scoreless_end(r, 10)  # DSF has no six-scoreless rule


def test_ssf_six_scoreless_counts_exchanges_and_withdrawn_002():
    """002: six moves without a new tile (passes, exchanges, withdrawn plays) end the game."""
    r = rules("ssf-1999")
    assert all(is_scoreless(r, k) for k in (PASS, EXCHANGE, WITHDRAWN))
    assert not scoreless_end(r, 5) and scoreless_end(r, 6)


def test_home_and_english_six_scoreless_004():
    """004 "seks pointløse ture i træk"; NASPA and WESPA the same."""
    for rid in ("dk-home", "naspa", "wespa"):
        assert scoreless_end(rules(rid), 6, bag=0) and not scoreless_end(rules(rid), 5, bag=0)


def test_home_six_scoreless_only_with_the_bag_empty_004_pointgivning():
    """004 Pointgivning: "Tømmes posen, uden at nogen kan gå ud, slutter spillet efter seks
    pointløse ture i træk": with tiles in the bag six scoreless turns do not end a home game.
    The English rulesets end it whatever the bag."""
    assert not scoreless_end(rules("dk-home"), 6, bag=81)
    assert scoreless_end(rules("dk-home"), 6, bag=0)
    assert scoreless_end(rules("naspa"), 6, bag=81)


def test_home_counts_zero_point_plays_004_pointgivning():
    """004 counts "pointløse ture", turns that score 0: a play of two blanks for 0 counts. SSF
    (002) counts turns that put no new tile down, so a 0-point play resets its count."""
    assert is_scoreless(rules("dk-home"), PLAY, 0) and not is_scoreless(rules("dk-home"), PLAY, 4)
    assert not is_scoreless(rules("ssf-1999"), PLAY, 0)


def test_sbnl_out_needs_equal_turns_003_einde():
    """003 Einde van het spel: a player without letters AND an equal number of turns."""
    r = rules("sbnl-punten")
    assert not out_ends_game(r, [12, 11])
    assert out_ends_game(r, [12, 12])
    assert out_ends_game(rules("naspa"), [12, 11])


def test_endings_per_ruleset():
    assert rules("dsf-2015").endings() == ["out", "passes", "overtime"]
    assert rules("ssf-1999").endings() == ["out", "scoreless", "overtime"]
    assert rules("sbnl-punten").endings() == ["out", "time_up", "blocked"]
    assert rules("dk-home").endings() == ["out", "scoreless", "point_target"]
    assert rules("naspa").endings() == ["out", "scoreless"]
