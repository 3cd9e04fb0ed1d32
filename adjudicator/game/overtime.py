"""Overtime: points lost per started minute, and the loss on time (docs/rules.md §11).

DSF: −10 per started minute; more than 5 minutes over loses whatever the score (000 §4.4.1).
SSF: −10 per started minute; 15 minutes over loses, by the real spread but at least 150 (002).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from adjudicator.game.errors import GameInputError
from adjudicator.game.rules import Rules
from adjudicator.messages import Said
from adjudicator.problems import Problem

# Clock readings are often typed as decimals (2.1 minutes); ignore float noise when rounding up.
_EPSILON = 1e-9


@dataclass(frozen=True)
class Overtime:
    started_minutes: int
    points: int  # ≤ 0
    lost_on_time: bool
    maybe_lost: bool = False  # read off a penalty: the last started minute may reach the limit


def overtime(rules: Rules, minutes: float, field: str | None = None) -> Overtime:
    """What `minutes` of overtime cost one player under these rules."""
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or math.isnan(minutes):
        raise GameInputError("overtime is a number of minutes", field, Problem.WRONG_SHAPE)
    if minutes < 0:
        raise GameInputError(
            f"overtime cannot be negative ({minutes} minutes)", field, Problem.OUT_OF_RANGE
        )
    clock = rules.clock
    if minutes == 0:
        return Overtime(0, 0, False)
    if not clock.penalty_per_started_minute and not clock.loss_after_minutes:
        what = (
            f"a game lasts {clock.minutes} minutes in all and ends when the time is up"
            if clock.shared
            else "it plays without a clock"
        )
        raise GameInputError(
            f"{rules.id} has no overtime: {what} ({clock.source})",
            field,
            Problem.NO_OVERTIME,
        )
    started = math.ceil(minutes - _EPSILON)  # 2:00 over is 2 started minutes; 2:01 over is 3
    return Overtime(started, -clock.penalty_per_started_minute * started, is_lost(rules, minutes))


def is_lost(rules: Rules, minutes: float) -> bool:
    """Whether `minutes` over loses the game: DSF more than 5 (000 §4.4.1c), SSF 15 (002)."""
    clock = rules.clock
    limit = clock.loss_after_minutes
    if not limit:
        return False
    if clock.loss_when == "at_least":
        return minutes >= limit - _EPSILON
    return minutes > limit + _EPSILON


def loss_limit(rules: Rules) -> str:
    """The overtime that loses, in words: "more than 5 minutes" (DSF) or "at least 15 minutes"
    (SSF), so that every message says the limit as `is_lost` applies it."""
    clock = rules.clock  # `loss_when` names the sentence: overtime_more_than, overtime_at_least
    return Said(f"overtime_{clock.loss_when}", n=clock.loss_after_minutes)


def from_penalty(rules: Rules, points: int) -> Overtime | None:
    """A record's time-penalty line (`(time) -20`) → the overtime it stands for, or None when
    no overtime under these rules costs `points`. N started minutes mean more than N − 1 and
    at most N minutes, so a loss is certain or, at the limit, only possible."""
    per = rules.clock.penalty_per_started_minute
    if not per or points >= 0 or points % per:
        return None
    started = -points // per
    certain = is_lost(rules, started - 1 + 1e-6)
    return Overtime(started, points, certain, not certain and is_lost(rules, started))
