"""Every play in every public record (tests/records/) reproduces its recorded score."""

from __future__ import annotations

import pytest

from adjudicator.engine.tests.corpus import RECORDS, gcg_files
from adjudicator.game.gcg import GcgError, UnsupportedLanguage, read, resolve_language
from adjudicator.game.walk import walk
from lexicon.languages import available_languages, load_profile

from .helpers import rules
from .test_records import mapping

REFUSED = {
    "polish_endgame.gcg": (UnsupportedLanguage, r"polish_endgame\.gcg:6: the record is in Polish"),
    "name_weird_encoding_with_header.gcg": (GcgError, r":1: character encoding 'ISO8859-6'"),
}


def _turn_params() -> list:
    params = []
    for path in gcg_files():
        if path.name in REFUSED:
            continue
        record = read(path)
        profile = load_profile(resolve_language(record, "en", available_languages()))
        report = walk(record, rules(mapping()[path.name]), profile)
        for turn in report.turns:
            params.append(pytest.param(report, turn, id=f"{path.name}:{turn.line}"))
    return params


@pytest.mark.parametrize("report, turn", _turn_params())
def test_turn_reproduces_recorded_score(report, turn):
    assert turn.errors == []
    assert turn.score_ok, f"{turn.move}: recorded {turn.recorded_score}, got {turn.computed_score}"
    assert turn.total_ok
    if turn.kind == "play":
        assert turn.computed_score == turn.recorded_score


def test_final_totals_agree():
    for path in (p for p in gcg_files() if p.name not in REFUSED):
        report = walk(read(path), rules(mapping()[path.name]), load_profile("en"))
        assert report.scores_ok and report.recorded_totals == report.computed_totals, path.name


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_records_say_why(name):
    path = RECORDS / name
    kind, message = REFUSED[name]
    with pytest.raises(kind, match=message):
        resolve_language(read(path), "en", available_languages())
