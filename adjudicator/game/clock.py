"""Overtime: points lost per started minute, and the loss on time (docs/rules.md §11).

DSF: −10 per started minute; more than 5 minutes over loses whatever the score (000 §4.4.1).
SSF: −10 per started minute; 15 minutes over loses, by the real spread but at least 150 (002).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from adjudicator.game.errors import GameInputError
from adjudicator.game.rules import Rules

# Clock readings are often typed as decimals (2.1 minutes); ignore float noise when rounding up.
_EPSILON = 1e-9


@dataclass(frozen=True)
class Overtime:
    minutes: float
    started_minutes: int
    points: int  # ≤ 0
    lost_on_time: bool


def started_minutes(minutes: float) -> int:
    """2:00 over is 2 started minutes; 2:01 over is 3."""
    return max(0, math.ceil(minutes - _EPSILON))


def overtime(rules: Rules, minutes: float, field: str | None = None) -> Overtime:
    """What `minutes` of overtime cost one player under these rules."""
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or math.isnan(minutes):
        raise GameInputError("overtime is a number of minutes", field, "wrong_shape")
    if minutes < 0:
        raise GameInputError(
            f"overtime cannot be negative ({minutes} minutes)", field, "out_of_range"
        )
    clock = rules.clock
    if minutes == 0:
        return Overtime(0, 0, 0, False)
    if not clock.penalty_per_started_minute and not clock.loss_after_minutes:
        what = (
            f"a game lasts {clock.minutes} minutes in all and ends when the time is up"
            if clock.shared
            else "it plays without a clock"
        )
        raise GameInputError(
            f"{rules.ruleset_id} has no overtime: {what} ({clock.source})", field, "no_overtime"
        )
    started = started_minutes(minutes)
    limit = clock.loss_after_minutes
    if not limit:
        lost = False
    elif clock.loss_when == "at_least":
        lost = minutes >= limit - _EPSILON
    else:
        lost = minutes > limit + _EPSILON
    return Overtime(minutes, started, -clock.penalty_per_started_minute * started, lost)
