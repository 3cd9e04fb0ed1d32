"""Rulesets and the challenge ruling, disclosed as each federation allows.

Under the `play` policy the response must not tell which word failed by any channel: body,
status, headers or time. So every word is looked up (no early exit), the status is 200 either
way, per-word verdicts are only built under the `word` policy, and the words are echoed in a
canonical order rather than the order sent.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from adjudicator.api import API_PREFIX
from adjudicator.catalogue import (
    lexicon_for,
    public_ruleset,
    ruleset_or_404,
    rulesets,
)
from adjudicator.errors import ApiError
from adjudicator.requests import json_body, only_fields
from adjudicator.rulings import new_ruling_id
from adjudicator.wordforms import normalise_word

bp = Blueprint("challenge", __name__, url_prefix=API_PREFIX)


@bp.get("/rulesets")
def list_rulesets():
    return jsonify(rulesets=[public_ruleset(r) for _, r in sorted(rulesets().items())])


@bp.get("/rulesets/<ruleset_id>")
def get_ruleset(ruleset_id: str):
    return jsonify(public_ruleset(ruleset_or_404(ruleset_id)))


@bp.post("/rulesets/<ruleset_id>/challenge")
def challenge(ruleset_id: str):
    ruleset = ruleset_or_404(ruleset_id)
    data = json_body()
    only_fields(data, {"words"})
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
    lexicon = lexicon_for(ruleset)
    normalised = [
        normalise_word(lexicon.normaliser, word, f"words[{i}]") for i, word in enumerate(words)
    ]
    verdicts = [word in lexicon for word in normalised]  # every word, never stopping early
    valid = all(verdicts)
    listed = [{"input": text, "word": word} for text, word in zip(words, normalised, strict=True)]
    if ruleset.policy == "word":
        for item, ok in zip(listed, verdicts, strict=True):
            item["valid"] = ok
    else:
        # A canonical order: the body then depends only on which words were challenged, so
        # moving the invalid word from first to third changes nothing but the ruling id.
        listed.sort(key=lambda item: (item["word"], item["input"]))
    body = {
        "ruling_id": new_ruling_id(),
        "ruleset": ruleset.id,
        "policy": ruleset.policy,
        "ruling": "valid" if valid else "invalid",
        "words": listed,
        "consequence": ruleset.consequence(valid, len(words)),
        "lexicon": lexicon.identity(),
    }
    return jsonify(body)
