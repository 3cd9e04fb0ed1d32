"""The canonical form a ruling's labels and words are stored, compared and searched in.

The audit log writes these columns (`ruling_labels`) and its search and the jury count read
them; the store's own migrations rewrite old rows into them. So the rule is the store's, below
every package that uses it, and the audit log's `labels` (what a caller may attach) imports it.
"""

from __future__ import annotations

import unicodedata
from typing import Any

COLUMNS = ("event", "round", "table_label", "game", "player")  # the entry's, in FIELDS order


# Scripts that are written together (Unicode TS #39, "highly restrictive"): Japanese, Chinese
# with Bopomofo, Korean, each with Latin. Any other mix of two scripts is refused.
_WRITTEN_TOGETHER = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
# Character-name words that are not the script's own name.
_SCRIPT_ALIASES = {"CJK": "HAN", "IDEOGRAPHIC": "HAN"}


def canonical(value: str) -> str:
    """The form labels are compared in: NFKC, case-folded (NFKC again, since folding can undo
    it), every decimal digit as its ASCII digit (NFKC leaves Arabic-Indic ٣ alone), inner
    whitespace collapsed to one space, trimmed."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", value).casefold())
    digits = "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in folded)
    return " ".join(digits.split())


def _script(ch: str) -> str | None:
    """The script of a letter, from its Unicode name; None for what every script uses (digits,
    punctuation, marks, modifier letters)."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    if not name or name.startswith("MODIFIER LETTER"):
        return None
    word = name.split(" ", 1)[0].split("-", 1)[0]  # KATAKANA-HIRAGANA PROLONGED SOUND MARK
    return _SCRIPT_ALIASES.get(word, word)


def mixes_scripts(value: str) -> bool:
    """Whether `value` (in its NFKC form) has letters of scripts not written together."""
    scripts = {s for s in map(_script, unicodedata.normalize("NFKC", value)) if s is not None}
    return len(scripts) > 1 and not any(scripts <= group for group in _WRITTEN_TOGETHER)


def canonical_words(words: Any) -> str | None:
    """An entry's words (as answered: `[{"word": ...}, ...]`) in their canonical form, one space
    between, as searched: the JSON around them (its keys, its escapes) is no part of a search.
    None for a value of another shape (a row written around the service)."""
    if not isinstance(words, list):
        return None
    found = [w.get("word") if isinstance(w, dict) else None for w in words]
    return " ".join(canonical(w) for w in found if isinstance(w, str)) or None


def canonical_columns(entry: dict[str, Any]) -> dict[str, str | None]:
    """An entry's label columns and words in their canonical form, as searched."""
    labels = {name: None if entry[name] is None else canonical(entry[name]) for name in COLUMNS}
    return labels | {"words": canonical_words(entry["words"])}
