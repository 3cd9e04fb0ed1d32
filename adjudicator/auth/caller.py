"""The caller of a request, as the guard resolves it and the audit log records it.

The guard (`adjudicator.auth.guard`) sets `flask.g.caller` before a view runs; until a request
has been authenticated the caller is anonymous. Everything that records who asked reads it
through `current_caller`, so there is one place that knows where it lives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from flask import g, has_request_context

# Kinds: "anonymous" (open mode, no credential), "director", "device" (a paired judge tablet),
# "app" (an API key).
ANONYMOUS_KIND = "anonymous"


@dataclass(frozen=True)
class Caller:
    """`id` is stable and unique within `kind` (an account, device or key id); `name` is for
    people reading the log and may change. `rulesets` are the rulesets the credential may rule
    under; None means every ruleset."""

    kind: str
    id: str
    name: str
    rulesets: frozenset[str] | None = None
    # When this device's or key's use was last noted, as read when it was resolved: the guard
    # writes a new one only when it is due, so resolving a credential is a read.
    last_used_at: datetime | None = field(default=None, compare=False, repr=False)

    @property
    def key(self) -> str:
        """One string naming the caller, for keys scoped per caller."""
        return f"{self.kind}:{self.id}"

    @property
    def anonymous(self) -> bool:
        return self.kind == ANONYMOUS_KIND

    def may_use(self, ruleset_id: str) -> bool:
        return self.rulesets is None or ruleset_id in self.rulesets

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "id": self.id or None,
            "name": self.name,
            "rulesets": None if self.rulesets is None else sorted(self.rulesets),
        }


ANONYMOUS = Caller(ANONYMOUS_KIND, "", "anonymous")


def current_caller() -> Caller:
    if not has_request_context():
        return ANONYMOUS
    return g.get("caller") or ANONYMOUS
