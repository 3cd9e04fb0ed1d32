"""A house build (004 Almindelige varianter, "Mange hjem tillader egennavne"): a recipe turns
the capitals filter off, with its reason; every other filter stays as the tournament list's,
and the build report and the manifest say which filter was off and why (docs/rules.md §4.6)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from compiler.build import build, compile_recipe
from compiler.cli import main
from compiler.recipe import load_recipe
from compiler.tests.conftest import words_of, write_recipe
from lexicon import artifact
from lexicon.errors import LexiconError

SOURCES = Path(__file__).resolve().parents[2] / "lexicon_sources"
WHY = "004 Almindelige varianter: Mange hjem tillader egennavne"
# Proper names, an abbreviation, and entries every Danish list drops for other reasons.
ENTRIES = "hus\ncafé\nKøbenhavn\nAsbjørn\nDSB\nAGF-spiller\nABC'en\nc/o\nx\nmmmmmmmmmmmmmmmm\n"


def _recipes(folder: Path) -> tuple[Path, Path]:
    source = [{"name": "da.txt", "text": ENTRIES}]
    tournament = write_recipe(folder, source, lexicon_id="tour", language="da")
    house = write_recipe(
        folder,
        source,
        lexicon_id="house",
        language="da",
        extra=f'\n[filters_off]\ncapitalised = "{WHY}"\n',
    )
    return tournament, house


def test_the_house_build_keeps_proper_names_and_every_other_filter(tmp_path):
    tournament, house = _recipes(tmp_path)
    tour = compile_recipe(load_recipe(tournament), keep_rejected=True)
    home = compile_recipe(load_recipe(house), keep_rejected=True)
    assert words_of(tour) == ["CAFE", "HUS"]
    assert words_of(home) == ["ASBJØRN", "CAFE", "DSB", "HUS", "KØBENHAVN"]
    # the house build's extra words are exactly the entries the tournament build dropped as
    # capitalised and that pass every other filter
    capitalised = {r.entry for r in tour.rejected if r.reason == "capitalised"}
    assert capitalised == {"København", "Asbjørn", "DSB", "AGF-spiller", "ABC'en"}
    assert set(words_of(home)) - set(words_of(tour)) == {"KØBENHAVN", "ASBJØRN", "DSB"}
    assert {(r.entry, r.reason) for r in home.rejected} == {
        ("AGF-spiller", "non-letter"),
        ("ABC'en", "non-letter"),
        ("c/o", "non-letter"),
        ("x", "too-short"),
        ("mmmmmmmmmmmmmmmm", "too-long"),
    }
    # the bulk reader (what `lexicon build` uses) gives the same words
    assert words_of(compile_recipe(load_recipe(house))) == words_of(home)


def test_the_manifest_says_which_filter_was_off_and_why(tmp_path):
    tournament, house = _recipes(tmp_path)
    _, tour_manifest = build(load_recipe(tournament), tmp_path / "out")
    _, house_manifest = build(load_recipe(house), tmp_path / "out")
    m = artifact.read_manifest(house_manifest)
    assert m["filters_off"] == {"capitalised": WHY}
    assert m["profile"]["drop_capitals"] is False and "capitalised" not in m["rejected"]
    tour = artifact.read_manifest(tour_manifest)
    assert "filters_off" not in tour and tour["profile"]["drop_capitals"] is True
    lex = artifact.load(house_manifest)
    assert lex.house and lex.filters_off == {"capitalised": WHY}
    assert lex.summary()["filters_off"] == {"capitalised": WHY}
    assert not artifact.load(tour_manifest).house
    assert "filters_off" not in artifact.load(tour_manifest).summary()


def test_the_build_report_says_which_filter_was_off_and_why(tmp_path, capsys):
    tournament, house = _recipes(tmp_path)
    assert main(["build", "-q", str(tournament), str(house), "--out", str(tmp_path / "o")]) == 0
    out, err = capsys.readouterr()
    head, tour_row, house_row = out.splitlines()
    column = head.split().index("rej:capitalised")
    assert tour_row.split()[column] == "5" and house_row.split()[column] == "off"
    assert (
        f"house: a house build (no tournament ruleset may use it): filter 'capitalised' off: {WHY}"
        in err
    )
    assert "tour: a house build" not in err


@pytest.mark.parametrize(
    "table, message",
    [
        ('too-long = "wide boards"', "filter 'too-long' cannot be turned off; only: capitalised"),
        ('capitalised = ""', "filters_off.capitalised must say why it is off"),
        ("capitalised = true", "filters_off.capitalised must say why it is off"),
    ],
)
def test_a_filter_off_is_named_and_explained_or_refused_with_its_line(tmp_path, table, message):
    recipe = write_recipe(
        tmp_path, [{"name": "a.txt", "text": "ord\n"}], extra=f"\n[filters_off]\n{table}\n"
    )
    with pytest.raises(LexiconError) as info:
        load_recipe(recipe)
    assert message in str(info.value)
    assert recipe.read_text().splitlines()[info.value.line - 1] == table


def test_filters_off_must_be_a_table(tmp_path):
    recipe = write_recipe(
        tmp_path, [{"name": "a.txt", "text": "ord\n"}], extra='filters_off = "capitalised"'
    )
    with pytest.raises(LexiconError, match="'filters_off' must be a table"):
        load_recipe(recipe)


def test_the_bundled_house_recipe_is_wdanish_with_only_the_capitals_filter_off():
    """Same source, same language, every filter as the tournament list's but the one 004
    names; no other bundled recipe turns a filter off."""
    house = load_recipe(SOURCES / "wdanish-egennavne.toml")
    base = load_recipe(SOURCES / "wdanish.toml")
    same = lambda recipe: [(s.path, s.format, s.encoding) for s in recipe.sources]  # noqa: E731
    assert same(house) == same(base) and house.language == base.language
    ((name, why),) = house.filters_off
    assert name == "capitalised" and why.startswith("004 Almindelige varianter")
    assert house.filters_off and not base.filters_off
    others = [p for p in SOURCES.glob("*.toml") if p.name != "wdanish-egennavne.toml"]
    assert others and not any("filters_off" in tomllib.loads(p.read_text()) for p in others)
