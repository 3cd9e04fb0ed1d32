"""Exchange rules, each test naming its source section (docs/rules.md §7)."""

from __future__ import annotations

import pytest

from adjudicator.game.errors import GameInputError
from adjudicator.game.exchange import exchange_allowed

from .helpers import rules


def test_dsf_exchange_needs_7_in_bag_000_4_7b():
    """000 §4.7b "mindst 7 brikker": 7 is enough (001's "more than 7" loses to 000)."""
    assert exchange_allowed(rules("dsf-2015"), 7).allowed
    no = exchange_allowed(rules("dsf-2015"), 6)
    assert not no.allowed and no.code == "bag_too_small" and no.source == "000 §4.7b"


@pytest.mark.parametrize("rid", ["ssf-1999", "dk-home", "naspa", "naspa-collins", "wespa"])
def test_exchange_needs_7_in_bag_002_004(rid):
    """002: "När det finns färre än sju brickor kvar … inte längre tillåtet att byta"."""
    assert exchange_allowed(rules(rid), 7).allowed
    assert not exchange_allowed(rules(rid), 6).allowed


def test_sbnl_opening_three_turns_may_exchange_003_ruilregel():
    """003 Ruilregel: at the start, up to three turns in a row may be exchanges."""
    r = rules("sbnl-punten")
    for turn in (1, 2, 3):
        v = exchange_allowed(r, 88, turn=turn, previous_placed=False, exchanges_in_a_row=turn - 1)
        assert v.allowed and v.code == "opening_turns"


def test_sbnl_opening_exchanges_must_come_in_a_row_003_ruilregel():
    """003 Ruilregel: "ten hoogste drie beurten achter elkaar ruilen"; after that "steeds
    éénmaal ruilen … bij de voorafgaande beurt is minimaal één letter weggelegd". Turn 1 a
    play, turn 2 an exchange: the opening run is broken, so turn 3 falls under the later rule,
    and its previous turn put nothing down."""
    r = rules("sbnl-punten")
    v = exchange_allowed(r, 80, turn=3, previous_placed=False, exchanges_in_a_row=1)
    assert not v.allowed and v.code == "previous_turn_placed_nothing"
    v = exchange_allowed(r, 80, turn=2, previous_placed=True)  # the play broke the run
    assert v.allowed and v.code == "bag_has_enough"
    with pytest.raises(GameInputError) as e:
        exchange_allowed(r, 80, turn=3, previous_placed=False)
    assert e.value.field == "exchanges_in_a_row"


@pytest.mark.parametrize("ruleset", ["sbnl-punten", "dsf-2015"])
@pytest.mark.parametrize(
    "turn, in_a_row",
    [(186, -318), (None, -1), (3, 3), (1, 1), (9, 40)],  # negative, or more turns than were
)
def test_an_impossible_run_of_exchanges_is_refused_even_where_it_decides_nothing(
    ruleset, turn, in_a_row
):
    """Past the opening turns (or under a ruleset without the opening run) the run decides
    nothing; it was ignored there, so -318 exchanges in a row were answered."""
    with pytest.raises(GameInputError) as e:
        exchange_allowed(
            rules(ruleset), 65, turn=turn, previous_placed=False, exchanges_in_a_row=in_a_row
        )
    assert (e.value.field, e.value.code) == ("exchanges_in_a_row", "out_of_range")


@pytest.mark.parametrize("ruleset", ["sbnl-punten", "dsf-2015", "wespa"])
def test_a_run_of_exchanges_ending_in_a_play_is_refused(ruleset):
    """The previous turn cannot have put a tile down and been an exchange: the run won over the
    other answer where it decided (a play broke it), and was ignored where it did not."""
    with pytest.raises(GameInputError) as e:
        exchange_allowed(rules(ruleset), 80, turn=3, previous_placed=True, exchanges_in_a_row=2)
    assert (e.value.field, e.value.code) == ("exchanges_in_a_row", "out_of_range")
    v = exchange_allowed(rules(ruleset), 80, turn=3, previous_placed=True, exchanges_in_a_row=0)
    assert v.allowed


def test_sbnl_later_exchange_needs_previous_placement_003_ruilregel():
    """003 Ruilregel: later "steeds éénmaal ruilen", only if the previous turn laid a letter."""
    r = rules("sbnl-punten")
    assert exchange_allowed(r, 40, turn=4, previous_placed=True).allowed
    v = exchange_allowed(r, 40, turn=4, previous_placed=False)
    assert not v.allowed and v.code == "previous_turn_placed_nothing"


def test_sbnl_later_exchange_needs_16_in_bag_003_ruilregel():
    """003 Ruilregel: "er moeten 16 of meer blokjes in het zakje zitten"."""
    r = rules("sbnl-punten")
    assert exchange_allowed(r, 16, turn=9, previous_placed=True).allowed
    v = exchange_allowed(r, 15, turn=9, previous_placed=True)
    assert not v.allowed and v.code == "bag_too_small" and "16" in v.reason


def test_sbnl_needs_turn_and_previous_003_ruilregel():
    r = rules("sbnl-punten")
    with pytest.raises(GameInputError) as e:
        exchange_allowed(r, 40)
    assert e.value.field == "turn"
    with pytest.raises(GameInputError) as e:
        exchange_allowed(r, 40, turn=5)
    assert e.value.field == "previous"


def test_exchange_count_and_bad_bag():
    r = rules("wespa")
    assert exchange_allowed(r, 7, count=7).allowed
    with pytest.raises(GameInputError):
        exchange_allowed(r, -1)
    with pytest.raises(GameInputError):
        exchange_allowed(r, 50, count=8)
    assert not exchange_allowed(rules("sbnl-punten"), 3, turn=1, count=5).allowed
