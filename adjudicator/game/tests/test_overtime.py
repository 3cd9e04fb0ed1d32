"""Overtime (docs/rules.md §11), each test naming its source section."""

from __future__ import annotations

import pytest

from adjudicator.game.errors import GameInputError
from adjudicator.game.overtime import overtime

from .helpers import rules


def test_dsf_minus_10_per_started_minute_000_4_4_1b():
    r = rules("dsf-2015")
    assert overtime(r, 0.1).points == -10
    assert overtime(r, 2).points == -20
    assert overtime(r, 2.01).points == -30


def test_dsf_more_than_5_minutes_loses_000_4_4_1c():
    r = rules("dsf-2015")
    assert not overtime(r, 5).lost_on_time
    assert overtime(r, 5.02).lost_on_time


def test_ssf_15_minutes_loses_002():
    r = rules("ssf-1999")
    assert overtime(r, 14.9).points == -150 and not overtime(r, 14.9).lost_on_time
    assert overtime(r, 15).lost_on_time


def test_no_overtime_without_clock_004_003():
    for rid in ("dk-home", "sbnl-punten"):
        with pytest.raises(GameInputError) as e:
            overtime(rules(rid), 1)
        assert e.value.code == "no_overtime"
        assert overtime(rules(rid), 0).points == 0


def test_negative_overtime_is_refused():
    with pytest.raises(GameInputError):
        overtime(rules("dsf-2015"), -1)


@pytest.mark.parametrize("lang", ["en", "da", "sv", "nl"])
def test_the_loss_limit_is_said_as_each_ruleset_applies_it(lang):
    """`loss_when` names the sentence (`overtime_<loss_when>`): each one is in every catalogue."""
    from adjudicator.game.overtime import loss_limit
    from adjudicator.game.rules import LOSS_WHEN
    from adjudicator.messages import catalogue, said_in

    assert {f"overtime_{when}" for when in LOSS_WHEN} <= set(catalogue(lang))
    if lang == "en":
        assert said_in(lang, loss_limit(rules("dsf-2015"))) == "more than 5 minutes"
        assert said_in(lang, loss_limit(rules("ssf-1999"))) == "at least 15 minutes"
