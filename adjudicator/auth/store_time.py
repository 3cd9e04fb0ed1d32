"""The store's time (naive UTC), one function so tests can move it, and seconds between times."""

from __future__ import annotations

import math
from datetime import datetime

from adjudicator.store import utcnow


def now() -> datetime:
    return utcnow()


def seconds_until(later: datetime, at: datetime) -> int:
    """Whole seconds from `at` to `later`, rounded up, at least 1 (a Retry-After value)."""
    return max(1, math.ceil((later - at).total_seconds()))
