"""Whole-text reading of `plain` sources: the line-by-line results, at C speed.

A plain word list is mostly lines that are already lower-case letters of the language and of a
playable length. Rather than calling the normaliser 400,000 times, the text is cut with a few
regular expressions that are built from the same profile:

1. lines that are plain words (the normaliser's own fast path) are split out in one pass;
2. of the rest, lines whose verdict is certain without looking at them one by one are counted
   and removed: phrases (a space inside the entry), too long (plain letters, more than 15),
   capitalised (no space, no control character, an upper-case letter) and non-letter
   (lower-case letters plus a digit or sign);
3. every line left (accents to fold, comments, odd spacing, one-letter words…) goes through
   `Normaliser.entry`, exactly as the line-by-line reader would send it.

The line-by-line path (`build._read_entries`) stays the reference: it is used for `delta` and
`saol` sources and whenever every dropped line must be reported with its number, and the tests
check that both give the same words and the same counts.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator

from compiler.normalise import (
    CAPITALISED,
    MAX_LETTERS,
    MIN_LETTERS,
    NON_LETTER,
    PHRASE,
    TOO_LONG,
    Normaliser,
    Rejection,
)

# Every line break `str.splitlines` knows; "\r\n" counts once, as it does there.
LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_BREAK_RE = re.compile("\r\n|[" + LINE_BREAKS + "]")
CHUNK_CHARS = 1 << 20  # lines are cut into pieces of about this size, for the progress bar


def _is_upper(ch: str) -> bool:
    """The normaliser's capital test."""
    return ch.isupper() or unicodedata.category(ch) == "Lt"


def _safe_chars() -> str:
    """Characters whose lines can be judged by a pattern: not a space, not a control character,
    not '#' (a comment), stable under NFC and composing with none of the others (tested)."""
    out = []
    for cp in range(0x21, 0x250):
        ch = chr(cp)
        if ch == "#" or ch.isspace() or unicodedata.category(ch)[0] == "C":
            continue
        if unicodedata.combining(ch) or unicodedata.normalize("NFC", ch) != ch:
            continue
        out.append(ch)
    return "".join(out)


SAFE_CHARS = _safe_chars()


def _cls(chars: str) -> str:
    return "[" + "".join(re.escape(c) for c in sorted(set(chars))) + "]"


def normalise_line_breaks(text: str) -> str:
    """Make `text.split("\\n")` cut where `text.splitlines()` cuts (same line numbers)."""
    if any(ch in text for ch in LINE_BREAKS):
        return _BREAK_RE.sub("\n", text)
    return text


def chunks(text: str, size: int = CHUNK_CHARS) -> Iterator[str]:
    """Pieces of whole lines, each wrapped in newlines so every line is `\\n…(?=\\n)`."""
    start, end_of_text = 0, len(text)
    while start < end_of_text:
        end = text.find("\n", start + size)
        if end < 0:
            end = end_of_text
        yield "\n" + text[start:end] + "\n"
        start = end + 1


class PlainReader:
    """Reads a plain source with the patterns of one normaliser."""

    def __init__(self, normaliser: Normaliser):
        self.normaliser = normaliser
        letters = _cls(normaliser.lower_letters)
        upper = "".join(c for c in SAFE_CHARS if _is_upper(c))
        not_upper = "".join(c for c in SAFE_CHARS if not _is_upper(c))
        signs = "".join(c for c in SAFE_CHARS if not c.isalpha() and not _is_upper(c))
        self._plain = re.compile(rf"\n({letters}{{{MIN_LETTERS},{MAX_LETTERS}}})(?=\n)")
        # A space inside what is left once the comment is cut and the ends are stripped.
        phrase = r"\n[^\S\n]*[^\s#]+[^\S\n]+[^\s#][^\n]*(?=\n)"
        certain = [(PHRASE, phrase), (TOO_LONG, rf"\n{letters}{{{MAX_LETTERS + 1},}}(?=\n)")]
        if normaliser.profile.drop_capitals:
            certain.append(
                (CAPITALISED, rf"\n{_cls(not_upper)}*{_cls(upper)}{_cls(SAFE_CHARS)}*(?=\n)")
            )
        letters_signs = _cls(normaliser.lower_letters + signs)
        certain.append((NON_LETTER, rf"\n{letters}*{_cls(signs)}{letters_signs}*(?=\n)"))
        # One pass: each verdict is a capturing group, and `split` hands back which one matched.
        self._reasons = [reason for reason, _ in certain]
        self._certain = re.compile("|".join(f"({pattern})" for _, pattern in certain))

    def read(
        self, text: str, progress: Callable[[int], object] | None = None
    ) -> tuple[list[bytes], Counter, int]:
        """(UTF-8 words, possibly repeated; rejection counts; entries read) for a whole source."""
        entry = self.normaliser.entry
        words: list[bytes] = []
        counts: Counter = Counter()
        read = 0
        for chunk in chunks(normalise_line_breaks(text)):
            parts = self._plain.split(chunk)
            plain = parts[1::2]
            read += len(plain)
            if plain:
                words += "\n".join(plain).upper().encode("utf-8").split(b"\n")
            parts = self._certain.split("".join(parts[0::2]))
            step = len(self._reasons) + 1
            for index, reason in enumerate(self._reasons, start=1):
                found = parts[index::step]
                n = len(found) - found.count(None)
                if n:
                    counts[reason] += n
                    read += n
            rest = "".join(parts[0::step])
            for line in rest.split("\n"):
                if not line:
                    continue
                if "#" in line:
                    line = line.split("#", 1)[0]
                line = line.strip()
                if not line:
                    continue
                read += 1
                result = entry(line)
                if result.__class__ is Rejection:
                    counts[result.reason] += 1
                else:
                    words.append(result.encode("utf-8"))
            if progress is not None:
                progress(len(chunk) - 1)
        return words, counts, read
