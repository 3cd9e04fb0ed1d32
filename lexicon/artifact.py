"""The compiled artifact, as read: `<id>.marisa` (the words) beside `<id>.json` (the manifest).

The manifest names its format and version and holds the trie's sha256. Loading reads the trie
into memory once, checks the checksum of exactly the bytes it read and builds the trie from those
bytes: nothing is mapped from a file, so whatever later happens to the file (`cp` over it, an
editor, truncation) cannot change what a loaded lexicon answers, and a file that does not match
its checksum is never served. The compiler writes artifacts (`compiler.artifact`); the service
and the CLIs read them here; `lexicon.install` puts verified builds into a deployment.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import marisa_trie

from lexicon.errors import LexiconError, read_file
from lexicon.languages import LanguageProfile
from lexicon.normalise import Normaliser

FORMAT_NAME = "scrabble-lexicon"
FORMAT_VERSION = 1
_REQUIRED = (
    "format",
    "format_version",
    "id",
    "language",
    "title",
    "version",
    "license",
    "stand_in",
    "marisa",
    "word_count",
    "profile",
)


# Optional: the date an edition is in force from (`lexicon build --in-force-from`), an ISO date.
# A build without it (every build made before editions had dates) is in force since always.
IN_FORCE_FROM = "in_force_from"


def in_force_date(value: Any) -> date | None:
    """An edition's in-force date as a recipe, the command line or a manifest gives it: a TOML
    date or `YYYY-MM-DD`; None for none. A ValueError says what it must be."""
    if value is None:
        return None
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if isinstance(value, str) and len(value) == 10:
        with contextlib.suppress(ValueError):
            return date.fromisoformat(value)
    raise ValueError(f"must be a date, YYYY-MM-DD (2027-01-01), not {value!r}")


@dataclass
class Lexicon:
    """A loaded artifact: the trie (built from verified bytes), its manifest and its profile."""

    manifest_path: Path
    manifest: dict[str, Any]
    trie: marisa_trie.Trie
    profile: LanguageProfile
    normaliser: Normaliser

    @property
    def id(self) -> str:
        return self.manifest["id"]

    def __contains__(self, word: str) -> bool:
        """Membership of an already normalised word."""
        return word in self.trie

    def words(self) -> list[str]:
        return self.trie.keys()

    @property
    def filters_off(self) -> dict[str, str]:
        """The compiler's filters this build turned off, each with why (a recipe's
        `[filters_off]`); empty for a tournament list."""
        return dict(self.manifest.get("filters_off") or {})

    @property
    def house(self) -> bool:
        """A house build (a filter off, e.g. proper names kept): only a house ruleset may use it."""
        return bool(self.filters_off)

    @property
    def in_force_from(self) -> date | None:
        """The date this edition is in force from; None: since always (checked on reading)."""
        return in_force_date(self.manifest.get(IN_FORCE_FROM))

    def identity(self) -> dict[str, Any]:
        """Which list ruled: enough to name it and prove which build it was. An edition with a
        date names it (`in_force_from`); a build without one says nothing more than before."""
        m = self.manifest
        return {
            "id": m["id"],
            "title": m["title"],
            "version": m["version"],
            "sha256": m["marisa"]["sha256"],
            "stand_in": m["stand_in"],
            **({IN_FORCE_FROM: m[IN_FORCE_FROM]} if m.get(IN_FORCE_FROM) is not None else {}),
        }

    def summary(self) -> dict[str, Any]:
        """What may be said about a lexicon in public: identity and counts, never words."""
        m = self.manifest
        return {
            **self.identity(),
            "language": m["language"],
            "license": m["license"],
            "word_count": m["word_count"],
            "needs_blank": m.get("needs_blank"),
            # a house build says which filters it turned off, and why
            **({"filters_off": self.filters_off} if self.house else {}),
        }


def resolve_manifest(path: Path | str) -> Path:
    """Accept `<id>.json`, `<id>.marisa` or the bare stem. Any other file is refused by its
    own name (a word list or a recipe given by mistake), not as a missing `<file>.json`."""
    path = Path(path)
    if not path.name or path.is_dir():  # `""`, `/`, `..`, a folder: no file to read
        raise LexiconError("not a compiled lexicon: give its manifest (<id>.json)", file=str(path))
    if path.suffix not in (".json", ".marisa") and path.is_file():
        raise LexiconError(
            "not a compiled lexicon: give its manifest (<id>.json, from `lexicon build`)",
            file=str(path),
        )
    if path.suffix == ".marisa":
        return path.with_suffix(".json")
    if path.suffix != ".json":
        return path.with_name(path.name + ".json")
    return path


def read_manifest(manifest_path: Path) -> dict[str, Any]:
    file = str(manifest_path)
    data = read_file(manifest_path, "manifest not found", "manifest")
    try:
        manifest = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LexiconError(f"manifest is not valid JSON: {exc}", file=file) from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_NAME:
        raise LexiconError(f"not a {FORMAT_NAME} manifest (field 'format')", file=file)
    if manifest.get("format_version") != FORMAT_VERSION:
        raise LexiconError(
            f"format version {manifest.get('format_version')!r} is not supported "
            f"(this software reads version {FORMAT_VERSION}); rebuild it with `lexicon build`",
            file=file,
        )
    for key in _REQUIRED:
        if key not in manifest:
            raise LexiconError(f"manifest lacks field {key!r}", file=file)
    marisa = manifest["marisa"]
    if not isinstance(marisa, dict) or not {"file", "sha256"} <= set(marisa):
        raise LexiconError("manifest field 'marisa' needs 'file' and 'sha256'", file=file)
    if Path(marisa["file"]).name != marisa["file"]:
        raise LexiconError("manifest field 'marisa.file' must be a bare file name", file=file)
    try:
        in_force_date(manifest.get(IN_FORCE_FROM))
    except ValueError as exc:
        raise LexiconError(f"manifest field {IN_FORCE_FROM!r} {exc}", file=file) from None
    return manifest


def trie_path(manifest_path: Path, manifest: dict[str, Any]) -> Path:
    return manifest_path.parent / manifest["marisa"]["file"]


def read_trie(manifest_path: Path, manifest: dict[str, Any]) -> bytes:
    """The trie's bytes, read once and checked against the manifest's sha256."""
    path = trie_path(manifest_path, manifest)
    data = read_file(path, "trie file named by the manifest is missing", "trie")
    actual = hashlib.sha256(data).hexdigest()
    if actual != manifest["marisa"]["sha256"]:
        raise LexiconError(
            f"checksum mismatch: manifest says {manifest['marisa']['sha256'][:12]}…, "
            f"file is {actual[:12]}… (corrupted or from another build)",
            file=str(path),
        )
    return data


def manifest_profile(manifest: dict[str, Any], manifest_path: Path) -> LanguageProfile:
    """The language profile a build was compiled with: the only one the service uses."""
    return LanguageProfile.from_dict(manifest["profile"], source=f"{manifest_path} (profile)")


def read_profile(path: Path | str) -> LanguageProfile:
    """The profile of a compiled lexicon without mapping its words (e.g. a scores-only replay)."""
    manifest_path = resolve_manifest(path)
    return manifest_profile(read_manifest(manifest_path), manifest_path)


def load(path: Path | str) -> Lexicon:
    """Verify, then build the trie from the very bytes whose checksum was checked.

    The trie lives in the loading process's memory; under gunicorn's `preload_app` the master
    loads it before forking, so the workers share its pages copy-on-write (they only read them).
    """
    manifest_path = resolve_manifest(path)
    manifest = read_manifest(manifest_path)
    return from_bytes(manifest_path, manifest, read_trie(manifest_path, manifest))


def from_bytes(manifest_path: Path, manifest: dict[str, Any], data: bytes) -> Lexicon:
    """A lexicon from a read manifest and trie bytes already checked against its sha256."""
    profile = manifest_profile(manifest, manifest_path)
    where = str(trie_path(manifest_path, manifest))
    try:
        trie = marisa_trie.Trie().frombytes(data)
    except Exception as exc:  # marisa raises plain RuntimeError/Exception on a bad image
        raise LexiconError(f"not a readable marisa-trie: {exc}", file=where) from exc
    if len(trie) != manifest["word_count"]:
        raise LexiconError(
            f"trie holds {len(trie)} words, manifest says {manifest['word_count']}", file=where
        )
    return Lexicon(manifest_path, manifest, trie, profile, Normaliser(profile))
