"""The ruling step: a route that rules on words declares it (`recorded`, for a ruling the audit
log records; `counted_when_answered`, for one recorded nowhere), and here, in one place, its
ruling is charged, replayed, counted against the jury limit, recorded and measured (the path is
told in docs/explanation/layout.md). The declaration marks the view for the guard (`RULES`,
`COUNTED_WHEN_ANSWERED`), which then leaves the rate count to the step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from flask import Response

from adjudicator.api.bodies import Labelled, parse
from adjudicator.audit import jury, record
from adjudicator.auth import bookkeeping, guard
from adjudicator.auth.caller import current_caller
from adjudicator.catalogue import ruleset_or_404
from adjudicator.problems import DomainError
from adjudicator.rulesets import Ruleset
from adjudicator.web import idempotency
from adjudicator.web.access import COUNTED_WHEN_ANSWERED, RULES
from adjudicator.web.errors import ApiError
from adjudicator.web.netaddrs import client_id
from adjudicator.web.requests import json_body


@dataclass(frozen=True)
class Ruling:
    """A route's declaration: the ruling it gives (`record.KINDS`), the body it reads (its
    labels key the jury count) and its own refusals of it under the ruleset (`within`). The
    view is called with `(ruleset, asked)` and returns the answer's body."""

    kind: str
    model: type[Labelled]
    within: Callable[[Ruleset, Any], None] | None = None

    def __call__(self, view: Callable[[Ruleset, Any], dict[str, Any]]) -> Callable[..., Response]:
        @wraps(view)
        def step(ruleset_id: str) -> Response:
            try:
                ruleset = ruleset_or_404(ruleset_id)
                asked = parse(self.model, json_body())
                if self.within is not None:
                    self.within(ruleset, asked)
                labels = asked.labels()
                # asked before any word is looked up: a refused query learns nothing
                jury_limit = jury.counted(ruleset, labels)
                body = view(ruleset, asked)
            except (ApiError, DomainError):
                # A credential from the worker's cache is checked in force only by the ruling's
                # transaction: refused before it, a revoked one gets its 401, learning nothing
                # of its request (free when nothing is refused).
                bookkeeping.check_in_force(bookkeeping.pending())
                raise
            caller = current_caller()
            jury_mode = ruleset.challenge.mode == "jury"  # a challenge there: a jury query
            return record.record_ruling(
                body,
                caller=caller,
                charge=bookkeeping.pending(),
                # Whose Idempotency-Keys the request's is among: its credential's, or for an
                # anonymous caller (open mode) its address as the guard derives it (behind
                # TRUSTED_PROXIES too), so that one client cannot replay another's key and body
                # and be handed the other's ruling.
                key=idempotency.from_request(
                    lambda: f"{caller.kind}:{client_id()}" if caller.anonymous else caller.key
                ),
                kind="jury" if self.kind == "challenge" and jury_mode else self.kind,
                ruleset=ruleset,
                labels=labels,
                jury_limit=jury_limit,
            )

        setattr(step, RULES, self)
        return step


recorded = Ruling  # `@recorded("move", MoveRequest)`: read as the declaration it is


def counted_when_answered(view: Callable[..., Response]) -> Callable[..., Response]:
    """A route that rules on words but records nothing: the rate count is settled once it has
    answered (past the limit: 429 after all), so a refused request uses up no ruling."""

    @wraps(view)
    def step(**args: Any) -> Response:
        answer = view(**args)
        guard.settle_deferred()
        return answer

    setattr(step, COUNTED_WHEN_ANSWERED, True)
    return step
