"""Rulesets and the challenge ruling, disclosed as each federation allows.

Under the `play` policy the response must not tell which word failed by any channel: body,
status, headers or time. So every word is looked up (no early exit), the status is 200 either
way, and what is said about each word is decided by the one disclosure gate
(`adjudicator.disclosure`).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from adjudicator import disclosure, idempotency
from adjudicator.api import API_PREFIX
from adjudicator.audit import record
from adjudicator.audit.labels import FIELDS as LABEL_FIELDS
from adjudicator.audit.labels import read_labels
from adjudicator.auth import bookkeeping
from adjudicator.auth.caller import current_caller
from adjudicator.auth.guard import lexicon_dependent, public, rules
from adjudicator.caching import cacheable
from adjudicator.catalogue import (
    lexicon_for,
    public_ruleset,
    ruleset_or_404,
    rulesets,
)
from adjudicator.errors import ApiError
from adjudicator.jury import counted
from adjudicator.requests import json_body, only_fields
from adjudicator.rulesets import Ruleset
from adjudicator.rulings import new_ruling_id
from adjudicator.wordforms import normalise_word

bp = Blueprint("challenge", __name__, url_prefix=API_PREFIX)

# The fields a challenge request may carry; the judge page reads them to know what to send.
CHALLENGE_FIELDS = {"words", *LABEL_FIELDS}


def free_challenge(ruleset: Ruleset, data: dict[str, Any]) -> bool:
    """The request's `free_challenge`: the home variant where a failed challenge costs nothing
    (004 Almindelige varianter), only where the ruleset offers it."""
    value = data.get("free_challenge", False)
    if not isinstance(value, bool):
        raise ApiError(
            400, "wrong_shape", "'free_challenge' must be true or false", "free_challenge"
        )
    if value and not ruleset.rules.challenge.free_challenge_option:
        raise ApiError(
            422,
            "inconsistent_input",
            f"{ruleset.id} has no free-challenge variant",
            "free_challenge",
        )
    return value


@bp.get("/rulesets")
@public
def list_rulesets():
    return cacheable(jsonify(rulesets=[public_ruleset(r) for _, r in sorted(rulesets().items())]))


@bp.get("/rulesets/<ruleset_id>")
@public
def get_ruleset(ruleset_id: str):
    return cacheable(jsonify(public_ruleset(ruleset_or_404(ruleset_id))))


@bp.post("/rulesets/<ruleset_id>/challenge")
@lexicon_dependent
@rules
def challenge(ruleset_id: str):
    ruleset = ruleset_or_404(ruleset_id)
    data = json_body()
    only_fields(data, CHALLENGE_FIELDS | {"free_challenge"})  # the page never sends it
    free = free_challenge(ruleset, data)
    words = data.get("words")
    if not isinstance(words, list):
        raise ApiError(400, "wrong_shape", "'words' must be a list of strings", "words")
    if not 1 <= len(words) <= ruleset.max_words:
        raise ApiError(
            400,
            "word_count",
            f"challenge 1 to {ruleset.max_words} words, not {len(words)}",
            "words",
        )
    labels = read_labels(data)
    jury_limit = counted(ruleset, labels)  # before any lookup: a refused query learns nothing
    lexicon = lexicon_for(ruleset)
    normalised = [
        normalise_word(lexicon.normaliser, word, f"words[{i}]") for i, word in enumerate(words)
    ]
    verdicts = [word in lexicon for word in normalised]  # every word, never stopping early
    listed = disclosure.words(
        ruleset.policy,
        [{"input": text, "word": word} for text, word in zip(words, normalised, strict=True)],
        verdicts,
        # the order sent is the client's to vary: echo a canonical order instead
        canonical_order=lambda item: (item["word"], item["input"]),
    )
    ruling = disclosure.play_ruling(verdicts)
    consequence = ruleset.consequence(ruling == "valid", len(words), free)
    body = {
        "ruling_id": new_ruling_id(),
        "ruleset": ruleset.id,
        "policy": ruleset.policy,
        "ruling": ruling,
        "words": listed,
        "consequence": consequence,
        "lexicon": lexicon.identity(),
    }
    caller = current_caller()  # the view says who asked, what they owe and the key it came with
    return record.record_ruling(
        body,
        caller=caller,
        charge=bookkeeping.pending(),
        key=idempotency.from_request(caller),
        kind=record.ruling_kind(ruleset),
        ruleset=ruleset,
        labels=labels,
        verdict=ruling,
        consequence=consequence,
        jury_limit=jury_limit,
    )
