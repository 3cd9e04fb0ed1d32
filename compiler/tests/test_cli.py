"""Each `lexicon` subcommand through `compiler.cli.main`."""

from __future__ import annotations

import json

import pytest

from compiler.cli import main
from compiler.tests.conftest import write_recipe


@pytest.fixture
def recipes(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    old = write_recipe(
        src, [{"name": "a.txt", "text": "hus\nbåt\nEKG\nc/o\nmüsli\n"}], lexicon_id="old"
    )
    new = write_recipe(
        src, [{"name": "b.txt", "text": "hus\nsol\nkreti och pleti\n"}], lexicon_id="new"
    )
    return old, new


def test_build_prints_summary_table(tmp_path, recipes, capsys):
    out = tmp_path / "out"
    assert main(["build", *map(str, recipes), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    head = lines[0].split()
    assert head[:4] == ["lexicon", "entries", "kept", "words"]
    assert {"rej:capitalised", "rej:non-letter", "rej:phrase", "need-blank", "seconds"} <= set(head)
    row = dict(zip(head, lines[1].split(), strict=True))
    assert (row["lexicon"], row["entries"], row["kept"], row["words"]) == ("old", "5", "3", "3")
    assert (row["rej:capitalised"], row["rej:non-letter"], row["rej:phrase"]) == ("1", "1", "0")
    assert row["need-blank"] == "1"
    assert "wrote" in captured.err and sorted(p.name for p in out.iterdir()) == [
        "new.json",
        "new.marisa",
        "old.json",
        "old.marisa",
    ]


def test_build_reports_auto_encoding(tmp_path, capsys):
    recipe = write_recipe(
        tmp_path, [{"name": "a.txt", "data": "båt\n".encode("latin-1"), "encoding": "auto"}]
    )
    assert main(["build", str(recipe), "--out", str(tmp_path / "out")]) == 0
    assert "encoding auto: read as latin-1" in capsys.readouterr().err


def test_rejected_tsv(recipes, capsys):
    assert main(["rejected", str(recipes[0])]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "file\tline\tentry\treason\tdetail",
        "a.txt\t3\tEKG\tcapitalised\t'E'",
        "a.txt\t4\tc/o\tnon-letter\t'/'",
    ]


def test_rejected_to_file(tmp_path, recipes, capsys):
    out = tmp_path / "r.tsv"
    assert main(["rejected", str(recipes[1]), "--out", str(out)]) == 0
    assert out.read_text().splitlines()[1] == "b.txt\t3\tkreti och pleti\tphrase\t' '"
    assert "1 dropped entries" in capsys.readouterr().err


def test_diff(tmp_path, recipes, capsys):
    out = tmp_path / "out"
    main(["build", "-q", *map(str, recipes), "--out", str(out)])
    capsys.readouterr()
    assert main(["diff", str(out / "old.json"), str(out / "new.json")]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["-BÅT", "-MÜSLI", "+SOL"]
    assert "2 removed" in captured.err and "1 added" in captured.err


def test_lookup(tmp_path, recipes, capsys):
    out = tmp_path / "out"
    main(["build", "-q", str(recipes[0]), "--out", str(out)])
    capsys.readouterr()
    assert main(["lookup", str(out / "old.json"), "Båt", "müsli", "sol", "c/o"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "Båt\tBÅT\tvalid",
        "müsli\tMÜSLI\tvalid (needs 1 blank)",
        "sol\tSOL\tinvalid",
        "c/o\t-\tnot a word form: non-letter '/'",
    ]


def test_lookup_exit_status_scripts_can_use(tmp_path, recipes, capsys):
    out = tmp_path / "out"
    main(["build", "-q", str(recipes[0]), "--out", str(out)])
    manifest = str(out / "old.json")
    assert main(["lookup", manifest, "Båt", "müsli"]) == 0  # all valid
    assert main(["lookup", manifest, "Båt", "sol"]) == 1  # one invalid
    assert main(["lookup", manifest, "c/o"]) == 1  # not a word form is not valid either
    assert main(["lookup", str(out / "missing.json"), "Båt"]) == 2  # an error
    assert "missing.json" in capsys.readouterr().err


def test_verify(tmp_path, recipes, capsys):
    out = tmp_path / "out"
    main(["build", "-q", str(recipes[0]), "--out", str(out)])
    capsys.readouterr()
    assert main(["verify", str(out / "old.json")]) == 0
    assert capsys.readouterr().out.startswith("ok  old  3 words  sha256 ")
    (out / "old.marisa").write_bytes(b"x")
    assert main(["verify", str(out / "old.marisa")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"lexicon: error: {out / 'old.marisa'}: checksum mismatch")
    assert "Traceback" not in err


def test_errors_exit_2_with_file_and_line(tmp_path, capsys):
    recipe = write_recipe(
        tmp_path, [{"name": "a.txt", "data": b"ord\n\xff\xfe\n", "encoding": "utf-8"}]
    )
    assert main(["build", str(recipe), "--out", str(tmp_path / "out")]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"lexicon: error: {tmp_path / 'a.txt'}:2: bytes ff fe")
    assert "Traceback" not in captured.err and not (tmp_path / "out").exists()


def test_recipe_error_exit_2(tmp_path, capsys):
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "text": "ord\n", "format": "xml"}])
    assert main(["build", str(recipe), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    line = recipe.read_text().splitlines().index('format = "xml"') + 1
    assert err.startswith(f"lexicon: error: {recipe}:{line}: unknown format 'xml'")


def test_os_error_exit_2(tmp_path, recipes, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["build", str(recipes[0]), "--out", str(blocker / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lexicon: error: ") and "Traceback" not in err


def test_lookup_on_a_file_that_is_not_a_manifest_says_so(tmp_path, capsys):
    words = tmp_path / "words.txt"
    words.write_text("båt\n", encoding="utf-8")
    assert main(["lookup", str(words), "Båt"]) == 2
    err = capsys.readouterr().err
    assert str(words) in err and "not a compiled lexicon" in err, err
    assert "words.txt.json" not in err


def test_diff_warns_when_the_builds_are_different_languages(tmp_path, capsys):
    sv = write_recipe(tmp_path, [{"name": "sv.txt", "text": "båt\nsol\n"}], lexicon_id="sv")
    da = write_recipe(
        tmp_path, [{"name": "da.txt", "text": "sol\nø\n"}], lexicon_id="da", language="da"
    )
    out = tmp_path / "out"
    main(["build", "-q", str(sv), str(da), "--out", str(out)])
    capsys.readouterr()
    assert main(["diff", str(out / "sv.json"), str(out / "da.json")]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "Swedish (sv)" in err and "Danish (da)" in err, err
    main(["diff", str(out / "sv.json"), str(out / "sv.json")])
    assert "warning" not in capsys.readouterr().err


def test_a_manifest_names_the_compiler_version_that_lexicon_version_prints(tmp_path, capsys):
    """One version: the manifest's `compiler.version` is what `lexicon --version` says."""
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "text": "hus\n"}])
    main(["build", "-q", str(recipe), "--out", str(tmp_path / "out")])
    with pytest.raises(SystemExit):
        main(["--version"])
    printed = capsys.readouterr().out.split()[-1]
    manifest = json.loads((tmp_path / "out" / "t.json").read_text("utf-8"))
    assert manifest["compiler"]["version"] == printed


@pytest.fixture
def danish(tmp_path):
    """A Danish list with folded entries, lengths out of range and a word no tile set plays:
    W is blank-only in Danish, so WOWWOW needs 4 blanks of the set's 2."""
    text = "café\ncrème\nnaïv\nhus\nwowwow\nå\n" + "a" * 16 + "\n"
    return write_recipe(tmp_path, [{"name": "a.txt", "text": text}], language="da")


def test_the_build_report_counts_what_it_folded_and_what_cannot_be_played(tmp_path, danish, capsys):
    out = tmp_path / "out"
    assert main(["build", str(danish), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    head, row = (line.split() for line in captured.out.splitlines())
    row = dict(zip(head, row, strict=True))
    assert (row["words"], row["folded"], row["unplayable"]) == ("5", "3", "1")
    assert (row["rej:too-short"], row["rej:too-long"]) == ("1", "1")
    assert "t: 1 word needs more blanks than the tile set's 2 and cannot be played" in captured.err
    assert ": WOWWOW (4)" in captured.err
    manifest = json.loads((out / "t.json").read_text("utf-8"))
    assert (manifest["folded"], manifest["unplayable"]) == (3, 1)
    main(["build", "-q", str(danish), "--out", str(out)])
    assert "WOWWOW (4)" in capsys.readouterr().err  # said even when quiet


def test_folded_lists_each_folded_entry_with_the_word_it_became(tmp_path, danish, capsys):
    assert main(["folded", str(danish)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "file\tline\tentry\tword",
        "a.txt\t1\tcafé\tCAFE",
        "a.txt\t2\tcrème\tCREME",
        "a.txt\t3\tnaïv\tNAIV",
    ]
    tsv = tmp_path / "folded.tsv"
    assert main(["folded", str(danish), "--out", str(tsv)]) == 0
    assert len(tsv.read_text("utf-8").splitlines()) == 4
    assert "3 folded entries written to" in capsys.readouterr().err


def test_rejected_rows_give_the_length_of_too_short_and_too_long_entries(danish, capsys):
    assert main(["rejected", str(danish)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "a.txt\t6\tå\ttoo-short\t1 letter; at least 2",
        "a.txt\t7\t" + "a" * 16 + "\ttoo-long\t16 letters; at most 15",
    ]


def test_lookup_flags_a_word_that_needs_more_blanks_than_the_set_has(tmp_path, danish, capsys):
    main(["build", "-q", str(danish), "--out", str(tmp_path / "out")])
    capsys.readouterr()
    assert main(["lookup", str(tmp_path / "out" / "t.json"), "wowwow", "café"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "wowwow\tWOWWOW\tvalid (needs 4 blanks; the tile set has 2: it cannot be played)",
        "café\tCAFE\tvalid",
    ]


def test_a_ctrl_c_during_a_command_is_one_line_and_status_130(recipes, monkeypatch, capsys):
    """What the shared runner (lexicon.console.run_handler) does for `lexicon`: a Ctrl-C while
    a build runs is one line, exit 130; a bug is not worded as bad input, it raises."""
    import compiler.cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(compiler.cli, "build", interrupted)
    assert main(["build", str(recipes[0]), "--out", "out"]) == 130
    assert capsys.readouterr().err == "lexicon: interrupted; no partial artifact was left behind\n"

    def bug(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(compiler.cli, "build", bug)
    with pytest.raises(RuntimeError):
        main(["build", str(recipes[0]), "--out", "out"])
