"""Language profiles: alphabet, tile set, blank-only letters and folding, read from TOML.

The profiles ship in `lexicon_sources/languages/` and are found with `importlib.resources`, so
they work from a checkout and from an installed wheel alike. A compiled manifest carries its
profile too (`LanguageProfile.to_dict`), so a served lexicon never depends on these files.
"""

from __future__ import annotations

import functools
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from importlib import resources
from typing import Any

from lexicon.errors import LexiconError

FOLD_FALLBACKS = ("none", "accents", "unidecode")


@dataclass(frozen=True)
class Tile:
    count: int
    value: int


@dataclass(frozen=True)
class LanguageProfile:
    code: str
    name: str
    english_name: str
    alphabet: str
    blank_only: str
    blanks: int
    drop_capitals: bool
    fold_fallback: str
    folding: Mapping[str, str]
    tiles: Mapping[str, Tile]
    # Signs that join the parts of a word and are dropped, joining them: the Dutch lists spell
    # mee-eten as MEEETEN and auto's as AUTOS. Empty for a language that reads them as signs.
    joiners: str = ""
    # Letters with no tile of their own that the language's words are written with, each a key
    # of `folding` (Dutch Ĳ, two tiles I and J; É in IDÉ, CAFÉ): the judge's keyboard gives
    # each a key beside the alphabet's (adjudicator.judge.layouts). Not part of a compiled
    # artifact's profile: the service folds them whatever the keyboard offers.
    keys: str = ""
    letters: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "letters", frozenset(self.alphabet))

    @property
    def tile_total(self) -> int:
        return sum(t.count for t in self.tiles.values()) + self.blanks

    def value(self, letter: str) -> int:
        """Face value of a letter tile; blank-only letters have no tile and are worth 0."""
        tile = self.tiles.get(letter)
        return tile.value if tile else 0

    def blanks_needed(self, word: str) -> int:
        """How many blanks the tile set forces for `word` (blank-only letters, too few tiles)."""
        need = 0
        for letter in set(word):
            have = self.tiles[letter].count if letter in self.tiles else 0
            need += max(0, word.count(letter) - have)
        return need

    def words_needing_blanks_utf8(self, data: bytes, max_len: int | None = None) -> list[str]:
        """The words of `data` (UTF-8, one a line) that need at least one blank."""
        text = data.decode("utf-8")
        words = text.split("\n")
        try:
            hits = self._hits_latin1(data if data.isascii() else text.encode("latin-1"), max_len)
        except UnicodeEncodeError:  # an alphabet beyond Latin-1: word by word
            return [w for w in words if w and self.blanks_needed(w)]
        return [words[i] for i in sorted(hits)]

    def _hits_latin1(self, data: bytes, max_len: int | None) -> set[int]:
        """The line numbers (word indices) of the words of `data` that need a blank.

        All the words are cut down (`bytes.translate`) to the letters that share one tile count,
        then to each of those letters alone; a word with more of a letter than it has tiles then
        shows as a run such as `XX`, which `bytes.find` spots. Counts that no word of `max_len`
        letters can exceed are skipped.
        """
        groups: dict[int, list[str]] = {}
        for letter in self.alphabet:
            have = self.tiles[letter].count if letter in self.tiles else 0
            if ord(letter) < 256 and (max_len is None or have < max_len):
                groups.setdefault(have, []).append(letter)
        known = bytes(sorted({ord(c) for c in self.alphabet if ord(c) < 256} | {10}))
        other = set(data.translate(None, known))
        if other:  # a character outside the alphabet has no tile either
            groups.setdefault(0, []).extend(chr(b) for b in sorted(other))
        hits: set[int] = set()  # line numbers in `data`, i.e. word indices

        def only(text: bytes, letters: list[str]) -> bytes:
            keep = {ord(c) for c in letters} | {10}
            return text.translate(None, bytes(b for b in range(256) if b not in keep))

        def mark(text: bytes, needle: bytes) -> None:
            pos = line = 0
            found = text.find(needle)
            while found >= 0:
                line += text.count(b"\n", pos, found)
                hits.add(line)
                pos = text.find(b"\n", found)
                if pos < 0:
                    break
                found = text.find(needle, pos)

        for have, letters in groups.items():
            group = only(data, letters)
            for letter in letters:
                # Cut down to one letter, a word with too many of it holds them side by side.
                single = only(group, [letter]) if len(letters) > 1 else group
                mark(single, letter.encode("latin-1") * (have + 1))
        return hits

    def to_dict(self) -> dict[str, Any]:
        """The profile as a compiled manifest carries it: `keys` (the judge's keyboard) left out."""
        data = asdict(self)
        del data["keys"], data["letters"]
        return data | {"folding": dict(sorted(self.folding.items()))}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str) -> LanguageProfile:
        """Build and check a profile; every complaint names `source` and the field."""
        fail = functools.partial(LexiconError, file=source)
        if unknown := set(data) - _PROFILE_KEYS:
            raise fail(f"unknown key {sorted(unknown)[0]!r} in language profile")
        optional = {"folding", "blank_only", "fold_fallback", "joiners", "keys"}
        if missing := _PROFILE_KEYS - optional - set(data):
            raise fail(f"missing key {sorted(missing)[0]!r} in language profile")
        for key in ("code", "name", "english_name", "alphabet"):
            if not isinstance(data[key], str) or not data[key]:
                raise fail(f"{key!r} must be a non-empty string")
        alphabet = data["alphabet"]
        if alphabet != alphabet.upper() or len(set(alphabet)) != len(alphabet):
            raise fail("'alphabet' must be upper-case letters, each once")
        if not all(ch.isalpha() for ch in alphabet):
            raise fail("'alphabet' must hold letters only")
        blank_only = data.get("blank_only", "")
        if not isinstance(blank_only, str) or not set(blank_only) <= set(alphabet):
            raise fail("'blank_only' must be letters of the alphabet")
        blanks = data["blanks"]
        if not isinstance(blanks, int) or isinstance(blanks, bool) or blanks < 0:
            raise fail("'blanks' must be a whole number ≥ 0")
        if not isinstance(data["drop_capitals"], bool):
            raise fail("'drop_capitals' must be true or false")
        fallback = data.get("fold_fallback", "accents")
        if fallback not in FOLD_FALLBACKS:
            raise fail(f"'fold_fallback' must be one of {', '.join(FOLD_FALLBACKS)}")
        folding = data.get("folding", {})
        if not isinstance(folding, dict):
            raise fail("'folding' must be a table")
        for src, dst in folding.items():
            if src in alphabet:
                raise fail(f"folding: {src!r} is a letter of the alphabet and never folds")
            if not isinstance(dst, str) or not dst or not set(dst) <= set(alphabet):
                raise fail(f"folding: {src!r} must fold to letters of the alphabet")
        joiners = data.get("joiners", "")
        if not isinstance(joiners, str):
            raise fail("'joiners' must be a string of signs")
        for ch in joiners:
            if ch.isalpha() or ch.isspace() or unicodedata.category(ch)[0] in "CMN":
                raise fail(
                    f"joiners: {ch!r} is not a sign that joins a word's parts"
                    " (letters, marks, digits, spaces and control characters are not)"
                )
            if ch in folding or joiners.count(ch) > 1:
                raise fail(f"joiners: {ch!r} is named twice (or also folds)")
        keys = data.get("keys", "")
        if not isinstance(keys, str):
            raise fail("'keys' must be a string of letters")
        for ch in keys:
            if ch not in folding or keys.count(ch) > 1:
                raise fail(
                    f"keys: {ch!r} must be a letter of [folding], named once (a tile's letter"
                    " has its key already)"
                )
        raw_tiles = data["tiles"]
        if not isinstance(raw_tiles, dict):
            raise fail("'tiles' must be a table")
        tiles: dict[str, Tile] = {}
        for letter in alphabet:  # alphabet order, so manifests are stable
            spec = raw_tiles.get(letter)
            if spec is None:
                if letter not in blank_only:
                    raise fail(f"tiles: letter {letter!r} has no tile and is not blank-only")
                continue
            if letter in blank_only:
                raise fail(f"tiles: {letter!r} is blank-only and cannot have a tile")
            if not isinstance(spec, dict) or set(spec) != {"count", "value"}:
                raise fail(f"tiles.{letter}: needs exactly 'count' and 'value'")
            if not all(isinstance(spec[k], int) and spec[k] >= 0 for k in ("count", "value")):
                raise fail(f"tiles.{letter}: 'count' and 'value' must be whole numbers ≥ 0")
            tiles[letter] = Tile(spec["count"], spec["value"])
        if extra := set(raw_tiles) - set(alphabet):
            raise fail(f"tiles: {sorted(extra)[0]!r} is not in the alphabet")
        given = {"blank_only": blank_only, "fold_fallback": fallback, "folding": dict(folding)}
        return cls(**{**data, **given, "tiles": tiles, "joiners": joiners, "keys": keys})


# The keys a profile's TOML may hold: the profile's own fields.
_PROFILE_KEYS = {f.name for f in fields(LanguageProfile) if f.init}


def available_languages() -> list[str]:
    folder = resources.files("lexicon_sources") / "languages"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


@functools.cache
def load_profile(code: str) -> LanguageProfile:
    """The bundled profile for a language code; `LookupError` names an unknown one."""
    if code not in available_languages():
        raise LookupError(f"unknown language {code!r}; known: {', '.join(available_languages())}")
    path = resources.files("lexicon_sources") / "languages" / f"{code}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LexiconError(f"cannot read language profile: {exc.strerror}", file=str(path)) from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise LexiconError(f"not valid TOML: {exc}", file=str(path)) from exc
    return LanguageProfile.from_dict(data, source=str(path))
