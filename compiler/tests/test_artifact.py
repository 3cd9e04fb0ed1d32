"""Determinism, atomic writes, and loading checks."""

from __future__ import annotations

import hashlib
import json
import os
import random

import marisa_trie
import pytest

from compiler import artifact as writer
from compiler.build import build
from compiler.recipe import load_recipe
from compiler.tests.conftest import write_recipe
from lexicon import artifact
from lexicon.errors import LexiconError

WORDS = "hus\nbåt\nsol\nmüsli\nallé\nögon\nzoo\njazz\nEKG\nc/o\n"


@pytest.fixture
def recipe(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    return load_recipe(write_recipe(src, [{"name": "a.txt", "text": WORDS}]))


def test_two_builds_are_byte_identical(tmp_path, recipe):
    build(recipe, tmp_path / "one")
    build(recipe, tmp_path / "two")
    for name in ("t.marisa", "t.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_trie_ignores_key_order():
    words = [f"{a}{b}{c}" for a in "ABCÅ" for b in "ÄÖXY" for c in "ZQWE"]
    image = writer.trie_image(w.encode() for w in words)
    for seed in range(5):
        random.Random(seed).shuffle(words)
        assert writer.trie_image(w.encode() for w in words) == image
    trie = marisa_trie.Trie()
    trie.frombytes(image)
    assert sorted(trie.keys()) == sorted(words)


def _listing(folder):
    return sorted(p.name for p in folder.iterdir())


def test_failed_trie_write_keeps_old_artifact(tmp_path, recipe, monkeypatch):
    out = tmp_path / "out"
    build(recipe, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def boom(keys):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(writer, "trie_image", boom)
    with pytest.raises(RuntimeError):
        build(recipe, out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert artifact.load(out / "t.json").manifest["word_count"] == 8


def test_failed_manifest_rename_restores_old_trie(tmp_path, recipe, monkeypatch):
    out = tmp_path / "out"
    build(recipe, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    bigger = load_recipe(
        write_recipe(tmp_path / "src", [{"name": "a.txt", "text": WORDS + "ny\n"}])
    )
    real_replace = os.replace

    def replace(src, dst):
        if str(dst).endswith(".json"):
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError):
        build(bigger, out)
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    artifact.load(out / "t.json")


def test_no_temporary_files_after_success(tmp_path, recipe):
    build(recipe, tmp_path / "out")
    build(recipe, tmp_path / "out")
    assert _listing(tmp_path / "out") == ["t.json", "t.marisa"]


def test_load_and_lookup(tmp_path, recipe):
    _, manifest = build(recipe, tmp_path / "out")
    for path in (manifest, manifest.with_suffix(".marisa"), manifest.with_suffix("")):
        lex = artifact.load(path)
        assert "MÜSLI" in lex and "ALLE" in lex and "EKG" not in lex
        assert sorted(lex.words()) == ["ALLE", "BÅT", "HUS", "JAZZ", "MÜSLI", "SOL", "ZOO", "ÖGON"]
        assert lex.normaliser.query("Müsli") == "MÜSLI"
        assert lex.profile.code == "sv"
        summary = lex.summary()
        assert summary["word_count"] == 8 and summary["needs_blank"] == 2  # MÜSLI, JAZZ
        assert (
            summary["sha256"]
            == hashlib.sha256(manifest.with_suffix(".marisa").read_bytes()).hexdigest()
        )


def test_a_loaded_lexicon_ignores_later_writes_to_its_files(tmp_path, recipe):
    _, manifest = build(recipe, tmp_path / "out")
    lex = artifact.load(manifest)
    trie = manifest.with_suffix(".marisa")
    with open(trie, "r+b") as fh:  # what `cp other.marisa t.marisa` does: same inode, new bytes
        fh.truncate(0)
        fh.write(writer.trie_image([b"EKG"]))
    assert "MÜSLI" in lex and "EKG" not in lex and len(lex.words()) == 8
    with pytest.raises(LexiconError, match="checksum mismatch"):
        artifact.load(manifest)


def test_wrong_format_version_is_refused(tmp_path, recipe):
    _, manifest = build(recipe, tmp_path / "out")
    data = json.loads(manifest.read_text())
    data["format_version"] = 99
    manifest.write_text(json.dumps(data))
    with pytest.raises(LexiconError) as info:
        artifact.load(manifest)
    assert str(manifest) in str(info.value) and "format version 99" in str(info.value)


def test_foreign_manifest_is_refused(tmp_path, recipe):
    _, manifest = build(recipe, tmp_path / "out")
    manifest.write_text('{"format": "something-else"}')
    with pytest.raises(LexiconError, match="not a scrabble-lexicon manifest"):
        artifact.load(manifest)


def test_tampered_trie_fails_checksum(tmp_path, recipe):
    _, manifest = build(recipe, tmp_path / "out")
    trie = manifest.with_suffix(".marisa")
    data = bytearray(trie.read_bytes())
    data[-1] ^= 0xFF
    trie.write_bytes(bytes(data))
    with pytest.raises(LexiconError) as info:
        artifact.load(manifest)
    assert str(trie) in str(info.value) and "checksum mismatch" in str(info.value)


def test_truncated_trie_fails(tmp_path, recipe):
    _, manifest = build(recipe, tmp_path / "out")
    trie = manifest.with_suffix(".marisa")
    trie.write_bytes(trie.read_bytes()[:20])
    with pytest.raises(LexiconError, match="checksum mismatch"):
        artifact.load(manifest)


def test_garbage_trie_with_matching_checksum_fails_cleanly(tmp_path, recipe):
    _, manifest = build(recipe, tmp_path / "out")
    trie = manifest.with_suffix(".marisa")
    trie.write_bytes(b"garbage" * 10)
    data = json.loads(manifest.read_text())
    data["marisa"]["sha256"] = hashlib.sha256(trie.read_bytes()).hexdigest()
    manifest.write_text(json.dumps(data))
    with pytest.raises(LexiconError) as info:
        artifact.load(manifest)
    assert str(trie) in str(info.value)


def test_garbage_manifest_fails_cleanly(tmp_path, recipe):
    _, manifest = build(recipe, tmp_path / "out")
    manifest.write_bytes(b"\x00\xffnot json")
    with pytest.raises(LexiconError) as info:
        artifact.load(manifest)
    assert str(manifest) in str(info.value)


def test_missing_trie(tmp_path, recipe):
    _, manifest = build(recipe, tmp_path / "out")
    manifest.with_suffix(".marisa").unlink()
    with pytest.raises(LexiconError, match="missing"):
        artifact.load(manifest)


def test_bundled_dutch_smoke(tmp_path):
    """The one test on a bundled list: wdutch compiles and looks up."""
    from pathlib import Path

    recipe = load_recipe(Path(__file__).resolve().parents[2] / "lexicon_sources" / "wdutch.toml")
    result, manifest = build(recipe, tmp_path)
    lex = artifact.load(manifest)
    assert lex.manifest["word_count"] > 250_000
    assert lex.manifest["stand_in"] is True
    assert "WOORD" in lex and lex.normaliser.query("coördinatie") in lex


def test_failed_blank_count_in_the_child_keeps_the_old_artifact(tmp_path, monkeypatch):
    """The blank count runs in a forked child; its failure is an error, not a wrong manifest."""
    from compiler.build import build
    from compiler.recipe import load_recipe
    from lexicon.errors import LexiconError
    from lexicon.languages import LanguageProfile

    (tmp_path / "w.txt").write_text("hus\nord\n", encoding="utf-8")
    recipe = tmp_path / "r.toml"
    recipe.write_text(
        'id = "t"\nlanguage = "da"\ntitle = "t"\nversion = "1"\nlicense = "x"\n\n'
        '[[source]]\npath = "w.txt"\nformat = "plain"\nencoding = "utf-8"\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    build(load_recipe(recipe), out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def boom(self, data, max_len=None):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(LanguageProfile, "words_needing_blanks_utf8", boom)
    (tmp_path / "w.txt").write_text("hus\nord\nbil\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="need a blank"):
        build(load_recipe(recipe), out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
