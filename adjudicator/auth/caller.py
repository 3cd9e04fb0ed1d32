"""The caller of a request, as the audit log records it.

The authentication layer (issue 12, "who is asking") sets `flask.g.caller` before a view runs;
until a request has been authenticated the caller is anonymous. Everything that records who
asked (the audit log, idempotency keys, per-credential limits) reads it through `current_caller`
so there is one place that knows where it lives.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import g, has_request_context

# Kinds: "anonymous" (open mode, no credential), "director", "device" (a paired judge tablet),
# "app" (an API key).
ANONYMOUS_KIND = "anonymous"


@dataclass(frozen=True)
class Caller:
    """`id` is stable and unique within `kind` (an account, device or key id); `name` is for
    people reading the log and may change."""

    kind: str
    id: str
    name: str

    @property
    def key(self) -> str:
        """One string naming the caller, for keys scoped per caller."""
        return f"{self.kind}:{self.id}"


ANONYMOUS = Caller(ANONYMOUS_KIND, "", "anonymous")


def current_caller() -> Caller:
    if not has_request_context():
        return ANONYMOUS
    return g.get("caller") or ANONYMOUS
