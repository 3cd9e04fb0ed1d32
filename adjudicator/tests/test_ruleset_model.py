"""One typed ruleset: the model the loader fills is the only reading of a ruleset file.

The public view served by `GET /rulesets` is pinned byte for byte (golden/public_rulesets.jsonl),
so moving from the raw TOML tables to the typed model changes nothing a client sees.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import orjson
import pytest
from pydantic import ValidationError

from adjudicator.game.rules import Rules
from adjudicator.rulesets import RulesetFileError, load_rulesets, markdown_reference

GOLDEN = Path(__file__).parent / "golden" / "public_rulesets.jsonl"
PACKAGE = Path(__file__).resolve().parents[1]
ROOT = PACKAGE.parent


def _served(client) -> bytes:
    """Each ruleset's public view as served, one JSON line each; the lexicon's own summary and
    availability (the lexicon's, not the ruleset's) are left out."""
    lines = []
    for view in client.get("/api/v1/rulesets").json["rulesets"]:
        view["available"] = False
        view["lexicon"] = {"id": view["lexicon"]["id"]}
        lines.append(orjson.dumps(view) + b"\n")
    return b"".join(lines)


def test_the_public_ruleset_view_is_unchanged(client):
    served = _served(client)
    if os.environ.get("ADJUDICATOR_REGENERATE_GOLDEN"):
        GOLDEN.write_bytes(served)
    assert served == GOLDEN.read_bytes()


def test_a_ruleset_is_read_only_through_its_typed_fields():
    """No raw table is kept beside the model: every reader uses the typed attributes (issue 28:
    `git grep '\\.data\\['` finds no ruleset read), and nothing can change a loaded ruleset."""
    ruleset = load_rulesets()["sbnl-punten"]
    assert not hasattr(ruleset, "data")
    assert isinstance(ruleset, Rules)  # the game functions take the same object
    assert (ruleset.pass_.allowed, ruleset.challenge.jury_submissions_per_player) == (False, 10)
    with pytest.raises(ValidationError):
        ruleset.challenge.mode = "challenge"  # type: ignore[misc]
    raw = re.compile(r"\.data\[|\bruleset\.data\b")  # no product code reads a table raw
    for path in sorted(PACKAGE.rglob("*.py")):
        if "tests" not in path.relative_to(PACKAGE).parts:
            assert not raw.search(path.read_text("utf-8")), f"{path.relative_to(PACKAGE)}"


def test_defaults_are_filled_once_and_the_view_shows_what_the_file_wrote(tmp_path):
    """A table without `source` takes the ruleset's id, and the optional keys their defaults;
    the public view still shows the table as written, in the file's order."""
    text = (PACKAGE / "rulesets" / "naspa.toml").read_text("utf-8")
    source = next(line for line in text.split("[exchange]")[1].splitlines() if "source" in line)
    text = text.replace(source + "\n", "", 1).replace(
        "min_bag = 7", "opening_turns = 0\nmin_bag = 7"
    )
    (tmp_path / "naspa.toml").write_text(text, encoding="utf-8")
    ruleset = load_rulesets(tmp_path)["naspa"]
    assert ruleset.exchange.source == "naspa"
    assert ruleset.exchange.later_requires_previous_placement is False
    assert ruleset.draw.tiles_go_back is True and ruleset.clock.loss_when == "more_than"
    assert ruleset.as_written("exchange") == {"opening_turns": 0, "min_bag": 7}
    assert list(ruleset.as_written("exchange")) == ["opening_turns", "min_bag"]
    assert ruleset.file == str(tmp_path / "naspa.toml")


def test_a_repointed_lexicon_keeps_the_rest(tmp_path):
    (tmp_path / "lexicons.toml").write_text('dsf-2015 = "ro2012-dsf"\n')
    bundled, moved = load_rulesets()["dsf-2015"], load_rulesets(tmp_path)["dsf-2015"]
    assert moved.lexicon == "ro2012-dsf" and moved.file == bundled.file
    assert moved.as_written("challenge") == bundled.as_written("challenge")


@pytest.mark.parametrize(
    "old, new, field, message",
    [
        ("[exchange]\n", "[exchange_]\n", "exchange_", "unknown field"),
        (
            'kind = "play_withdrawn", points = 0',
            'kind = "play_withdrawn"',
            "challenge.invalid.points",
            "missing",
        ),
        ("max_words = 8", "max_words = -1", "challenge.max_words", "must be 1 to 8"),
        ("max_words = 8", "max_words = true", "challenge.max_words", "must be int, not bool"),
        ('ties = "shared"', 'ties = "split"', "final.ties", "only 'shared' is supported"),
        (
            'valid_text = { en = "',
            'valid_text = { da = "", en = "',
            "challenge.valid_text.da",
            "must not be empty",
        ),
        ('language = "en"', 'language = "da"', "challenge.valid_text", "needs 'en' and 'da'"),
        (
            "[draw]\n",
            "[draw]\nwinner_chooses = true\n",
            "draw.choices",
            "the winner of the draw needs something to choose from",
        ),
        ("[draw]\n", '[draw]\nchoices = "x"\n', "draw.choices", "must be list, not str"),
        ("allowed = true", "allowed = 1", "pass.allowed", "must be bool, not int"),
        ('policy = "play"', 'policy = "all"', "disclosure.policy", "must be one of word, play"),
    ],
)
def test_a_bad_key_is_named_with_what_it_must_be(tmp_path, old, new, field, message):
    text = (PACKAGE / "rulesets" / "naspa.toml").read_text("utf-8")
    assert old in text
    (tmp_path / "naspa.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesetFileError) as info:
        load_rulesets(tmp_path)
    assert (info.value.field, info.value.message) == (field, message)


def test_a_missing_table_names_its_first_required_key(tmp_path):
    text = (PACKAGE / "rulesets" / "naspa.toml").read_text("utf-8")
    start = text.index("[final]")
    (tmp_path / "naspa.toml").write_text(text[:start] + text[text.index("[clock]") :])
    with pytest.raises(RulesetFileError, match="'final.own_rack_factor': missing"):
        load_rulesets(tmp_path)


def test_the_ruleset_reference_is_the_model():
    """docs/reference/rulesets.md renders `markdown_reference()` when the site is built; no page
    keeps a hand-written table of a ruleset file's keys to go stale."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import docs_hooks
    finally:
        sys.path.remove(str(ROOT / "tools"))
    page = (ROOT / "docs" / "reference" / "rulesets.md").read_text("utf-8")
    assert page.count("<!-- generated: rulesets -->") == 1
    reference = markdown_reference()
    assert docs_hooks.GENERATORS["rulesets"]() == reference
    keys = set(re.findall(r"^\| `(\w+_\w+)` \|", reference, re.M))
    assert {"min_bag", "jury_limit_applies", "shared_clock", "given_winner_option"} <= keys
    rows = re.compile(r"^\| `(" + "|".join(sorted(keys)) + r")` \|", re.M)
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        assert not rows.search(path.read_text("utf-8")), (
            f"{path.relative_to(ROOT)} keeps a table of ruleset keys by hand: link to the "
            "ruleset reference (docs/reference/rulesets.md), which is generated"
        )


def test_the_public_view_shows_every_rule_table_of_the_file(client):
    """A client reads every rule a ruleset file states, the restart (003) and the two-letter card
    (003) among them: the public tables are derived from the model, so a new table is public
    without anyone adding it to a list (it once showed six of ten)."""
    from adjudicator.catalogue import PUBLIC_TABLES
    from adjudicator.game.rules import Section
    from adjudicator.rulesets import Ruleset

    tables = {
        f.alias or n
        for n, f in Ruleset.model_fields.items()
        if isinstance(f.annotation, type) and issubclass(f.annotation, Section)
    }
    assert tables - set(PUBLIC_TABLES) == {"disclosure", "house", "editions"}
    view = client.get("/api/v1/rulesets/sbnl-punten").json
    assert view["rules"]["restart"]["after_exchanges"] == 3
    assert view["rules"]["card"] == {
        "source": "003 Verloop van het spel", "two_letter": True, "public": True
    }  # fmt: skip
