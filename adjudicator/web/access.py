"""The access markers every route carries, declared where the route is defined.

`public`, `lexicon_dependent`, `directors_only` (and `not_a_ruling` for the rate-limit
bookkeeping) only mark a view or a blueprint; the guard (`adjudicator.auth.guard`) reads the
marks and enforces them. They live in the HTTP plumbing so that any route, the metrics endpoint
among them, can be marked without importing the guard. A view that gives a ruling is marked
`RULES` or `COUNTED_WHEN_ANSWERED` by its declaration (`adjudicator.api.ruling`), so that the
guard leaves its rate count to the ruling step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

PUBLIC = "public"
LEXICON_DEPENDENT = "lexicon_dependent"
DIRECTORS_ONLY = "directors_only"
ACCESS = "adjudicator_access"


V = TypeVar("V")  # a view, or a blueprint (every route of it)


def _mark(attribute: str, value: object) -> Callable[[V], V]:
    def mark(target: V) -> V:
        setattr(target, attribute, value)
        return target

    return mark


public = public_blueprint = _mark(ACCESS, PUBLIC)
lexicon_dependent = _mark(ACCESS, LEXICON_DEPENDENT)
directors_only = _mark(ACCESS, DIRECTORS_ONLY)
RULES = "adjudicator_rules"  # a recorded ruling: the rate count is settled in its transaction
COUNTED_WHEN_ANSWERED = "adjudicator_counted_when_answered"  # counted once it has answered
NOT_A_RULING = "adjudicator_not_a_ruling"
# Marks a read a kiosk makes beside its rulings (the jury's words left): it needs the same
# credential, but the rate limit of rulings does not count it, so asking before each query
# never uses up the rulings themselves. Its last use is still noted.
not_a_ruling = _mark(NOT_A_RULING, True)
