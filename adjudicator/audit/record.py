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

from dataclasses import dataclass
from typing import Any

import orjson
from flask import Flask, Response, current_app
from sqlalchemy import Connection

from adjudicator.audit import health, jury
from adjudicator.audit.groupcommit import Batch, GroupCommit
from adjudicator.audit.labels import Labels, under_event
from adjudicator.auth import bookkeeping
from adjudicator.auth.caller import Caller
from adjudicator.rulesets import Ruleset
from adjudicator.settings import current_settings
from adjudicator.web import idempotency, metrics

KINDS = ("challenge", "jury", "move")
METRICS_KIND = {"challenge": "challenge", "jury": "challenge", "move": "move"}  # its label values


def audit_entry(
    body: dict[str, Any],
    *,
    kind: str,
    ruleset: Ruleset,
    caller: Caller,
    labels: Labels,
) -> dict[str, Any]:
    """The audit log's entry for the ruling `body` answers: what was asked, by whom, under which
    ruleset and lexicon, and what was ruled (the chain adds its seq, time and hashes). What was
    ruled is read from the answer `body` itself and from nothing else, so the log can never say
    more or other than the caller was told: the words as listed, the ruling, and the
    consequence (a challenge's as answered; a move's legality, placement error codes and score,
    as answered: no score for an illegal play)."""
    lexicon = body["lexicon"]
    if kind == "move":
        consequence = {
            "legal": body["legal"],
            "errors": [error["code"] for error in body["errors"]],
            "score": body["score"],
        }
        play = body["notation"]
    else:
        consequence, play = body["consequence"], None
    return {
        "ruling_id": body["ruling_id"],
        "kind": kind,
        "ruleset": ruleset.id,
        "lexicon_id": lexicon["id"],
        "lexicon_sha256": lexicon["sha256"],
        "lexicon_version": lexicon.get("version"),  # the edition (000 §2.1), as the answer named it
        "lexicon_in_force_from": lexicon.get("in_force_from"),
        "caller_kind": caller.kind,
        "caller_id": caller.id,
        "caller_name": caller.name,
        "event": labels.event,
        "round": labels.round,
        "table_label": labels.table,
        "game": labels.game,
        "player": labels.player,
        "words": body["words"],
        "verdict": body["ruling"],
        "consequence": consequence,
        "play": play,
    }


@dataclass(frozen=True)
class RulingWrite:
    """The ruling's one write transaction, step by step, as the group commit runs it (maybe in
    another request's thread: everything it needs is here, nothing is read from `request` or
    `g`). It may run twice (a failed batch is retried one by one), so each step starts afresh.
    """

    body: dict[str, Any]
    entry: dict[str, Any] | None  # None: nothing is logged (open mode may record nothing)
    key: idempotency.Key | None
    charge: bookkeeping.Pending | None
    labels: Labels
    jury_limit: int | None
    counts_jury: bool  # under a jury ruleset: the answer says `queries_remaining`

    @property
    def writes(self) -> bool:
        """Whether anything is stored: if not, no transaction and no wait for the disk."""
        return any(x is not None for x in (self.entry, self.key, self.charge, self.jury_limit))

    def __call__(self, conn: Connection, batch: Batch) -> Response | bytes:
        """The stored answer to replay, or the new answer's JSON once every step has run."""
        if self.key is not None:
            replay = idempotency.lookup(conn, self.key)
            if replay is not None:
                return replay  # ruled, recorded and counted the first time
        if self.charge is not None:
            bookkeeping.settle(conn, self.charge)  # refused past the rate limit
        if self.counts_jury:  # the words left to this player in this game; None: uncounted
            # Every word the answer lists was ruled on (a challenge's words, the words a play
            # forms; none for an illegal play), so each one counts; refused past the limit.
            limit, words = self.jury_limit, len(self.body["words"])
            self.body["queries_remaining"] = (
                None if limit is None else jury.count(conn, self.labels, limit, words)
            )
        if self.entry is not None:
            batch.append(self.entry)
        payload = orjson.dumps(self.body)
        if self.key is not None:
            idempotency.remember(conn, self.key, 200, payload)
        return payload


def record_ruling(
    body: dict[str, Any],
    *,
    caller: Caller,
    charge: bookkeeping.Pending | None,
    key: idempotency.Key | None,
    kind: str,
    ruleset: Ruleset,
    labels: Labels,
    jury_limit: int | None = None,
) -> Response:
    """Record the ruling `body` describes (its `ruling_id`, `lexicon`, `words`, `ruling` and
    consequence as answered: `audit_entry`), asked by `caller`, and return the answer: committed
    before it is returned. The ruling step (`adjudicator.api.ruling`) is its one caller in a
    request: `charge` is the caller's deferred rate count and last use (`bookkeeping.pending`),
    `key` the request's idempotency key (`idempotency.from_request`).
    With `jury_limit`, the query is counted and the answer says `queries_remaining`: any ruling under a jury ruleset (a challenge put to the
    jury, a validated move) is a query to the jury, and counts the words it rules on. Where the
    service runs an event (`ADJUDICATOR_EVENT`) the ruling is recorded under it
    (`labels.under_event`)."""
    labels = under_event(labels, current_settings().event)  # the service's event
    entry = None
    if current_settings().records_rulings:  # open mode may record nothing (OPEN_MODE_AUDIT)
        entry = audit_entry(body, kind=kind, ruleset=ruleset, caller=caller, labels=labels)
    write = RulingWrite(
        body=body,
        entry=entry,
        key=key,
        charge=charge,
        labels=labels,
        jury_limit=jury_limit,
        counts_jury=ruleset.challenge.mode == "jury",
    )
    if write.writes:
        app = current_app._get_current_object()  # type: ignore[attr-defined]
        try:
            done = app.extensions["group_commit"].submit(write)
        except Exception as exc:  # rolled back whole: nothing of it was written
            refused = health.refusal(exc, app.extensions["store"])
            if refused is None:
                raise  # an outage (503 store_unavailable), a refusal such as the jury limit
            raise health.answer(app, refused) from None
        health.recorded(app)
    else:  # nothing to store: no transaction, no wait for the disk
        done = write(None, None)  # type: ignore[arg-type]
    if isinstance(done, Response):
        return done  # a replay: counted in /metrics the first time
    metrics.count_ruling(ruleset.id, METRICS_KIND[kind], body["ruling"])
    return current_app.response_class(done, mimetype="application/json")


def init_app(app: Flask) -> None:
    observe = metrics.observe_commit if current_settings(app).metrics else None
    app.extensions["group_commit"] = GroupCommit(app.extensions["store"], observe)
