"""Look the formed words up in a lexicon — kept apart from placement, which never does."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from adjudicator.engine.plain import Plain
from adjudicator.engine.words import Word
from lexicon.artifact import Lexicon
from lexicon.normalise import Rejection


@dataclass(frozen=True, slots=True)
class WordVerdict(Plain):
    word: str  # as looked up: normalised, upper case
    valid: bool
    reason: str | None = None  # why the normaliser refused it, when it did


def check_words(lexicon: Lexicon, words: Iterable[Word | str]) -> list[WordVerdict]:
    """One verdict per word, in order. Words pass through the lexicon's own normaliser, so a
    board word is looked up under the same key the compiler stored."""
    out: list[WordVerdict] = []
    for w in words:
        text = w.letters if isinstance(w, Word) else w
        key = lexicon.normaliser.query(text)
        if isinstance(key, Rejection):
            out.append(WordVerdict(text.upper(), False, str(key)))
        else:
            out.append(WordVerdict(key, key in lexicon))
    return out
