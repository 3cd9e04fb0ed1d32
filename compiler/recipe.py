"""Recipes: which sources, in which order, make one lexicon."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from compiler.errors import CompileError
from compiler.sources import ENCODINGS, FORMATS

_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
_RECIPE_KEYS = {"id", "language", "title", "version", "license", "stand_in", "description"}
_REQUIRED = ("id", "language", "title", "version", "license")
_SOURCE_KEYS = {"path", "format", "encoding"}


@dataclass(frozen=True)
class Source:
    path: Path  # resolved
    declared_path: str  # as written in the recipe, for manifests that do not leak local paths
    format: str
    encoding: str


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


def _line_of_key(text: str, key: str) -> int | None:
    pattern = re.compile(rf"^\s*\"?{re.escape(key)}\"?\s*=", re.M)
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else None


def load_recipe(path: Path | str) -> Recipe:
    path = Path(path)
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CompileError("recipe not found", file=file)
    except UnicodeDecodeError:
        raise CompileError("recipe is not UTF-8", file=file)
    except OSError as exc:
        raise CompileError(f"cannot read recipe: {exc.strerror}", file=file)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        raise CompileError(f"not valid TOML: {exc}", file=file, line=line)

    def fail(msg: str, key: str | None = None) -> CompileError:
        return CompileError(msg, file=file, line=_line_of_key(text, key) if key else None)

    for key in data:
        if key not in _RECIPE_KEYS | {"source"}:
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
    raw_sources = data.get("source")
    if not isinstance(raw_sources, list) or not raw_sources:
        raise fail("a recipe needs at least one [[source]]")
    sources = []
    for index, raw in enumerate(raw_sources, start=1):
        where = f"[[source]] #{index}"
        if not isinstance(raw, dict):
            raise fail(f"{where} must be a table")
        for key in raw:
            if key not in _SOURCE_KEYS:
                raise fail(f"unknown key {key!r} in {where}", key)
        if not isinstance(raw.get("path"), str) or not raw["path"]:
            raise fail(f"{where} needs a 'path'")
        fmt = raw.get("format", "plain")
        if fmt not in FORMATS:
            raise fail(f"unknown format {fmt!r} in {where}; known: {', '.join(FORMATS)}", "format")
        enc = raw.get("encoding", "auto")
        if enc not in ENCODINGS:
            raise fail(
                f"unknown encoding {enc!r} in {where}; known: {', '.join(ENCODINGS)}", "encoding"
            )
        sources.append(Source((path.parent / raw["path"]).resolve(), raw["path"], fmt, enc))
    if sources[0].format == "delta":
        raise fail("the first source cannot be a delta: there is nothing to apply it to")
    return Recipe(
        file=path,
        id=data["id"],
        language=data["language"],
        title=data["title"],
        version=data["version"],
        license=data["license"],
        stand_in=stand_in,
        description=data.get("description", ""),
        sources=tuple(sources),
    )
