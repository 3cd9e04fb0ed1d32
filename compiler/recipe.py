"""Recipes: which sources, in which order, make one lexicon."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from compiler.sources import ENCODINGS, FORMATS
from lexicon.artifact import in_force_date
from lexicon.errors import LexiconError
from lexicon.normalise import CAPITALISED

_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
_REQUIRED = ("id", "language", "title", "version", "license")
_RECIPE_KEYS = {*_REQUIRED, "stand_in", "description", "in_force_from", "source", "filters_off"}
# A source's keys besides `path`, each with its default and what it may be.
_CHOICES = {"format": ("plain", FORMATS), "encoding": ("auto", ENCODINGS)}
_SOURCE_KEYS = {"path", *_CHOICES}
# Filters a recipe may turn off, each with the reason why (`[filters_off]`). Only the capitals
# filter: it is a federation's choice (proper names; 004 names allowing them as a house
# variant). The others are the board's and the tiles' (too long, a sign, a foreign letter).
SWITCHABLE_FILTERS = (CAPITALISED,)


@dataclass(frozen=True)
class Source:
    path: Path  # resolved
    declared_path: str  # as written in the recipe, for manifests that do not leak local paths
    format: str
    encoding: str
    line: int | None = None  # of its `path` key (or `[[source]]` header) in the recipe


@dataclass(frozen=True)
class Recipe:
    file: Path
    id: str
    language: str
    title: str
    version: str
    license: str
    stand_in: bool
    description: str
    sources: tuple[Source, ...]
    language_line: int | None = None  # for errors about the language
    # Filters turned off, each with why: a house build (never a tournament list); the build
    # report and the manifest say so.
    filters_off: tuple[tuple[str, str], ...] = ()
    # The date this edition is in force from (the yearly Danish update from 1 January): None,
    # in force since always. `lexicon build --in-force-from` sets or overrides it.
    in_force_from: date | None = None


_TABLE = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\"-]+)\s*\]\]?")
_KEY = re.compile(r"^\s*\"?([A-Za-z0-9_-]+)\"?\s*=")


def _key_lines(text: str) -> dict[tuple[int, str], int]:
    """Where each key sits in the recipe text: (0, key) at the top level (the keys of
    [filters_off] as `filters_off.<key>`), (n, key) in the n-th `[[source]]`, (n, "[[source]]")
    its header."""
    found: dict[tuple[int, str], int] = {}
    table: str | None = None
    source = 0  # the [[source]] being read, counted from 1
    for number, line in enumerate(text.splitlines(), start=1):
        if header := _TABLE.match(line):
            table = header.group(1).strip('"')
            found.setdefault((0, table), number)
            if table == "source" and line.lstrip().startswith("[["):
                source += 1
                found[source, "[[source]]"] = number
        elif key := _KEY.match(line):
            if table is None:
                found.setdefault((0, key.group(1)), number)
            elif table == "filters_off":
                found.setdefault((0, f"filters_off.{key.group(1)}"), number)
            elif table == "source" and source:
                found.setdefault((source, key.group(1)), number)
    return found


def load_recipe(path: Path | str) -> Recipe:
    path = Path(path)
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LexiconError("recipe not found", file=file) from None
    except UnicodeDecodeError:
        raise LexiconError("recipe is not UTF-8", file=file) from None
    except OSError as exc:
        raise LexiconError(f"cannot read recipe: {exc.strerror}", file=file) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        raise LexiconError(f"not valid TOML: {exc}", file=file, line=line) from exc

    lines = _key_lines(text)

    def line_of(key: str | None, source: int = 0) -> int | None:
        """Line of `key` (top level, or in the `source`-th [[source]], else at its header)."""
        header = lines.get((source, "[[source]]")) if source else None
        return lines.get((source, key), header) if key else header

    def fail(msg: str, key: str | None = None, source: int = 0) -> LexiconError:
        return LexiconError(msg, file=file, line=line_of(key, source))

    for key in data:
        if key not in _RECIPE_KEYS:
            raise fail(f"unknown recipe key {key!r}", key)
    for key in _REQUIRED:
        if key not in data:
            raise fail(f"missing recipe key {key!r}")
        if not isinstance(data[key], str) or not data[key].strip():
            raise fail(f"recipe key {key!r} must be a non-empty string", key)
    if not _ID.fullmatch(data["id"]):
        raise fail("'id' must be lower-case letters, digits, '.', '_' or '-'", "id")
    stand_in = data.get("stand_in", False)
    if not isinstance(stand_in, bool):
        raise fail("'stand_in' must be true or false", "stand_in")
    filters_off = _filters_off(data.get("filters_off", {}), fail)
    try:
        in_force = in_force_date(data.get("in_force_from"))
    except ValueError as exc:
        raise fail(f"'in_force_from' {exc}", "in_force_from") from None
    raw_sources = data.get("source")
    if not isinstance(raw_sources, list) or not raw_sources:
        raise fail("a recipe needs at least one [[source]]")
    sources = []
    for index, raw in enumerate(raw_sources, start=1):
        where = f"[[source]] #{index}"
        if not isinstance(raw, dict):
            raise fail(f"{where} must be a table", source=index)
        for key in raw:
            if key not in _SOURCE_KEYS:
                raise fail(f"unknown key {key!r} in {where}", key, index)
        if not isinstance(raw.get("path"), str) or not raw["path"]:
            raise fail(f"{where} needs a 'path'", "path", index)
        chosen = {key: raw.get(key, default) for key, (default, _) in _CHOICES.items()}
        for key, (_, known) in _CHOICES.items():
            if chosen[key] not in known:
                said = f"{chosen[key]!r} in {where}; known: {', '.join(known)}"
                raise fail(f"unknown {key} {said}", key, index)
        resolved = (path.parent / raw["path"]).resolve()
        sources.append(Source(resolved, raw["path"], **chosen, line=line_of("path", index)))
    if sources[0].format == "delta":
        raise fail(
            "the first source cannot be a delta: there is nothing to apply it to", "format", 1
        )
    return Recipe(
        file=path,
        **{key: data[key] for key in _REQUIRED},
        stand_in=stand_in,
        description=data.get("description", ""),
        sources=tuple(sources),
        language_line=line_of("language"),
        filters_off=filters_off,
        in_force_from=in_force,
    )


def _filters_off(raw: object, fail) -> tuple[tuple[str, str], ...]:
    """`[filters_off]`: `capitalised = "why"`; each filter switchable, each with its reason."""
    if not isinstance(raw, dict):
        raise fail("'filters_off' must be a table: filter = \"why it is off\"", "filters_off")
    known = ", ".join(SWITCHABLE_FILTERS)
    for name, why in raw.items():
        key = f"filters_off.{name}"
        if name not in SWITCHABLE_FILTERS:
            raise fail(f"filter {name!r} cannot be turned off; only: {known}", key)
        if not isinstance(why, str) or not why.strip():
            raise fail(f"filters_off.{name} must say why it is off (a non-empty string)", key)
    return tuple(sorted(raw.items()))
