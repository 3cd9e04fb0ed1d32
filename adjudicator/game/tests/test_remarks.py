"""A turn's remarks are said through `Turn.deviate`, `Turn.note` and `Turn.inform`, which make
each a catalogue sentence (`Said`); the key each call names must be in every catalogue, so that
a remark no record happens to reach cannot fail on a page."""

from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

import pytest

from adjudicator.messages import catalogue

GAME = Path(__file__).parents[1]
REMARKS = {"deviate", "note", "inform"}  # the Turn methods that say a remark
CATALOGUES = resources.files("adjudicator") / "i18n"
LANGUAGES = sorted(
    p.name.removesuffix(".json") for p in CATALOGUES.iterdir() if p.name.endswith(".json")
)


def remark_keys() -> list[tuple[str, str]]:
    """(where, key or f-string prefix) of every remark the game's modules say."""
    found = []
    for path in sorted(GAME.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            func = getattr(node, "func", None)
            if isinstance(func, ast.Attribute) and func.attr in REMARKS and node.args:
                first, where = node.args[0], f"{path.name}:{node.lineno}"
                if isinstance(first, ast.Constant):
                    found.append((where, first.value))
                elif isinstance(first, ast.JoinedStr):  # f"prefix_{x}": the prefix's keys
                    found.append((where, first.values[0].value + "*"))
                else:  # a conditional between two keys: both
                    strings = [k for k in ast.walk(first) if isinstance(k, ast.Constant)]
                    found += [(where, k.value) for k in strings if isinstance(k.value, str)]
    return found


def test_the_remarks_are_found():
    keys = [key for _, key in remark_keys()]
    assert {"record_not_your_turn", "record_game_over", "record_gains_wrong"} <= set(keys)
    assert len(keys) > 40


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_remark_is_a_catalogue_sentence(lang):
    keys = set(catalogue(lang))
    missing = [
        f"{where}: {key}"
        for where, key in remark_keys()
        if not (any(k.startswith(key[:-1]) for k in keys) if key.endswith("*") else key in keys)
    ]
    assert missing == []
