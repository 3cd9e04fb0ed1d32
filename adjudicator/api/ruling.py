"""The ruling step: what every route that gives a ruling declares, and the one place where a
ruling is charged, replayed, counted, recorded and measured.

A view that rules on words declares it on its route and only rules:

- `recorded(kind, Model)`: its answer is a ruling recorded in the audit log (a challenge, a
  jury query, a validated move). The step resolves the ruleset, reads the body as `Model`
  (labels included), makes the refusals the route declares as `within` (asked of the ruleset
  before anything else), asks the jury limit before any word is looked up, calls the view with
  `(ruleset, asked)` for the answer's body, then hands it with who asked, what they owe
  (`bookkeeping.pending`) and the request's `Idempotency-Key` to `audit.record.record_ruling`:
  one transaction settles the rate count, counts the jury's words, appends the entry, keeps
  the answer for a retry, and then the ruling is counted in `/metrics`.
- `counted_when_answered`: its answer rules on words but is no recorded ruling (a record's
  verification, its picture); the caller's rate count is settled once it has answered, so a
  refused request uses up nothing.

The declaration also marks the view for the guard (`web.access.RULES`,
`COUNTED_WHEN_ANSWERED`), which then leaves the rate count to this step;
`adjudicator/tests/test_ruling_step.py` walks the URL map so that no route ruling on words
goes around it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from flask import Response

from adjudicator.api.bodies import Labelled, parse
from adjudicator.audit import jury, record
from adjudicator.auth import bookkeeping
from adjudicator.auth.caller import current_caller
from adjudicator.auth.guard import settle_deferred
from adjudicator.catalogue import ruleset_or_404
from adjudicator.rulesets import Ruleset
from adjudicator.web import idempotency
from adjudicator.web.access import COUNTED_WHEN_ANSWERED, RULES
from adjudicator.web.requests import json_body


@dataclass(frozen=True)
class Ruling:
    """A route's declaration: the ruling it gives (`record.KINDS`: a challenge is a query to
    the jury under a jury ruleset), the body it reads (its labels key the jury count), and its
    own refusals of that body under the ruleset."""

    kind: str
    model: type[Labelled]
    within: Callable[[Ruleset, Any], None] | None = None

    def __call__(self, view: Callable[[Ruleset, Any], dict[str, Any]]) -> Callable[..., Response]:
        @wraps(view)
        def step(ruleset_id: str) -> Response:
            ruleset = ruleset_or_404(ruleset_id)
            asked = parse(self.model, json_body())
            if self.within is not None:
                self.within(ruleset, asked)
            labels = asked.labels()
            # asked before any word is looked up: a refused query learns nothing
            jury_limit = jury.counted(ruleset, labels)
            body = view(ruleset, asked)
            caller = current_caller()
            return record.record_ruling(
                body,
                caller=caller,
                charge=bookkeeping.pending(),
                key=idempotency.from_request(caller),
                kind=self.kind_under(ruleset),
                ruleset=ruleset,
                labels=labels,
                jury_limit=jury_limit,
            )

        setattr(step, RULES, self)
        return step

    def kind_under(self, ruleset: Ruleset) -> str:
        """A challenge under a jury ruleset is a query to the jury (recorded as `jury`)."""
        jury_mode = ruleset.challenge.mode == "jury"
        return "jury" if self.kind == "challenge" and jury_mode else self.kind


recorded = Ruling  # `@recorded("move", MoveRequest)`: read as the declaration it is


def counted_when_answered(view: Callable[..., Response]) -> Callable[..., Response]:
    """Declare a route that rules on words but records nothing (games/verify, games/board): a
    device's or key's rate count is settled once it has answered (past the limit: 429 after
    all), so a request refused on the way uses up none of its rulings."""

    @wraps(view)
    def step(**args: Any) -> Response:
        answer = view(**args)
        settle_deferred()
        return answer

    setattr(step, COUNTED_WHEN_ANSWERED, True)
    return step
