"""The ruling step: a route that rules on words declares it, and this is the one place where
its ruling is charged, replayed, counted, recorded and measured.

`recorded(kind, Model, within)`: the answer is a ruling for the audit log (a challenge, a jury
query, a move). The step resolves the ruleset, reads the body as `Model`, makes the route's own
refusals (`within`), asks the jury limit before any word is looked up, and calls the view with
`(ruleset, asked)` for the answer's body; `audit.record.record_ruling` then settles the rate
count, counts the jury's words, appends the entry and keeps the answer under its
`Idempotency-Key` in one transaction, and counts the ruling in `/metrics`.
`counted_when_answered`: the answer rules on words but is recorded nowhere (games/verify,
games/board): the rate count is settled once it has answered, so a refusal costs nothing.

Either marks the view for the guard (`RULES`, `COUNTED_WHEN_ANSWERED`), which then leaves the
rate count to the step; `tests/test_ruling_step.py` walks the URL map so that none goes around.
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
            jury_mode = ruleset.challenge.mode == "jury"  # a challenge there: a jury query
            return record.record_ruling(
                body,
                caller=caller,
                charge=bookkeeping.pending(),
                key=idempotency.from_request(caller),
                kind="jury" if self.kind == "challenge" and jury_mode else self.kind,
                ruleset=ruleset,
                labels=labels,
                jury_limit=jury_limit,
            )

        setattr(step, RULES, self)
        return step


recorded = Ruling  # `@recorded("move", MoveRequest)`: read as the declaration it is


def counted_when_answered(view: Callable[..., Response]) -> Callable[..., Response]:
    """Declare a route that rules on words but records nothing (games/verify, games/board): a
    device's or key's rate count is settled once it has answered (past the limit: 429 after
    all), so a request refused on the way uses up none of its rulings."""

    @wraps(view)
    def step(**args: Any) -> Response:
        answer = view(**args)
        guard.settle_deferred()
        return answer

    setattr(step, COUNTED_WHEN_ANSWERED, True)
    return step
