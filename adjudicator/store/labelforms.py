"""The forms a ruling's labels take: under the IETF's PRECIS framework (RFC 8264), through
`precis-i18n`, so which characters a label may hold is the standard's rule, not a hand list.

Each label has a profile, by what it names (`PROFILES`):

- a name a person reads (`player`, `table`, `event`, and a paired tablet's name): the Nickname
  profile (RFC 8266): FreeformClass, non-ASCII spaces as ASCII space, runs of spaces as one,
  trimmed, NFKC; compared case-mapped (Unicode default case folding);
- an identifier (`game`, `round`): the UsernameCasePreserved profile (RFC 8265 §3.3, on the
  IdentifierClass): letters, digits and printable ASCII, fullwidth forms mapped, NFC, the Bidi
  Rule; compared case-mapped (UsernameCaseMapped:CaseFold). As RFC 8265 §3.5 allows, an
  identifier may be several such parts between single spaces (`Round 3`), each part checked.

Before either profile, one additional mapping rule (RFC 8264 §5.2.2 lets a profile's user add
one) makes look-alike punctuation and digits one: every dash (`Pd`) and minus sign is `-`, and
every decimal digit (`Nd`) its ASCII digit, so `R3‐T12`, `R3−T12` and `R３-T１２` are game
`r3-t12`.

A character a profile disallows (a variation selector, a Hangul filler, a combining grapheme
joiner, every Default_Ignorable_Code_Point, controls, old Hangul jamo, symbols in an
identifier) is refused (`Refused`, naming it), never dropped: `Anna` + U+FE0F is not `Anna`.

`shown` is the form recorded and shown (case kept); `key` the form compared, counted and
searched (`ruling_labels`, `jury_words`). `stored_key` reads a label stored before these rules
(the migrations), dropping what the profiles now refuse and saying so.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import regex
from precis_i18n import get_profile

COLUMNS = ("event", "round", "table_label", "game", "player")  # the entry's, in FIELDS order
LABEL_MAX = 64  # event, round, table, game, player: what a caller may attach to a ruling

NICKNAME = "Nickname"
IDENTIFIER = "Identifier"
# Each label (by request field and by store column) and the profile it is under.
PROFILES = {
    "event": NICKNAME,
    "round": IDENTIFIER,
    "table": NICKNAME,
    "table_label": NICKNAME,
    "game": IDENTIFIER,
    "player": NICKNAME,
    "device": NICKNAME,  # a paired tablet's name: the table it stands at
    "words": NICKNAME,  # a ruling's words, as searched (letters of the language only)
}
# (the form shown, the form compared) under each profile: precis-i18n's names.
_PRECIS = {
    NICKNAME: (get_profile("NicknameCasePreserved"), get_profile("NicknameCaseMapped:CaseFold")),
    IDENTIFIER: (
        get_profile("UsernameCasePreserved"),
        get_profile("UsernameCaseMapped:CaseFold"),
    ),
}
# Beside the dashes (`Pd`): the minus signs, MINUS SIGN and what NFKC makes it (its superscript
# and subscript forms) and the two other characters Unicode names a plain minus sign; and SWUNG
# DASH, the one dash of Unicode's Dash property outside `Pd` and the minus signs.
_MINUS_NAMES = ("MINUS SIGN", "MODIFIER LETTER MINUS SIGN", "HEAVY MINUS SIGN", "SWUNG DASH")
# Where dashes are: planes 0 and 1 (plane 2 and 3 hold ideographs, 14 tags and variation
# selectors, 15 and 16 private use); a test over every code point holds it.
_DASH_PLANES = 0x20000


def _punctuation_map() -> dict[int, str]:
    """Every dash (`Pd` and Unicode's Dash property) and minus sign as `-`: look-alikes of
    one another, read as one."""
    minus = {f"{ord(unicodedata.lookup(name)):04X}" for name in _MINUS_NAMES}
    table = {int(cp, 16): "-" for cp in minus}
    for cp in range(_DASH_PLANES):
        char = chr(cp)
        if unicodedata.category(char) == "Pd" or unicodedata.decomposition(char)[-4:] in minus:
            table[cp] = "-"
    table.pop(ord("-"))
    return table


DASHES = _punctuation_map()


@dataclass(frozen=True)
class Refused(ValueError):
    """A label a profile does not take: the character at fault (None when the label as a
    whole is at fault: empty, or right-to-left text the Bidi Rule refuses) and why."""

    char: str | None
    reason: str

    def __str__(self) -> str:
        return self.reason if self.char is None else f"{describe(self.char)} ({self.reason})"


def describe(char: str) -> str:
    """A character as a message names it: `U+FE0F VARIATION SELECTOR-16`."""
    name = unicodedata.name(char, None) or f"unnamed, category {unicodedata.category(char)}"
    return f"U+{ord(char):04X} {name}"


def mapped(value: str) -> str:
    """The additional mapping rule: every dash and minus sign as `-`, every decimal digit as
    its ASCII digit."""
    value = value.translate(DASHES)
    if value.isascii():
        return value
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in value)


def _enforce(profile: Any, value: str) -> str:
    try:
        return profile.enforce(value)
    except UnicodeEncodeError as error:
        raise _refusal(value, error) from None


def _refusal(value: str, error: UnicodeEncodeError) -> Refused:
    """The character at fault, as the caller typed it: the profile names it in its own mapped
    form (a Hangul filler U+3164 after NFKC is U+1160), so it is looked up in `value`."""
    reason = error.reason.split("/", 1)[-1]
    if reason == "empty":
        return Refused(None, "empty")
    if error.end - error.start != 1:  # the label as a whole: the Bidi Rule, not idempotent
        rtl = [c for c in value if unicodedata.bidirectional(c) in ("R", "AL", "AN")]
        return Refused(rtl[0] if rtl else None, reason)
    bad = error.object[error.start]
    if bad not in value:
        for char in value:
            folded = unicodedata.normalize("NFKC", char)
            if bad in folded or bad in folded.casefold():
                bad = char
                break
    return Refused(bad, reason)


@functools.lru_cache(maxsize=4096)  # an event's labels repeat: each player and game, all day
def _apply(kind: str, value: str, compared: bool) -> str:
    profile = _PRECIS[kind][1 if compared else 0]
    value = mapped(value)
    if kind == NICKNAME:
        return _enforce(profile, value)
    # Non-ASCII spaces as ASCII space, trimmed, and the parts between runs of spaces (RFC
    # 8266's rule for spaces, used for an identifier's parts too).
    spaced = "".join(" " if unicodedata.category(c) == "Zs" else c for c in value).strip()
    parts = [p for p in spaced.split(" ") if p]
    if not parts:
        raise Refused(None, "empty")
    return " ".join(_enforce(profile, part) for part in parts)


def shown(field: str, value: str) -> str:
    """`value` as label `field` is recorded and shown: its profile's form, case kept. Raises
    `Refused` for a character the profile disallows."""
    return _apply(PROFILES[field], value, compared=False)


def key(field: str, value: str) -> str:
    """`value` as label `field` is compared, counted and searched: its profile's case-mapped
    form. Raises `Refused` as `shown` does."""
    return _apply(PROFILES[field], value, compared=True)


def stored_key(field: str, value: str) -> tuple[str, list[str]]:
    """The key of a label stored before these rules, and the characters dropped to reach it
    (each as `describe` names it): a stored label cannot be refused, and the characters the
    profile disallows are what made look-alikes of it (`Anna` + U+FE0F counted apart from
    `Anna`), so without them it counts with the label it copied. "" when nothing is left."""
    dropped: list[str] = []
    while True:
        try:
            return key(field, value), dropped
        except Refused as refused:
            if refused.char is None or refused.char not in value:
                return ("" if refused.reason == "empty" else value.casefold()), dropped
            dropped.append(describe(refused.char))
            value = value.replace(refused.char, " " if refused.char.isspace() else "")


def spelled(label: str) -> str:
    """A stored label as a report writes it: quoted, and beside it in ASCII escapes when it is
    not ASCII, so an invisible character shows (a variation selector as `\\ufe0f`)."""
    return repr(label) if label.isascii() else f"{label!r} = {ascii(label)}"


@dataclass(frozen=True)
class Collision:
    """Stored labels of one field that are one label under its profile: `spellings` as stored
    (two or more; or one that needed characters dropped, `dropped`), all compared as `key`."""

    field: str
    key: str
    spellings: tuple[str, ...]
    dropped: tuple[str, ...]

    def __str__(self) -> str:
        shown = ", ".join(map(spelled, self.spellings))
        without = f" (without {', '.join(self.dropped)})" if self.dropped else ""
        return f"{self.field} {self.key!r}: {shown}{without}"


def collisions(stored: Iterable[tuple[str, str]]) -> list[Collision]:
    """The labels among `stored` ((field, label as stored) pairs) that their profiles make one:
    each key reached from two or more spellings, or from one only by dropping characters the
    profile disallows (`stored_key`), in field and key order."""
    spellings: dict[tuple[str, str], set[str]] = {}
    dropped: dict[tuple[str, str], set[str]] = {}
    for field, label in stored:
        found, without = stored_key(field, label)
        spellings.setdefault((field, found), set()).add(label)
        dropped.setdefault((field, found), set()).update(without)
    return [
        Collision(field, found, tuple(sorted(spellings[field, found])), tuple(sorted(gone)))
        for (field, found), gone in sorted(dropped.items())
        if len(spellings[field, found]) > 1 or gone
    ]


def canonical_words(words: Any) -> str | None:
    """An entry's words (as answered: `[{"word": ...}, ...]`) in their compared form, one space
    between, as searched: the JSON around them (its keys, its escapes) is no part of a search.
    None for a value of another shape (a row written around the service)."""
    if not isinstance(words, list):
        return None
    keys = []  # a loop, not generators: every audited ruling runs this (benchmarks/ruling_cost.py)
    for w in words:
        word = w.get("word") if isinstance(w, dict) else None
        if isinstance(word, str) and (found := stored_key("words", word)[0]):
            keys.append(found)
    return " ".join(keys) or None


def canonical_columns(entry: dict[str, Any]) -> dict[str, str | None]:
    """An entry's label columns and words in their compared form, as searched."""
    labels = {
        name: None if entry[name] is None else stored_key(name, entry[name])[0] for name in COLUMNS
    }
    return labels | {"words": canonical_words(entry["words"])}


# --- scripts -------------------------------------------------------------------------------

# Scripts written together (Unicode TS #39, "highly restrictive"): Japanese, Chinese with
# Bopomofo, Korean, each with Latin. Any other mix of two scripts is refused.
_WRITTEN_TOGETHER = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)
_GROUPED = frozenset().union(*_WRITTEN_TOGETHER)
_EVERY_SCRIPT = regex.compile(r"[\p{Script_Extensions=Common}\p{Script_Extensions=Inherited}]")


@functools.cache
def _written_in(script: str) -> regex.Pattern | None:
    """A letter of `script` (its Script_Extensions), or None when Unicode has no such script."""
    try:
        return regex.compile(rf"\p{{Script_Extensions={script}}}")
    except regex.error:
        return None


@functools.cache
def _scripts(ch: str) -> frozenset[str] | None:
    """The scripts a letter is written in (Unicode's Script_Extensions, from `regex`'s data),
    among those its name names (`GREEK …`, `OLD ITALIC …`) and those written with Latin; None
    for what every script uses (digits, punctuation, marks, Common and Inherited letters). A
    letter of none of them (a Tangut ideograph, which this Python cannot name) is of a script
    of its own, "unknown"."""
    if not ch.isalpha() or _EVERY_SCRIPT.match(ch):
        return None
    words = unicodedata.name(ch, "").replace("-", " ").split()
    named = {"_".join(words[:n]) for n in (1, 2, 3) if len(words) >= n}
    found = frozenset(
        script
        for script in named | _GROUPED
        if (pattern := _written_in(script)) is not None and pattern.match(ch)
    )
    return found or frozenset({"unknown"})


def mixes_scripts(value: str) -> bool:
    """Whether `value` (in its NFKC form) has letters of scripts not written together: no
    script has them all, nor does any group of `_WRITTEN_TOGETHER` (each letter in one of its
    scripts)."""
    found = [s for s in map(_scripts, unicodedata.normalize("NFKC", value)) if s is not None]
    if not found or frozenset.intersection(*found):
        return False
    return not any(all(s & group for s in found) for group in _WRITTEN_TOGETHER)
