"""Fixture chain app → client, on tiny lexicons built here, so every verdict is known."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator import create_app
from compiler.build import build
from compiler.recipe import load_recipe

# Tiny word lists under the bundled lexicon ids, so the bundled rulesets resolve to them.
TEST_WORDS = {
    ("wdanish", "da"): ["hej", "café", "elguitar", "ord", "spil", "brik", "kat", "hund"],
    ("wswedish", "sv"): ["hej", "ord", "spel", "bricka", "allé", "müsli", "ögon", "tbc", "katt"],
    ("wdutch", "nl"): ["hallo", "woord", "spel", "coördinatie", "kat", "hond"],
    ("wamerican-huge", "en"): ["hello", "word", "game", "cat", "dog", "tile"],
}
# The house build of dk-home-egennavne (004 Almindelige varianter): the Danish words and proper
# names, compiled with the capitals filter off as lexicon_sources/wdanish-egennavne.toml does.
HOUSE_LEXICON = "wdanish-egennavne"
PROPER_NAMES = ["København", "Asbjørn"]
HOUSE_FILTERS = '[filters_off]\ncapitalised = "004 Almindelige varianter"\n\n'


def build_lexicon(
    out: Path,
    lexicon_id: str,
    language: str,
    words: list[str],
    extra: str = "",
    in_force: str | None = None,
) -> Path:
    """Compile `words` with the real compiler into `out/lexicons/<lexicon_id>.json`; `extra`
    goes into the recipe before its source (`HOUSE_FILTERS`); `in_force`: an edition's date
    (`in_force_from`, `YYYY-MM-DD`), its version that year."""
    src = out / "src"
    src.mkdir(parents=True, exist_ok=True)
    (src / f"{lexicon_id}.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    recipe = src / f"{lexicon_id}.toml"
    recipe.write_text(
        f'id = "{lexicon_id}"\nlanguage = "{language}"\ntitle = "Test {language}"\n'
        f'version = "{in_force[:4] if in_force else "test"}"\nlicense = "test"\nstand_in = true\n'
        + (f'in_force_from = "{in_force}"\n' if in_force else "")
        + f"\n{extra}"
        f'[[source]]\npath = "{lexicon_id}.txt"\nformat = "plain"\nencoding = "utf-8"\n',
        encoding="utf-8",
    )
    build(load_recipe(recipe), out / "lexicons")
    return out / "lexicons"


def build_test_lexicons(out: Path) -> Path:
    for (lexicon_id, language), words in TEST_WORDS.items():
        build_lexicon(out, lexicon_id, language, words)
    danish = TEST_WORDS["wdanish", "da"] + PROPER_NAMES
    build_lexicon(out, HOUSE_LEXICON, "da", danish, HOUSE_FILTERS)
    return out / "lexicons"


@pytest.fixture(scope="session")
def lexicon_dir(tmp_path_factory) -> Path:
    return build_test_lexicons(tmp_path_factory.mktemp("lexicons"))


@pytest.fixture
def app(lexicon_dir):
    return create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir)})


@pytest.fixture
def client(app):
    return app.test_client()
