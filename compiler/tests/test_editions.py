"""Editions with a date (000 §2.1: Retskrivningsordbogen "inklusiv Dansk Sprognævns årlige
opdatering af nye ord"; 002: SAOL and its supplement; 003: "de geldende uitgaven"): a build names
the day it is in force from, and `lexicon diff` checks a coming edition against the one in
force."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from compiler.cli import main
from compiler.recipe import load_recipe
from compiler.tests.conftest import write_recipe
from lexicon import artifact, editions
from lexicon.errors import LexiconError


def _build(tmp_path, lexicon_id, text, *args, extra=""):
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    recipe = write_recipe(
        src, [{"name": f"{lexicon_id}.txt", "text": text}], lexicon_id=lexicon_id, extra=extra
    )
    assert main(["build", "-q", str(recipe), "--out", str(tmp_path / "out"), *args]) == 0
    return tmp_path / "out" / f"{lexicon_id}.json"


def test_a_build_names_its_in_force_date_from_the_command_line_or_the_recipe(tmp_path, capsys):
    """000 §2.1: the yearly update is in force from 1 January."""
    cli = _build(tmp_path, "cli", "hus\n", "--in-force-from", "2027-01-01")
    recipe = _build(tmp_path, "recipe", "hus\n", extra="in_force_from = 2026-01-01")
    both = _build(
        tmp_path,
        "both",
        "hus\n",
        "--in-force-from",
        "2028-01-01",
        extra='in_force_from = "2026-01-01"',
    )
    assert json.loads(cli.read_text("utf-8"))["in_force_from"] == "2027-01-01"
    assert json.loads(recipe.read_text("utf-8"))["in_force_from"] == "2026-01-01"
    assert json.loads(both.read_text("utf-8"))["in_force_from"] == "2028-01-01"
    lexicon = artifact.load(cli)
    assert lexicon.in_force_from == date(2027, 1, 1)
    assert lexicon.identity()["in_force_from"] == "2027-01-01"


def test_a_build_without_a_date_is_as_before_and_in_force_since_always(tmp_path):
    """Old artifacts (no field) load, unchanged: no new key in the manifest or the identity."""
    path = _build(tmp_path, "plain", "hus\n")
    manifest = json.loads(path.read_text("utf-8"))
    assert "in_force_from" not in manifest
    lexicon = artifact.load(path)
    assert lexicon.in_force_from is None and "in_force_from" not in lexicon.identity()
    assert editions.in_force([lexicon], date(1900, 1, 1)) is lexicon


@pytest.mark.parametrize("bad", ["2027-13-01", "1 January 2027", "2027-1-1", "20270101"])
def test_a_bad_date_is_refused_by_name(tmp_path, capsys, bad):
    with pytest.raises(SystemExit):
        _build(tmp_path, "cli", "hus\n", "--in-force-from", bad)
    assert "--in-force-from" in capsys.readouterr().err
    recipe = write_recipe(
        tmp_path, [{"name": "a.txt", "text": "hus\n"}], extra=f'in_force_from = "{bad}"'
    )
    with pytest.raises(LexiconError, match="in_force_from") as caught:
        load_recipe(recipe)
    assert caught.value.line == 6  # the key's line in the recipe


def test_a_manifest_with_a_bad_date_is_refused_naming_the_field(tmp_path):
    path = _build(tmp_path, "m", "hus\n")
    manifest = json.loads(path.read_text("utf-8"))
    manifest["in_force_from"] = "next year"
    path.write_text(json.dumps(manifest), "utf-8")
    with pytest.raises(LexiconError, match="'in_force_from' must be a date"):
        artifact.load(path)


def test_the_edition_in_force_is_the_latest_date_not_after_the_day(tmp_path):
    base = artifact.load(_build(tmp_path, "base", "hus\n"))
    y26 = artifact.load(_build(tmp_path, "y26", "hus\nsol\n", "--in-force-from", "2026-01-01"))
    y27 = artifact.load(_build(tmp_path, "y27", "hus\nsol\nbil\n", "--in-force-from", "2027-01-01"))
    listed = [y27, base, y26]  # the order listed does not matter, only the dates
    assert editions.in_force(listed, date(2025, 12, 31)) is base
    assert editions.in_force(listed, date(2026, 1, 1)) is y26
    assert editions.in_force(listed, date(2026, 12, 31)) is y26
    assert editions.in_force(listed, date(2027, 1, 1)) is y27
    assert editions.in_force([y27], date(2026, 6, 1)) is None  # not yet: installed, not used
    assert editions.previous(listed, y27) is y26 and editions.previous(listed, y26) is base
    assert editions.previous(listed, base) is None


def test_of_two_editions_with_the_same_date_the_one_listed_last_is_in_force():
    def edition(name, day):
        return editions.Installed(Path(f"{name}.json"), name, day)

    first, second = edition("a", date(2026, 1, 1)), edition("b", date(2026, 1, 1))
    undated, other = edition("c", None), edition("d", None)
    assert editions.in_force([first, second], date(2026, 6, 1)) is second
    assert editions.in_force([second, first], date(2026, 6, 1)) is first
    assert editions.in_force([undated, other], date(2026, 6, 1)) is other
    assert editions.in_force([first, undated, second], date(2025, 6, 1)) is undated
    assert editions.in_force([], date(2026, 6, 1)) is None


def test_diff_against_the_edition_in_force(tmp_path, capsys):
    """`lexicon diff NEW --in-force-among …`: the words added and removed against the edition
    in force on the day (counts and lists), before the new one is used."""
    base = _build(tmp_path, "base", "hus\nbåt\n")
    y26 = _build(tmp_path, "y26", "hus\nbåt\nsol\n", "--in-force-from", "2026-01-01")
    y27 = _build(tmp_path, "y27", "hus\nsol\nbil\nko\n", "--in-force-from", "2027-01-01")
    capsys.readouterr()
    args = ["diff", str(y27), "--in-force-among", str(base), str(y26), str(y27)]
    assert main([*args, "--on", "2026-12-31"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["-BÅT", "+BIL", "+KO"]
    assert "in force on 2026-12-31: y26 (in force from 2026-01-01)" in captured.err
    assert "y26 → y27: 2 added, 1 removed" in captured.err
    assert "y27 is used from 2027-01-01 on, not before" in captured.err
    assert main([*args, "--on", "2025-06-01"]) == 0  # then the base list was in force
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["-BÅT", "+BIL", "+KO", "+SOL"]
    assert "base (no date: always)" in captured.err
    assert main([*args, "--on", "2027-02-01"]) == 0  # y27 itself is left out of the choice
    assert "would already be in force" in capsys.readouterr().err


def test_diff_errors_say_what_to_give(tmp_path, capsys):
    y27 = _build(tmp_path, "y27", "hus\n", "--in-force-from", "2027-01-01")
    capsys.readouterr()
    assert main(["diff", str(y27)]) == 2
    assert "give two builds" in capsys.readouterr().err
    assert main(["diff", str(y27), "--in-force-among", str(y27), "--on", "2026-01-01"]) == 2
    assert "none of the editions given is in force on 2026-01-01" in capsys.readouterr().err
