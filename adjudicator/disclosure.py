"""The one disclosure gate: every HTTP answer that depends on lexicon membership passes here.

A federation's ruleset says what a ruling may reveal (docs/rules.md §6.3):

- `word`: each word's own verdict may be shown (Danish rules: the judge says which word failed);
- `play`: one verdict per play and nothing finer. No field, mark, order, count, status or
  length of an answer may depend on which of a play's words is missing from the lexicon.

So the endpoints compute every verdict they need (always all of them: no early exit, so time
does not depend on which word fails either) and hand the answer to this module, which is the
only code that decides what of those verdicts leaves the process. A new endpoint that rules on
words must go through it; `adjudicator/tests/test_differential.py` proves, for every route the
app registers, that two lexicons lacking different words of one play give byte-identical
answers under every `play` ruleset.

The replay CLI (`adjudicator replay`), run by a lexicon maintainer on their own machine, keeps
its per-word listing; it does not answer over HTTP and does not come through here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

WORD = "word"
PLAY = "play"
POLICIES = (WORD, PLAY)
VALID = "valid"
INVALID = "invalid"
VERDICTS = (VALID, INVALID)  # a ruling's verdict, as answered and as the audit log keeps it

# The one key in a verified game's turn that names the words a lexicon lacks (the game layer
# fills it: a list, or None when no lexicon was consulted for the turn).
NOT_IN_LEXICON = "not_in_lexicon"


def play_ruling(verdicts: Sequence[bool]) -> str | None:
    """One verdict for a play: valid when every word is; None when it formed no word."""
    if not verdicts:
        return None
    return VALID if all(verdicts) else INVALID


def words(
    policy: str,
    items: list[dict[str, Any]],
    verdicts: Sequence[bool],
    *,
    canonical_order: Callable[[dict[str, Any]], Any] | None = None,
) -> list[dict[str, Any]]:
    """The words of one play as an answer may list them.

    Under `word` each item gets `valid`. Under `play` no item does, and when the caller's own
    order could carry information (the order a client sent, which a client may vary to find the
    failing word by comparing answers) the items are put in `canonical_order`, a key of the
    word alone. Items must hold nothing that depends on the lexicon.
    """
    _check(policy)
    if len(items) != len(verdicts):
        raise ValueError("one verdict per word")
    if policy == WORD:
        for item, ok in zip(items, verdicts, strict=True):
            item["valid"] = bool(ok)
        return items
    if canonical_order is not None:
        return sorted(items, key=canonical_order)
    return items


def game_report(policy: str, report: dict[str, Any]) -> dict[str, Any]:
    """A verified game's answer. The game layer reports, in each turn, the words a play formed
    that the lexicon lacks under `not_in_lexicon`; under `play` that list becomes the play's
    one verdict, `ruling` (valid, invalid, or None for a turn that formed no word)."""
    _check(policy)
    for turn in report["turns"]:
        missing = turn.pop(NOT_IN_LEXICON, None)
        if missing is None:  # not a play, or no lexicon consulted
            turn["ruling"] = None
        else:
            turn["ruling"] = INVALID if missing else (VALID if turn.get("words") else None)
        if policy == WORD:
            turn[NOT_IN_LEXICON] = None if missing is None else list(missing)
    return report


def _check(policy: str) -> None:
    if policy not in POLICIES:  # a ruleset file is checked at start; this guards the code
        raise ValueError(f"unknown disclosure policy {policy!r}")
