"""Turning a player's typed word into a lexicon key, or a form error that names it.

Form errors are about spelling, not about the lexicon (a digit is never in any word list), so
they may name the word even under the `play` policy.
"""

from __future__ import annotations

import unicodedata

from adjudicator.problems import DomainError, Problem
from lexicon.normalise import (
    CONTROL,
    EMPTY,
    FOREIGN_LETTER,
    NON_LETTER,
    PHRASE,
    TOO_LONG,
    TOO_SHORT,
    Normaliser,
    Rejection,
)


class WordFormError(DomainError):
    """A typed word that is no word form: a digit, a space, a letter the tiles cannot spell."""


# Each rejection's problem and message (`shown`: the word as typed, cut at 40 characters;
# `ch`: the character at fault); a non-letter that is a digit or a hyphen is said as one.
FORM_ERRORS = {
    EMPTY: (Problem.WORD_EMPTY, "the word is empty"),
    PHRASE: (Problem.WORD_HAS_SPACE, "{shown} contains a space"),
    CONTROL: (Problem.WORD_HAS_CONTROL_CHARACTER, "the word contains a control character"),
    "digit": (Problem.WORD_HAS_DIGIT, "{shown} contains the digit {ch!r}"),
    "hyphen": (Problem.WORD_HAS_HYPHEN, "{shown} contains a hyphen"),
    NON_LETTER: (Problem.WORD_HAS_NON_LETTER, "{shown} contains {ch!r}, which is not a letter"),
    FOREIGN_LETTER: (
        Problem.WORD_HAS_FOREIGN_LETTER,
        "{shown} contains {ch!r}, which this language's tiles cannot spell",
    ),
    TOO_SHORT: (Problem.WORD_TOO_SHORT, "{shown} has fewer than 2 letters"),
    TOO_LONG: (Problem.WORD_TOO_LONG, "{shown} has more than 15 letters"),
}


def _form_error(rejection: Rejection, text: str, field: str) -> WordFormError:
    shown = repr(text) if len(text) <= 40 else repr(text[:40] + "…")
    ch, reason = rejection.char, rejection.reason
    if reason == NON_LETTER and (ch.isdigit() or unicodedata.category(ch) == "Nd"):
        reason = "digit"
    elif reason == NON_LETTER and unicodedata.category(ch) == "Pd":
        reason = "hyphen"
    if reason not in FORM_ERRORS:
        message = f"{shown} is not a word form: {rejection}"
        return WordFormError(Problem.WORD_INVALID_FORM, message, field)
    problem, message = FORM_ERRORS[reason]
    return WordFormError(problem, message.format(shown=shown, ch=ch), field)


def normalise_word(normaliser: Normaliser, text: str, field: str) -> str:
    """A challenged word in the lexicon's form, or the WordFormError saying why it is none (its type and
    length the request's model has checked: `api.bodies.ChallengeRequest`)."""
    result = normaliser.query(text)
    if isinstance(result, Rejection):
        raise _form_error(result, text, field)
    return result
