"""Rulesets and the challenge ruling, disclosed as each federation allows.

Under the `play` policy the response must not tell which word failed by any channel: body,
status, headers or time. So every word is looked up (no early exit), the status is 200 either
way, and what is said about each word is decided by the one disclosure gate
(`adjudicator.disclosure`).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from adjudicator import disclosure, store
from adjudicator.api.bodies import ChallengeRequest, JuryCountQuery, parse
from adjudicator.api.ruling import recorded
from adjudicator.audit import jury
from adjudicator.audit.jury import counted
from adjudicator.catalogue import (
    lexicon_for,
    public_ruleset,
    ruleset_or_404,
    rulesets,
)
from adjudicator.problems import Problem
from adjudicator.rulesets import Ruleset
from adjudicator.rulings import new_ruling_id
from adjudicator.web import API_PREFIX
from adjudicator.web.access import lexicon_dependent, not_a_ruling, public
from adjudicator.web.answers import Ruling
from adjudicator.web.caching import cacheable
from adjudicator.web.contract import CREDENTIALS, LABELS, RULESET, RULING, WORD_FORMS, operation
from adjudicator.web.errors import ApiError
from adjudicator.wordforms import normalise_word

bp = Blueprint("challenge", __name__, url_prefix=API_PREFIX)

# The fields the judge page may send (it never sends `free_challenge`), from the body's model.
CHALLENGE_FIELDS = set(ChallengeRequest.model_fields) - {"free_challenge"}


def free_challenge(ruleset: Ruleset, free: bool) -> bool:
    """The request's `free_challenge`: the home variant where a failed challenge costs nothing
    (004 Almindelige varianter), only where the ruleset offers it."""
    if free and not ruleset.challenge.free_challenge_option:
        raise ApiError(
            Problem.INCONSISTENT_INPUT,
            f"{ruleset.id} has no free-challenge variant",
            "free_challenge",
        )
    return free


@bp.get("/rulesets")
@public
@operation("listRulesets", "rulesets", "RulesetList")
def list_rulesets():
    return cacheable(jsonify(rulesets=[public_ruleset(r) for _, r in sorted(rulesets().items())]))


@bp.get("/rulesets/<ruleset_id>")
@public
@operation("getRuleset", "rulesets", "Ruleset", problems=RULESET)
def get_ruleset(ruleset_id: str):
    return cacheable(jsonify(public_ruleset(ruleset_or_404(ruleset_id))))


def within_ruleset(ruleset: Ruleset, asked: ChallengeRequest) -> None:
    """A challenge's refusals under its ruleset, made before the jury limit is asked."""
    free_challenge(ruleset, asked.free_challenge)
    if len(asked.words) > ruleset.challenge.max_words:
        raise ApiError(
            Problem.WORD_COUNT,
            f"challenge 1 to {ruleset.challenge.max_words} words, not {len(asked.words)}",
            "words",
        )


@bp.post("/rulesets/<ruleset_id>/challenge")
@lexicon_dependent
@operation(
    "challenge",
    "challenges",
    "Ruling",
    body=ChallengeRequest,
    idempotent=True,
    problems=(*RULING, *WORD_FORMS, Problem.INCONSISTENT_INPUT),
)
@recorded("challenge", ChallengeRequest, within=within_ruleset)
def challenge(ruleset: Ruleset, asked: ChallengeRequest) -> Ruling:
    words = asked.words
    lexicon = lexicon_for(ruleset)
    normalised = [
        normalise_word(lexicon.normaliser, word, f"words[{i}]") for i, word in enumerate(words)
    ]
    verdicts = [word in lexicon for word in normalised]  # every word, never stopping early
    listed = disclosure.words(
        ruleset.disclosure.policy,
        [{"input": text, "word": word} for text, word in zip(words, normalised, strict=True)],
        verdicts,
        # the order sent is the client's to vary: echo a canonical order instead
        canonical_order=lambda item: (item["word"], item["input"]),
    )
    ruling = disclosure.play_ruling(verdicts)
    consequence = ruleset.consequence(ruling == "valid", len(words), asked.free_challenge)
    body: Ruling = {
        "ruling_id": new_ruling_id(),
        "ruleset": ruleset.id,
        "policy": ruleset.disclosure.policy,
        "ruling": ruling,
        "words": listed,
        "consequence": consequence,
        "lexicon": lexicon.identity(),
    }
    if ruleset.challenge.mode == "jury":  # a query before placement; the penalty is later
        body["if_placed"] = None if ruling == "valid" else ruleset.if_placed()
    return body


@bp.get("/rulesets/<ruleset_id>/jury")
@lexicon_dependent  # the same credential as a query: a paired tablet, a key, a director
@not_a_ruling
@operation(
    "juryWordsLeft",
    "challenges",
    "JuryWordsLeft",
    query=JuryCountQuery,
    problems=(
        Problem.UNKNOWN_FIELD,
        Problem.MISSING_FIELD,
        *LABELS,
        *CREDENTIALS,
        *RULESET,
        Problem.STORE_UNAVAILABLE,
    ),
)
def jury_words_left(ruleset_id: str):
    """The words a player may still put to the jury in a game, read before a query is sent.

    It says what the next query's answer would (`queries_remaining`) and nothing else: no word,
    no ruling, nothing recorded or counted. `null` where the event counts nothing (another mode,
    the limit off, or, in open mode, no game and player named); in tournament mode game and
    player are required, as for a query."""
    ruleset = ruleset_or_404(ruleset_id)
    labels = parse(JuryCountQuery, request.args.to_dict()).labels()
    limit = counted(ruleset, labels)
    remaining = None
    if limit is not None:
        with store.reading() as conn:
            remaining = jury.left(conn, labels, limit)
    response = jsonify(
        ruleset=ruleset.id, limit=jury.limit_for(ruleset), queries_remaining=remaining
    )
    response.headers["Cache-Control"] = "no-store"
    return response
