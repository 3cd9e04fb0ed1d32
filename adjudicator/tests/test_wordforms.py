"""A typed word that is no word form is refused with the domain's own `WordFormError`."""

from __future__ import annotations

import pytest

from adjudicator.problems import Problem
from adjudicator.wordforms import WordFormError, normalise_word
from lexicon.languages import load_profile
from lexicon.normalise import Normaliser


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        ("", Problem.WORD_EMPTY, "the word is empty"),
        ("a1", Problem.WORD_HAS_DIGIT, "'a1' contains the digit '1'"),
        ("ab cd", Problem.WORD_HAS_SPACE, "'ab cd' contains a space"),
        ("a-b", Problem.WORD_HAS_HYPHEN, "'a-b' contains a hyphen"),
        ("a\u2010b", Problem.WORD_HAS_HYPHEN, "'a\u2010b' contains a hyphen"),
        ("a²b", Problem.WORD_HAS_DIGIT, "'a²b' contains the digit '²'"),
        ("a" * 40 + "1", Problem.WORD_HAS_DIGIT, f"'{'a' * 40}…' contains the digit '1'"),
        ("a!b", Problem.WORD_HAS_NON_LETTER, "'a!b' contains '!', which is not a letter"),
        ("a\x01b", Problem.WORD_HAS_CONTROL_CHARACTER, "the word contains a control character"),
        (
            "aßb",
            Problem.WORD_HAS_FOREIGN_LETTER,
            "'aßb' contains 'ß', which this language's tiles cannot spell",
        ),
        ("a", Problem.WORD_TOO_SHORT, "'a' has fewer than 2 letters"),
        ("a" * 16, Problem.WORD_TOO_LONG, f"'{'a' * 16}' has more than 15 letters"),
    ],
)
def test_a_word_that_is_no_form_is_refused_naming_its_field(text, code, message):
    normaliser = Normaliser(load_profile("en"))
    with pytest.raises(WordFormError) as raised:
        normalise_word(normaliser, text, "words[2]")
    assert (raised.value.code, raised.value.message, raised.value.field) == (
        code,
        message,
        "words[2]",
    )


def test_a_word_form_is_the_lexicons_key():
    assert normalise_word(Normaliser(load_profile("en")), "Cat", "words[0]") == "CAT"
