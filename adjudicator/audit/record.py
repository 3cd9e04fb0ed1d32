"""A ruling, recorded: written in a transaction committed before the answer is sent (shared
with the rulings answered at the same moment, `groupcommit`).

In order, under the audit log's append lock: a retried request (same `Idempotency-Key`) gets its
stored answer and nothing else happens; a device or key is counted against its rate limit and
its last use noted (refused past the limit; `auth.bookkeeping`); a jury query is counted (or
refused past its limit); the entry is appended to the hash chain; the answer is stored under its
idempotency key. Any error rolls all of it back, so a count never exists without its entry or
the other way round. Only once that has committed is the ruling counted in `/metrics`: a ruling
refused on the way (jury limit, rate limit, the store down) or replayed was not given.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Flask, Response, current_app
from sqlalchemy import Connection

from adjudicator.audit import jury
from adjudicator.audit.groupcommit import Batch, GroupCommit
from adjudicator.audit.labels import Labels
from adjudicator.auth import bookkeeping
from adjudicator.auth.caller import current_caller
from adjudicator.auth.settings import settings
from adjudicator.rulesets import Ruleset
from adjudicator.web import idempotency, metrics

KINDS = ("challenge", "jury", "move")
METRICS_KIND = {"challenge": "challenge", "jury": "challenge", "move": "move"}  # its label values


def ruling_kind(ruleset: Ruleset) -> str:
    """What a challenge request is under this ruleset: a challenge, or a query to the jury."""
    return "jury" if ruleset.challenge.mode == "jury" else "challenge"


def answer(
    body: dict[str, Any],
    *,
    kind: str,
    ruleset: Ruleset,
    labels: Labels,
    verdict: str | None,
    consequence: dict[str, Any] | None = None,
    play: str | None = None,
    jury_limit: int | None = None,
) -> Response:
    """Record the ruling `body` describes (its `ruling_id`, `lexicon` and `words` as answered)
    and return the answer. With `jury_limit`, count the query and add `queries_remaining`."""
    caller = current_caller()
    key = idempotency.from_request(caller)
    charge = bookkeeping.pending()  # a device's or key's rate count and last use, if deferred
    logged = settings().records_rulings  # open mode may record nothing (OPEN_MODE_AUDIT)
    lexicon = body["lexicon"]
    entry = {
        "ruling_id": body["ruling_id"],
        "kind": kind,
        "ruleset": ruleset.id,
        "lexicon_id": lexicon["id"],
        "lexicon_sha256": lexicon["sha256"],
        "caller_kind": caller.kind,
        "caller_id": caller.id,
        "caller_name": caller.name,
        "event": labels.event,
        "round": labels.round,
        "table_label": labels.table,
        "game": labels.game,
        "player": labels.player,
        "words": body["words"],
        "verdict": verdict,
        "consequence": consequence,
        "play": play,
    }

    # Runs in whichever request's thread leads the commit: no `request` or `g` in here.
    def work(conn: Connection, batch: Batch) -> Response | bytes:
        if key is not None:
            replay = idempotency.lookup(conn, key)
            if replay is not None:
                return replay
        if charge is not None:
            bookkeeping.settle(conn, charge)
        if kind == "jury":
            body["queries_remaining"] = (
                None
                if jury_limit is None
                else jury.count(conn, labels, jury_limit, len(body["words"]))
            )
        if logged:
            batch.append(entry)
        payload = orjson.dumps(body)
        if key is not None:
            idempotency.remember(conn, key, 200, payload)
        return payload

    if logged or key is not None or charge is not None or jury_limit is not None:
        done = current_app.extensions["group_commit"].submit(work)
    else:  # nothing to store: no transaction, no wait for the disk
        done = work(None, None)  # type: ignore[arg-type]
    if isinstance(done, Response):
        return done  # a replay: ruled, recorded and counted the first time
    metrics.count_ruling(ruleset.id, METRICS_KIND[kind], verdict)
    return current_app.response_class(done, mimetype="application/json")


def init_app(app: Flask) -> None:
    observe = metrics.observe_commit if app.extensions.get("metrics_on") else None
    app.extensions["group_commit"] = GroupCommit(app.extensions["store"], observe)
