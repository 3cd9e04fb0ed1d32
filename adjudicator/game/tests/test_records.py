"""Every public record (engine/tests/records/) replays under the ruleset RECORDS.md maps it to."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.cli import main
from adjudicator.engine.tests.corpus import RECORDS, gcg_files
from adjudicator.game.gcg import read
from adjudicator.game.walk import walk

from .helpers import profile, rules

TABLE = Path(__file__).resolve().parents[1] / "RECORDS.md"


def mapping() -> dict[str, str]:
    rows = re.findall(r"^\| `([^`]+\.gcg)` \|[^|]*\| (`[^`]+`|—) \|", TABLE.read_text(), re.M)
    return {name: ruleset.strip("`") for name, ruleset in rows}


def test_the_table_covers_every_record():
    assert set(mapping()) == {p.name for p in gcg_files()}


@pytest.mark.parametrize("name, ruleset", sorted(mapping().items()))
def test_record_replays_under_its_ruleset(name, ruleset, capsys):
    code = main(
        [
            "replay",
            str(RECORDS / name),
            "--no-lexicon",
            "--ruleset",
            ruleset if ruleset != "—" else "naspa",
        ]
    )
    out = capsys.readouterr()
    if ruleset == "—":
        assert code == 2 and "adjudicator replay" in out.err
    else:
        assert code == 0, out.out
        assert "0 rule deviation(s)" in out.out


@pytest.mark.parametrize(
    "name, ruleset, expected",
    [
        ("capp.gcg", "wespa", "gains 1× ENOR (4) = +4, not +8"),
        ("capp.gcg", "naspa", "a challenge bonus of +5"),
        ("fivepoint.gcg", "naspa", "gains 2× T (1) = +2, not +1"),
        ("boys1.gcg", "wespa", "the end-of-game line for Quackle is missing"),
    ],
)
def test_wrong_ruleset_shows_as_rule_deviations(name, ruleset, expected):
    v = walk(read(RECORDS / name), rules(ruleset), profile(ruleset))
    found = [d for c in v.turns for d in c.deviations] + v.deviations_at_end
    assert any(expected in d for d in found), found
    # the end line's score follows the ruleset: it is the only score that may differ
    assert all(t.kind == "end-rack" for t in v.turns if not t.ok)


def test_final_results_of_real_records():
    v = walk(read(RECORDS / "combined_low_scoring.gcg"), rules("naspa"), profile("naspa"))
    assert v.ended == "scoreless" and v.final_scores == {"Marlon_Hill": -6, "Ben_Schoenbrun": -16}
    assert v.winner == "Marlon_Hill"
    v = walk(read(RECORDS / "issue_476.gcg"), rules("naspa"), profile("naspa"))
    assert v.went_out == "BestBot" and v.winner == "BestBot"
    v = walk(read(RECORDS / "many_challenges.gcg"), rules("naspa-collins"), profile("naspa"))
    bonuses = [c for c in v.challenges if c["consequence"] == "player_bonus_per_word"]
    assert [c["points"] for c in bonuses][:2] == [10, 5]
