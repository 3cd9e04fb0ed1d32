"""The one normaliser: compiled entries and players' queries both pass through it.

An entry from a word list and a word typed on a tablet must land on the same key, or the judge
rules on a different word than the compiler stored. So there is exactly one folding path, driven
by the language profile; only the capitals rule differs (a source's capitals mean a proper name,
a player's capitals mean nothing).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import NamedTuple

from unidecode import unidecode

from lexicon.languages import LanguageProfile
from lexicon.limits import MAX_LETTERS, MIN_LETTERS


class Rejection(NamedTuple):
    """Why an entry gives no word. `reason` is the coarse count key; `char` the culprit;
    `letters` the word's length when that is what is wrong (too short, too long).

    A named tuple, not a dataclass: a big list drops 100,000 entries, and this is cheaper.
    """

    reason: str
    char: str = ""
    letters: int = 0

    @property
    def detail(self) -> str:
        """What a report shows beside the reason: the character at fault, quoted, or the
        length against the limit it breaks."""
        if self.char:
            return repr(self.char)
        if self.reason == TOO_LONG:
            return f"{self.letters} letters; at most {MAX_LETTERS}"
        if self.reason == TOO_SHORT:
            return (
                f"{self.letters} letter{'' if self.letters == 1 else 's'}; at least {MIN_LETTERS}"
            )
        return ""

    def __str__(self) -> str:
        if self.char:
            return f"{self.reason} {self.char!r}"
        return f"{self.reason} ({self.detail})" if self.detail else self.reason


# Rejection reasons, in the order they are tested.
EMPTY = "empty"
PHRASE = "phrase"
CONTROL = "control-character"
CAPITALISED = "capitalised"
NON_LETTER = "non-letter"
FOREIGN_LETTER = "foreign-letter"
TOO_SHORT = "too-short"
TOO_LONG = "too-long"
REASONS = (EMPTY, PHRASE, CONTROL, CAPITALISED, NON_LETTER, FOREIGN_LETTER, TOO_SHORT, TOO_LONG)


class Normaliser:
    """Folds text to the upper-case letters of one language, or says why it cannot."""

    def __init__(self, profile: LanguageProfile):
        self.profile = profile
        self.fold = functools.cache(self.fold)  # a list has few distinct characters
        # Most entries are already plain lower-case letters of the language: skip the slow path.
        # Only letters for which that shortcut gives what the slow path gives are taken.
        self.lower_letters = "".join(
            sorted(
                low
                for low in {c.lower() for c in profile.alphabet}
                if len(low) == 1
                and low.isalpha()
                and not low.isupper()
                and low.upper() in profile.letters
                and unicodedata.normalize("NFC", low) == low
                and not unicodedata.combining(low)
            )
        )
        letters = "".join(re.escape(c) for c in self.lower_letters)
        self.plain_pattern = f"[{letters}]{{{MIN_LETTERS},{MAX_LETTERS}}}"
        self._plain = re.compile(self.plain_pattern)
        # Whole entries whose rejection is certain from their shape alone, for readers that
        # sort a whole list at once: plain letters past the board's width, and (when capitals
        # mark names) letters of the language with a capital among them. `entry` gives the
        # same reason for every text they match (tested).
        uppers = "".join(re.escape(c.upper()) for c in self.lower_letters if len(c.upper()) == 1)
        self.certain_rejections: list[tuple[str, str]] = [
            (TOO_LONG, f"[{letters}]{{{MAX_LETTERS + 1},}}")
        ]
        if profile.drop_capitals:
            self.certain_rejections.append(
                (CAPITALISED, f"[{letters}]*[{uppers}][{letters}{uppers}]*")
            )
        self._word = re.compile(f"[{re.escape(''.join(sorted(profile.letters)))}]*")
        self.query_characters = query_characters(profile)
        self._joiners = str.maketrans("", "", profile.joiners) if profile.joiners else None
        self._outside_query = re.compile(f"[^{re.escape(''.join(sorted(self.query_characters)))}]")

    def entry(self, text: str) -> str | Rejection:
        """A word-list entry. Capitals reject it when the profile says they mark names."""
        if self._plain.fullmatch(text):
            return text.upper()
        return self._normalise(text, query=False)

    def query(self, text: str) -> str | Rejection:
        """A player's word: case is ignored, and only the language's own letters are read.

        A source list may hold a loanword that the fallback (accents, unidecode) brings to the
        alphabet; a query may not, or a look-alike (Cyrillic С, fullwidth Ｃ, long s ſ) would
        spell a word the player's tiles never could. So every character must be one of
        `query_characters`; anything else is refused, naming it.
        """
        return self._normalise(text, query=True)

    def query_fold(self, char: str) -> str | None:
        """`fold` for a character a player typed or a record spells: None unless it is one of
        `query_characters` (no fallback, ever)."""
        return self.fold(char) if char in self.query_characters else None

    def fold(self, char: str) -> str | None:
        """The letters `char` stands for in this language, or None when it is foreign."""
        upper = char.upper()
        if upper in self.profile.letters:
            return upper  # a letter of the language's own alphabet never folds
        if upper in self.profile.folding:
            return self.profile.folding[upper]
        if self.profile.fold_fallback == "accents":
            stripped = "".join(
                c for c in unicodedata.normalize("NFKD", upper) if not unicodedata.combining(c)
            ).upper()
        elif self.profile.fold_fallback == "unidecode":
            stripped = unidecode(char).upper()
        else:
            return None
        if stripped and stripped != upper and all(c in self.profile.letters for c in stripped):
            return stripped
        return None

    def _normalise(self, text: str, *, query: bool) -> str | Rejection:
        # The rules in their order. Two shortcuts give exactly what the per-character tests
        # give: text of letters only cannot hold a space, control character or sign, and ASCII
        # text is tested with patterns (most rejected entries are one or the other).
        ascii = text.isascii()
        text = (text if ascii else unicodedata.normalize("NFC", text)).strip()
        if not text:
            return Rejection(EMPTY)
        if self._joiners is not None and not text.isalpha():
            # The profile's joiners go first, joining the parts (mee-eten → MEEETEN). Only
            # between letters: a list's leading or trailing one marks a fragment of a compound
            # (aanvals-, -achtig, 's), which is no word on its own.
            joined = text.translate(self._joiners)
            if not joined:
                return Rejection(EMPTY)
            for edge in (text[0], text[-1]):
                if edge in self.profile.joiners:
                    return Rejection(NON_LETTER, edge)
            text = joined
        letters_only = text.isalpha()
        if not letters_only:
            space = _SPACE.search(text)
            if space:
                return Rejection(PHRASE, space.group())
            control = _ASCII_CONTROL.search(text) if ascii else _first(text, _is_control)
            if control:
                return Rejection(CONTROL, control if isinstance(control, str) else control.group())
        if not query and self.profile.drop_capitals and not text.islower():
            upper = _ASCII_UPPER.search(text) if ascii else _first(text, _is_upper)
            if upper:
                return Rejection(CAPITALISED, upper if isinstance(upper, str) else upper.group())
        if query:
            outside = self._outside_query.search(text)
            if outside:
                ch = outside.group()
                letter = ch.isalpha() or unicodedata.category(ch).startswith("M")
                return Rejection(FOREIGN_LETTER if letter else NON_LETTER, ch)
        word = text.upper()
        if not (letters_only and len(word) == len(text) and self._word.fullmatch(word)):
            out = []
            for ch in text:
                if not ch.isalpha():
                    return Rejection(NON_LETTER, ch)
                folded = self.fold(ch)
                if folded is None:
                    return Rejection(FOREIGN_LETTER, ch)
                out.append(folded)
            word = "".join(out)
        if len(word) < MIN_LETTERS:
            return Rejection(TOO_SHORT, letters=len(word))
        if len(word) > MAX_LETTERS:
            return Rejection(TOO_LONG, letters=len(word))
        return word


def is_folded(entry: str, word: str) -> bool:
    """Whether the word an entry gave differs from the entry in capitals: a letter folded
    (café → CAFE) or a joiner dropped (auto's → AUTOS). Build reports count these."""
    return word != unicodedata.normalize("NFC", entry.strip()).upper()


def query_characters(profile: LanguageProfile) -> frozenset[str]:
    """The characters a player's word may hold: the alphabet's letters and the keys of the
    explicit folding map, upper and lower case, in NFC (queries are composed before the check,
    so NFD input is read the same). Nothing a fallback would fold is here.

    A profile that drops joiners inside words (a hyphen, an apostrophe) extends this set
    with them in one place: here.
    """
    chars: set[str] = set(profile.joiners)
    for c in [*profile.alphabet, *profile.folding]:
        for form in (c, c.lower(), c.upper()):
            form = unicodedata.normalize("NFC", form)
            if len(form) == 1:
                chars.add(form)
    return frozenset(chars)


_SPACE = re.compile(r"\s")  # re's \s is str.isspace
_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f]")  # category C within ASCII
_ASCII_UPPER = re.compile(r"[A-Z]")  # str.isupper within ASCII


def _is_control(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "C"


def _is_upper(ch: str) -> bool:
    return ch.isupper() or unicodedata.category(ch) == "Lt"


def _first(text: str, test) -> str | None:
    return next(filter(test, text), None)
