"""Challenge consequences (docs/rules.md §6), each naming its source section."""

from __future__ import annotations

from adjudicator.game.challenge import outcome

from .helpers import rules


def test_dsf_valid_challenger_loses_turn_000_4_6d():
    o = outcome(rules("dsf-2015"), valid=True)
    assert o.challenger_loses_turn and o.player_points == o.challenger_points == 0


def test_dsf_invalid_play_withdrawn_000_4_6e():
    o = outcome(rules("dsf-2015"), valid=False, turn_score=31)
    assert o.withdrawn and o.player_points == -31


def test_ssf_valid_challenger_minus_10_002():
    o = outcome(rules("ssf-1999"), valid=True, words=3)
    assert o.challenger_points == -10 and not o.challenger_loses_turn


def test_sbnl_invalid_turn_score_plus_20_003_strafpuntenregel():
    """003 Strafpuntenregel: the turn's points are deducted plus 20; the tiles stay."""
    o = outcome(rules("sbnl-punten"), valid=False, turn_score=24)
    assert o.player_points == -44 and not o.withdrawn


def test_wespa_and_collins_plus_5_per_word():
    for rid in ("wespa", "naspa-collins"):
        assert outcome(rules(rid), valid=True, words=2).player_points == 10


def test_home_free_challenge_option_004():
    """004 "Gratis protest": a lost challenge costs nothing."""
    assert outcome(rules("dk-home"), valid=True).challenger_loses_turn
    assert not outcome(rules("dk-home"), valid=True, free_challenge=True).challenger_loses_turn
    # the option exists only where the ruleset offers it
    assert outcome(rules("dsf-2015"), valid=True, free_challenge=True).challenger_loses_turn
