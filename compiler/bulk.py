"""Whole-text reading of `plain` sources: the line-by-line results, at C speed.

A plain word list is mostly lines that are already lower-case letters of the language and of a
playable length. Rather than calling the normaliser 400,000 times, those lines are split out of
the whole text in one pass with the normaliser's own fast-path pattern (`plain_pattern`); the
lines its `certain_rejections` patterns match are counted under their reason; every other line
goes through `Normaliser.entry`, exactly as the line-by-line reader sends it. No rule is written
here: the normaliser stays the one place that says why an entry is dropped.

The line-by-line path (`build._read_entries`) stays the reference: it is used for `delta` and
`saol` sources and whenever every dropped line must be reported with its number, and the tests
check that both give the same words and the same counts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator

from compiler.sources import content_lines
from lexicon.normalise import Normaliser, Rejection, is_folded

# Every line break `str.splitlines` knows besides "\n".
LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
CHUNK_CHARS = 1 << 20  # lines are cut into pieces of about this size, for the progress bar


def normalise_line_breaks(text: str) -> str:
    """Make `text.split("\\n")` cut where `text.splitlines()` cuts (same line numbers)."""
    if any(ch in text for ch in LINE_BREAKS):
        return "\n".join(text.splitlines())
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
        self._plain = re.compile(rf"\n({normaliser.plain_pattern})(?=\n)")
        # One pass for the normaliser's certain rejections: each is a capturing group, and
        # `split` hands back which one matched.
        self._reasons = [reason for reason, _ in normaliser.certain_rejections]
        self._certain = re.compile(
            "|".join(rf"(\n{pattern}(?=\n))" for _, pattern in normaliser.certain_rejections)
        )

    def read(
        self,
        text: str,
        words: set[bytes],
        counts: Counter,
        progress: Callable[[int], object] | None = None,
    ) -> dict[str, int]:
        """A whole source into `words` (UTF-8) and `counts` (rejections), as the line-by-line
        reader (`build._read_entries`) reads it; the same statistics (entries read, kept,
        added, folded as `is_folded` counts them)."""
        entry = self.normaliser.entry
        kept: list[bytes] = []  # possibly repeated
        read = folded = 0
        for chunk in chunks(normalise_line_breaks(text)):
            parts = self._plain.split(chunk)
            plain = parts[1::2]
            read += len(plain)
            if plain:
                kept += "\n".join(plain).upper().encode("utf-8").split(b"\n")
            parts = self._certain.split("".join(parts[0::2]))
            step = len(self._reasons) + 1
            for index, reason in enumerate(self._reasons, start=1):
                found = parts[index::step]
                n = len(found) - found.count(None)
                if n:
                    counts[reason] += n
                    read += n
            for _, line in content_lines("".join(parts[0::step])):
                read += 1
                result = entry(line)
                if result.__class__ is Rejection:
                    counts[result.reason] += 1
                else:
                    folded += is_folded(line, result)
                    kept.append(result.encode("utf-8"))
            if progress is not None:
                progress(len(chunk) - 1)
        before = len(words)
        words.update(kept)
        return {"entries": read, "kept": len(kept), "added": len(words) - before, "folded": folded}
