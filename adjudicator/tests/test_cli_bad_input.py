"""The errors the domain raises for bad input (a ruleset file, a compiled lexicon, a store, a
director's name, a key's scope) are worded in one place for the command line
(`adjudicator.cli._bad_input`): each is one line naming what is wrong, and exit 2, whichever
command meets it. Anything else is a bug and is not dressed up as bad input."""

from __future__ import annotations

import pytest

from adjudicator.cli import main
from adjudicator.store import migrate

GAME = "#player1 ann Ann\n#player2 bob Bob\n>ann: CATSXYZ 8H CAT +10 10\n"


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "g.gcg"
    path.write_text(GAME, encoding="utf-8")
    return path


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_broken_ruleset_file(tmp_path, game, monkeypatch, capsys):
    rulesets = tmp_path / "rulesets"
    rulesets.mkdir()
    (rulesets / "mine.toml").write_text("id = [not toml\n")
    monkeypatch.setenv("ADJUDICATOR_RULESET_DIR", str(rulesets))
    assert main(["replay", str(game), "--no-lexicon"]) == 2
    assert one_line(capsys).startswith(f"adjudicator replay: {rulesets / 'mine.toml'}")


def test_a_damaged_compiled_lexicon(tmp_path, game, capsys):
    damaged = tmp_path / "lexicons"
    damaged.mkdir()
    (damaged / "wdanish.json").write_text("{not json")
    assert main(["replay", str(game), "--ruleset", "dsf-2015", "--lexicon-dir", str(damaged)]) == 2
    assert one_line(capsys).startswith("adjudicator replay: ")


def test_a_store_url_that_names_no_database(capsys):
    assert main(["db", "current", "--database-url", "nonsense://x"]) == 2
    assert one_line(capsys) == (
        "adjudicator db: ADJUDICATOR_DATABASE_URL: unsupported database 'nonsense' "
        "(use sqlite:///PATH or postgresql+psycopg://…)\n"
    )


def test_a_bug_is_not_bad_input(tmp_path, monkeypatch):
    def bug(store):
        raise RuntimeError("a bug")

    monkeypatch.setattr(migrate, "current", bug)
    with pytest.raises(RuntimeError):
        main(["db", "current", "--database-url", f"sqlite:///{tmp_path / 'a.db'}"])


def test_a_record_in_another_language_names_the_rulesets_for_it(tmp_path, capsys):
    record = tmp_path / "da.gcg"
    record.write_text(GAME.replace("#player2 bob Bob\n", "#player2 bob Bob\n#lexicon wdanish\n"))
    assert main(["replay", str(record), "--no-lexicon"]) == 2
    assert one_line(capsys) == (
        f"adjudicator replay: {record}:3: the record is in Danish (#lexicon wdanish) but the "
        "ruleset's language is English; try --ruleset dk-home (or dk-home-egennavne, dsf-2015)\n"
    )
