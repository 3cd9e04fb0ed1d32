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


def _form_error(rejection: Rejection, text: str, field: str) -> WordFormError:
    shown = repr(text) if len(text) <= 40 else repr(text[:40] + "…")
    ch = rejection.char
    reason = rejection.reason
    if reason == EMPTY:
        return WordFormError(Problem.WORD_EMPTY, "the word is empty", field)
    if reason == PHRASE:
        return WordFormError(Problem.WORD_HAS_SPACE, f"{shown} contains a space", field)
    if reason == CONTROL:
        return WordFormError(
            Problem.WORD_HAS_CONTROL_CHARACTER, "the word contains a control character", field
        )
    if reason == NON_LETTER:
        if ch.isdigit() or unicodedata.category(ch) == "Nd":
            return WordFormError(
                Problem.WORD_HAS_DIGIT, f"{shown} contains the digit {ch!r}", field
            )
        if unicodedata.category(ch) == "Pd":
            return WordFormError(Problem.WORD_HAS_HYPHEN, f"{shown} contains a hyphen", field)
        return WordFormError(
            Problem.WORD_HAS_NON_LETTER, f"{shown} contains {ch!r}, which is not a letter", field
        )
    if reason == FOREIGN_LETTER:
        return WordFormError(
            Problem.WORD_HAS_FOREIGN_LETTER,
            f"{shown} contains {ch!r}, which this language's tiles cannot spell",
            field,
        )
    if reason == TOO_SHORT:
        return WordFormError(Problem.WORD_TOO_SHORT, f"{shown} has fewer than 2 letters", field)
    if reason == TOO_LONG:
        return WordFormError(Problem.WORD_TOO_LONG, f"{shown} has more than 15 letters", field)
    return WordFormError(
        Problem.WORD_INVALID_FORM, f"{shown} is not a word form: {rejection}", field
    )


def normalise_word(normaliser: Normaliser, text: str, field: str) -> str:
    """A challenged word in the lexicon's form, or the WordFormError saying why it is none (its type and
    length the request's model has checked: `api.bodies.ChallengeRequest`)."""
    result = normaliser.query(text)
    if isinstance(result, Rejection):
        raise _form_error(result, text, field)
    return result
