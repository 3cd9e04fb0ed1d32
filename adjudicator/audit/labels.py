"""What a caller may attach to a ruling so a director can find it later: the event, round,
table, game and player. Free text, bounded, printable; never interpreted, only recorded (and
`game` + `player` key the jury count).

A label is recorded as typed (trimmed), for the director to read; wherever labels are compared
(the jury count) they are compared in one canonical form (`canonical`), so `Anna`, `ANNA`,
` Anna `, `Ａnna` and `anna` are one player and `R3-T12` is game `r3-t12`. A label that mixes
scripts (a Cyrillic `а` among Latin letters) is refused: it could only be a look-alike of
another label, made to start a count afresh.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from adjudicator.errors import ApiError
from adjudicator.problems import Problem
from adjudicator.store.models import LABEL_MAX

FIELDS = ("event", "round", "table", "game", "player")
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


@dataclass(frozen=True)
class Labels:
    event: str | None = None
    round: str | None = None
    table: str | None = None
    game: str | None = None
    player: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {name: getattr(self, name) for name in FIELDS}

    def key(self, name: str) -> str | None:
        """The label `name` in its canonical form, as it is compared and counted."""
        value = getattr(self, name)
        return None if value is None else canonical(value)


NONE = Labels()


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


def check_label(name: str, value: Any) -> str:
    """The label `name` as recorded: a string of 1 to LABEL_MAX printable characters (surrounding
    space trimmed; the canonical form within LABEL_MAX too, since that is what the store counts
    by), in one script."""
    if not isinstance(value, str):
        raise ApiError(Problem.WRONG_SHAPE, f"'{name}' must be a string", name)
    value = value.strip()
    if not 1 <= len(value) <= LABEL_MAX or len(canonical(value)) > LABEL_MAX:
        raise ApiError(Problem.LABEL_LENGTH, f"'{name}' must be 1 to {LABEL_MAX} characters", name)
    if not value.isprintable():
        raise ApiError(Problem.LABEL_NOT_PRINTABLE, f"'{name}' has a control character", name)
    if mixes_scripts(value):
        raise ApiError(
            Problem.LABEL_MIXED_SCRIPTS,
            f"'{name}' mixes letters of different scripts (a look-alike, such as a Cyrillic"
            " 'а' among Latin letters)",
            name,
        )
    return value
