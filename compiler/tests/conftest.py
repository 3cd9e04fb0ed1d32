"""Helpers: tiny recipes written into tmp_path, compiled and loaded."""

from __future__ import annotations

import gzip
import lzma
from pathlib import Path

import pytest

from compiler.build import BuildResult, build
from compiler.recipe import load_recipe
from lexicon import artifact


def words_of(result: BuildResult) -> list[str]:
    """A compiled recipe's words, sorted (the trie holds them as UTF-8 keys)."""
    return sorted(key.decode("utf-8") for key in result.keys)


def write_recipe(
    folder: Path,
    sources: list[dict],
    *,
    lexicon_id: str = "t",
    language: str = "sv",
    extra: str = "",
) -> Path:
    """A recipe in `folder`; each source is {"name", "text" | "data", "format", "encoding"}."""
    lines = [
        f'id = "{lexicon_id}"',
        f'language = "{language}"',
        'title = "test"',
        'version = "1"',
        'license = "CC0"',
        extra,
    ]
    for src in sources:
        path = folder / src["name"]
        data = src["data"] if "data" in src else src["text"].encode(src.get("write_as", "utf-8"))
        if path.suffix == ".gz":
            data = gzip.compress(data, mtime=0)
        elif path.suffix == ".xz":
            data = lzma.compress(data)
        path.write_bytes(data)
        lines += ["", "[[source]]", f'path = "{src["name"]}"']
        lines.append(f'format = "{src.get("format", "plain")}"')
        lines.append(f'encoding = "{src.get("encoding", "utf-8")}"')
    recipe = folder / f"{lexicon_id}.toml"
    recipe.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return recipe


@pytest.fixture
def compile_words(tmp_path):
    """compile_words(text, language=..., format=...) → the loaded Lexicon."""

    def run(text: str, *, language: str = "sv", fmt: str = "plain") -> artifact.Lexicon:
        folder = tmp_path / f"src-{language}-{fmt}"
        folder.mkdir(exist_ok=True)
        recipe = write_recipe(
            folder, [{"name": "words.txt", "text": text, "format": fmt}], language=language
        )
        _, manifest = build(load_recipe(recipe), tmp_path / "out")
        return artifact.load(manifest)

    return run
