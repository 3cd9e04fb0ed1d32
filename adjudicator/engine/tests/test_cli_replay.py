import json

import pytest

from adjudicator.cli import main
from adjudicator.engine.tests.corpus import RECORDS, REPO

GAME = (
    "#player1 ann Ann\n#player2 bob Bob\n>ann: CATSXYZ 8H CAT +10 10\n>bob: ABCDEFG J7 A.E +3 3\n"
)


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "g.gcg"
    path.write_text(GAME, encoding="latin-1")
    return path


def test_agreeing_game_exits_0(game, capsys):
    assert main(["replay", str(game), "--no-lexicon"]) == 0
    out = capsys.readouterr().out
    assert "ann: recorded 10, computed 10: agree" in out


def test_disagreement_exits_1_and_json(game, capsys):
    game.write_text(GAME.replace("+3 3", "+4 4"), encoding="latin-1")
    assert main(["replay", str(game), "--no-lexicon", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and data["turns"][1]["computed_score"] == 3
    assert data["turns"][1]["recorded_score"] == 4 and data["turns"][0]["notation"] == "8H CAT"


def test_bad_input_exits_2_with_file_and_line(game, tmp_path, capsys):
    game.write_text(GAME + ">ann: ABC 8Z CAT +1 11\n", encoding="latin-1")
    assert main(["replay", str(game), "--no-lexicon"]) == 2
    err = capsys.readouterr().err
    assert f"{game}:5: '8Z' is not a square" in err and "Traceback" not in err
    assert main(["replay", str(tmp_path / "missing.gcg"), "--no-lexicon"]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["replay", str(game), "--ruleset", "nope"]) == 2
    assert "unknown ruleset 'nope'" in capsys.readouterr().err


def test_lexicon_dir_from_env(game, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ADJUDICATOR_LEXICON_DIR", str(tmp_path))
    assert main(["replay", str(game)]) == 2
    assert f"lexicon 'wamerican-huge' not found in {tmp_path}" in capsys.readouterr().err
    lexicons = REPO / "instance" / "lexicons"
    if not (lexicons / "wamerican-huge.json").exists():
        pytest.skip("no compiled lexicons")
    assert main(["replay", str(game), "--lexicon-dir", str(lexicons)]) == 0
    assert "i not in wamerican-huge" not in capsys.readouterr().out  # CAT and ATE are words


def test_language_mismatch_is_bad_input(capsys):
    path = RECORDS / "issue_476.gcg"
    assert main(["replay", str(path), "--ruleset", "dsf-2015", "--no-lexicon"]) == 2
    assert "in English (#lexicon NWL23) but the ruleset's language is Danish" in (
        capsys.readouterr().err
    )


def test_polish_record_is_refused(capsys):
    path = RECORDS / "polish_endgame.gcg"
    assert main(["replay", str(path), "--no-lexicon"]) == 2
    assert "polish_endgame.gcg:6: the record is in Polish" in capsys.readouterr().err


def test_many_files_each_reported_and_the_worst_exit(game, tmp_path, capsys):
    """An unreadable record is reported and the others still replayed; the exit is the worst."""
    bad = tmp_path / "bad.gcg"
    bad.write_text(GAME + ">ann: ABC 8Z CAT +1 11\n", encoding="latin-1")
    differs = tmp_path / "differs.gcg"
    differs.write_text(GAME.replace("+3 3", "+4 4"), encoding="latin-1")
    missing = tmp_path / "missing.gcg"
    files = [str(missing), str(game), str(bad), str(differs)]
    assert main(["replay", *files, "--no-lexicon", "--json"]) == 2
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert [d["file"] for d in data] == files
    assert "cannot read" in data[0]["error"] and data[1]["ok"] is True
    assert "'8Z' is not a square" in data[2]["error"] and data[3]["ok"] is False
    assert err.count("adjudicator replay: ") == 2 and "Traceback" not in err
    # text: the readable files' reports on standard output, the unreadable ones on standard error
    assert main(["replay", str(missing), str(game), "--no-lexicon"]) == 2
    out, err = capsys.readouterr()
    assert str(game) in out and f"{missing}: cannot read" in err
    # without an unreadable file, a disagreement anywhere gives 1
    assert main(["replay", str(game), str(differs), "--no-lexicon"]) == 1


def test_language_mismatch_suggests_the_rulesets_of_the_records_language(capsys):
    path = RECORDS / "issue_476.gcg"
    assert main(["replay", str(path), "--ruleset", "dsf-2015", "--no-lexicon"]) == 2
    err = capsys.readouterr().err
    assert "English" in err and "--ruleset naspa" in err, err
