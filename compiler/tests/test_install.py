"""`lexicon install`: verify first, content-addressed tries, the manifest switched last."""

from __future__ import annotations

import json
import os

import pytest

from compiler.build import build
from compiler.cli import main
from compiler.install import install
from compiler.recipe import load_recipe
from compiler.tests.conftest import write_recipe
from lexicon import artifact
from lexicon.errors import LexiconError


@pytest.fixture
def recipe(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    return load_recipe(write_recipe(src, [{"name": "a.txt", "text": "hus\nbåt\nsol\n"}]))


def test_install_is_content_addressed_and_read_only(tmp_path, recipe):
    _, manifest = build(recipe, tmp_path / "build")
    sha = json.loads(manifest.read_text())["marisa"]["sha256"]
    [done] = install([manifest], tmp_path / "deploy")
    trie = tmp_path / "deploy" / f"{sha}.marisa"
    assert done.sha256 == sha and done.previous is None
    assert trie.read_bytes() == manifest.with_suffix(".marisa").read_bytes()
    assert not os.stat(trie).st_mode & 0o222
    installed = json.loads(done.manifest.read_text())
    assert installed["marisa"]["file"] == trie.name
    assert artifact.load(done.manifest).identity()["sha256"] == sha
    inode = os.stat(trie).st_ino
    [again] = install([manifest], tmp_path / "deploy")
    assert again.previous == sha and os.stat(trie).st_ino == inode  # never rewritten


def test_a_bad_build_installs_nothing(tmp_path, recipe):
    _, manifest = build(recipe, tmp_path / "build")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "t.json").write_text(manifest.read_text())
    (bad / "t.marisa").write_bytes(b"not the trie")
    with pytest.raises(LexiconError, match="checksum mismatch"):
        install([manifest, bad / "t.json"], tmp_path / "deploy")
    assert not (tmp_path / "deploy").exists()


def test_cli_install_reports_and_fails_with_file(tmp_path, recipe, capsys):
    _, manifest = build(recipe, tmp_path / "build")
    assert main(["install", str(manifest), "--into", str(tmp_path / "deploy")]) == 0
    assert "installed  t  sha256" in capsys.readouterr().out
    assert main(["install", str(tmp_path / "none.json"), "--into", str(tmp_path / "d")]) == 2
    assert "none.json: manifest not found" in capsys.readouterr().err


def test_two_builds_of_one_id_are_refused_naming_both_and_nothing_is_installed(tmp_path, recipe):
    _, first = build(recipe, tmp_path / "a")
    _, second = build(recipe, tmp_path / "b")
    with pytest.raises(LexiconError) as refused:
        install([first, second], tmp_path / "deploy")
    assert str(refused.value) == f"{second}: lexicon id 't' is also in {first}"
    assert not (tmp_path / "deploy").exists()
