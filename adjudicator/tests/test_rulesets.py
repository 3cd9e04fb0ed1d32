"""Ruleset files: the bundled ones load, a deployment's directory overrides, bad files are named."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from adjudicator.rulesets import RulesetFileError, bundled_files, load_rulesets

from .source_sections import citations, problem

REPO = Path(__file__).resolve().parents[2]

BUNDLED = {
    "dsf-2015",
    "ssf-1999",
    "sbnl-punten",
    "dk-home",
    "dk-home-egennavne",
    "naspa",
    "naspa-collins",
    "wespa",
}


def test_bundled_rulesets_load():
    rulesets = load_rulesets()
    assert set(rulesets) == BUNDLED
    assert rulesets["ssf-1999"].disclosure.policy == "play"  # 002: never which word failed
    assert (
        rulesets["dsf-2015"].disclosure.policy == "word"
    )  # 000 §4.6c: the challenger may look it up
    assert rulesets["sbnl-punten"].pass_.allowed is False  # 003


def test_consequences_follow_rules_md_section_5():
    r = load_rulesets()
    assert r["ssf-1999"].consequence(True, 2)["points"] == 10
    assert r["wespa"].consequence(True, 3) == {
        "kind": "player_bonus_per_word",
        "points": 15,
        "text": {"en": "The player who made the play gets 5 points for each word challenged."},
    }
    # 003: a jury query before placement costs nothing; the penalty is for a word placed
    assert r["sbnl-punten"].consequence(False, 1)["kind"] == "none"
    assert r["sbnl-punten"].if_placed()["kind"] == "turn_score_plus_penalty"
    assert r["sbnl-punten"].if_placed()["points"] == 20
    assert r["dsf-2015"].consequence(True, 1)["kind"] == "challenger_loses_turn"


def _copy(tmp_path, ruleset_id):
    src = next(p for p in bundled_files() if p.stem == ruleset_id)
    dst = tmp_path / src.name
    shutil.copy(src, dst)
    return dst


def test_config_directory_overrides_and_adds(tmp_path):
    text = _copy(tmp_path, "naspa").read_text(encoding="utf-8")
    (tmp_path / "naspa.toml").write_text(text.replace('policy = "play"', 'policy = "word"'))
    (tmp_path / "club-night.toml").write_text(text.replace('id = "naspa"', 'id = "club-night"'))
    (tmp_path / "lexicons.toml").write_text('dsf-2015 = "ro2012-dsf"\n')
    rulesets = load_rulesets(tmp_path)
    assert rulesets["naspa"].disclosure.policy == "word"
    assert rulesets["club-night"].disclosure.policy == "play"
    assert rulesets["dsf-2015"].lexicon == "ro2012-dsf"


@pytest.mark.parametrize(
    "old, new, field",
    [
        ('policy = "play"', 'policy = "some"', "disclosure.policy"),
        ("max_words = 8", "max_words = 9", "challenge.max_words"),
        ("max_words = 8", 'max_words = "8"', "challenge.max_words"),
        ("min_bag = 7", "min_bag = -1", "exchange.min_bag"),
        ("min_bag = 7", "min_bag = 7\nmax_bag = 3", "exchange.max_bag"),
        ('kind = "play_withdrawn"', 'kind = "explode"', "challenge.invalid.kind"),
        ('lexicon = "wamerican-huge"\n', "", "lexicon"),
    ],
)
def test_invalid_ruleset_names_file_and_field(tmp_path, old, new, field):
    path = _copy(tmp_path, "naspa")
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesetFileError) as info:
        load_rulesets(tmp_path)
    assert info.value.field == field
    assert "naspa.toml" in str(info.value) and field in str(info.value)


def test_draw_reading_and_given_winner_are_ruleset_data(tmp_path):
    """docs/rules.md §12: which end of the alphabet wins the draw (`draw.nearest`), whether a
    request may ask for the other one, and whether a winner drawn otherwise may be given."""
    path = _copy(tmp_path, "naspa")
    text = path.read_text(encoding="utf-8")
    old = 'blank = "beats_all"'
    assert old in text
    extra = 'nearest = "end"\nnearest_option = true\ngiven_winner_option = true'
    path.write_text(text.replace(old, f"{old}\n{extra}", 1), encoding="utf-8")
    draw = load_rulesets(tmp_path)["naspa"].draw
    assert (draw.nearest, draw.nearest_option, draw.given_winner_option) == ("end", True, True)
    path.write_text(text.replace(old, f'{old}\nnearest = "middle"', 1), encoding="utf-8")
    with pytest.raises(RulesetFileError, match="start, end") as info:
        load_rulesets(tmp_path)
    assert info.value.field == "draw.nearest"


def test_broken_toml_and_misnamed_file(tmp_path):
    (tmp_path / "bad.toml").write_text("id = \n")
    with pytest.raises(RulesetFileError, match="bad.toml"):
        load_rulesets(tmp_path)
    (tmp_path / "bad.toml").unlink()
    path = _copy(tmp_path, "wespa")
    path.rename(tmp_path / "other.toml")
    with pytest.raises(RulesetFileError, match="other.toml.*'id'"):
        load_rulesets(tmp_path)


def test_lexicon_map_must_name_a_ruleset(tmp_path):
    (tmp_path / "lexicons.toml").write_text('nope = "x"\n')
    with pytest.raises(RulesetFileError, match="nope"):
        load_rulesets(tmp_path)


def test_every_bundled_file_is_valid_toml_with_matching_id():
    for path in bundled_files():
        assert tomllib.loads(path.read_text(encoding="utf-8"))["id"] == path.stem


SOURCED_FILES = [*bundled_files(), *sorted((REPO / "lexicon_sources" / "languages").glob("*.toml"))]


@pytest.mark.parametrize("path", SOURCED_FILES, ids=lambda p: p.name)
def test_every_citation_names_a_section_its_document_has(path):
    """Every `00N …` in a ruleset or language profile (its `source` fields and its comments)
    names a section or heading that document has (tests/source_sections.py)."""
    found = list(citations(path.read_text("utf-8")))
    wrong = [f"{n} {c}: {why}" for n, c in found if (why := problem(n, c))]
    assert wrong == []


def test_the_citation_check_catches_what_it_should():
    text = "000 §4.7b, §4.6d; 000 §3.3a-c; 000 §4.9a; 000 §4.7e; 004 Pointgivning; 002 Grunder"
    assert [problem(n, c) for n, c in citations(text)] == [
        None,
        None,
        None,
        "000 has no section 4.9",
        "000 §4.7 has paragraphs abc, not §4.7e",
        None,
        "002 has no heading that begins 'Grunder'",
    ]


def test_dk_home_cites_where_its_rules_are():
    """004 puts going out, six scoreless turns and the rack adjustments under "Pointgivning"
    ("Spillets afslutning" has the point target and ties); a failed challenge costing the turn
    is DSF's 000 §4.6d, since 004 only names the free-challenge variant."""
    ruleset = load_rulesets()["dk-home"]
    for section in (ruleset.end, ruleset.final):
        assert section.source.startswith("004 Pointgivning")
        assert "Spillets afslutning" in section.source
    assert ruleset.challenge.source.startswith("000 §4.6d")
    assert "004 Almindelige varianter" in ruleset.challenge.source


def test_no_profile_cites_dsf_for_proper_names():
    """DSF 2015 says nothing of proper names (it leaves them to its reading guide, which is not
    among the sources: docs/rules.md §4.2); no line about them may cite a DSF section."""
    for path in SOURCED_FILES:
        for line in path.read_text("utf-8").splitlines():
            if "proper name" in line.casefold():
                assert not any(n == "000" and c for n, c in citations(line)), (path.name, line)


def test_dk_home_player_count_cites_what_004_says_and_no_more():
    """004 Pointgivning ("den, der gik ud, lægger summen af alle andres rester til") speaks of
    more than two players and names no maximum: the four of `dk-home` is the project's limit,
    and its source says so instead of citing 004 for four."""
    home = load_rulesets()["dk-home"]
    assert home.max_players == 4
    assert home.players_source.startswith("004 Pointgivning")
    assert "no maximum" in home.players_source and "project" in home.players_source
    assert [c for c in citations(home.players_source) if problem(*c)] == []
    assert all(r.players_source == "" for r in load_rulesets().values() if r.max_players == 2)
