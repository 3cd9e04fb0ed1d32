"""Recipe and source errors name file and line; encodings, compression and deltas."""

from __future__ import annotations

import codecs
import hashlib
from pathlib import Path

import pytest

from compiler.build import build, compile_recipe
from compiler.recipe import load_recipe
from compiler.tests.conftest import words_of, write_recipe
from lexicon import artifact
from lexicon.errors import LexiconError


def _error(recipe: Path) -> LexiconError:
    with pytest.raises(LexiconError) as info:
        compile_recipe(load_recipe(recipe))
    return info.value


def test_missing_recipe(tmp_path):
    with pytest.raises(LexiconError) as info:
        load_recipe(tmp_path / "nope.toml")
    assert str(info.value) == f"{tmp_path / 'nope.toml'}: recipe not found"


def test_missing_source_file_names_recipe_line(tmp_path):
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "text": "ord\n"}])
    (tmp_path / "a.txt").unlink()
    err = _error(recipe)
    assert err.file == str(recipe)
    assert recipe.read_text().splitlines()[err.line - 1] == 'path = "a.txt"'
    assert "'a.txt' not found" in str(err)


def test_unknown_recipe_key(tmp_path):
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "text": "ord\n"}], extra='colour = "red"')
    with pytest.raises(LexiconError) as info:
        load_recipe(recipe)
    assert info.value.line == 6 and "unknown recipe key 'colour'" in str(info.value)
    assert str(info.value).startswith(f"{recipe}:6: ")


def test_unknown_key_in_second_source_points_at_it(tmp_path):
    recipe = write_recipe(
        tmp_path, [{"name": "a.txt", "text": "ord\n"}, {"name": "b.txt", "text": "x\n"}]
    )
    text = recipe.read_text().replace('path = "b.txt"', 'path = "b.txt"\nweight = 2')
    recipe.write_text(text)
    with pytest.raises(LexiconError) as info:
        load_recipe(recipe)
    assert text.splitlines()[info.value.line - 1] == "weight = 2"


def test_unknown_format_points_at_its_source(tmp_path):
    recipe = write_recipe(
        tmp_path,
        [{"name": "a.txt", "text": "ord\n"}, {"name": "b.txt", "text": "ord\n", "format": "csv"}],
    )
    with pytest.raises(LexiconError) as info:
        load_recipe(recipe)
    lines = recipe.read_text().splitlines()
    assert lines[info.value.line - 1] == 'format = "csv"'
    assert info.value.line > lines.index('path = "b.txt"')
    assert "unknown format 'csv'" in str(info.value) and "plain, saol, delta" in str(info.value)


def test_invalid_utf8_names_the_line(tmp_path):
    data = b"ord\nhus\n" + "båt\n".encode("latin-1") + b"sol\n"
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "data": data, "encoding": "utf-8"}])
    err = _error(recipe)
    assert err.file.endswith("a.txt") and err.line == 3
    assert "not valid UTF-8" in str(err) and "e5" in str(err)


def test_nul_bytes_are_refused_with_line(tmp_path):
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "data": b"ord\nh\x00us\n"}])
    err = _error(recipe)
    assert err.line == 2 and "NUL byte" in str(err)


def test_utf16_file_is_refused(tmp_path):
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "data": "ord\n".encode("utf-16")}])
    assert "NUL byte" in str(_error(recipe))


def test_empty_result(tmp_path):
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "text": "# nothing\nEKG\n\n"}])
    err = _error(recipe)
    assert err.file == str(recipe) and "no words" in str(err)


def test_bad_delta_line(tmp_path):
    recipe = write_recipe(
        tmp_path,
        [
            {"name": "a.txt", "text": "ord\n"},
            {"name": "d.txt", "text": "+hus\nbåt\n", "format": "delta"},
        ],
    )
    err = _error(recipe)
    assert err.file.endswith("d.txt") and err.line == 2 and "'+word' or '-word'" in str(err)


def test_first_source_cannot_be_delta(tmp_path):
    recipe = write_recipe(tmp_path, [{"name": "d.txt", "text": "+hus\n", "format": "delta"}])
    with pytest.raises(LexiconError, match="first source cannot be a delta"):
        load_recipe(recipe)


def test_unbalanced_saol_parentheses(tmp_path):
    recipe = write_recipe(
        tmp_path, [{"name": "s.txt", "text": "ord\npär(s|titel\n", "format": "saol"}]
    )
    err = _error(recipe)
    assert err.line == 2 and "unbalanced" in str(err)


@pytest.mark.parametrize(
    "data, chosen",
    [
        ("hus\nbåt\n".encode(), "utf-8"),
        (codecs.BOM_UTF8 + "hus\nbåt\n".encode(), "utf-8-sig"),
        ("hus\nbåt\n".encode("latin-1"), "latin-1"),
    ],
)
def test_auto_encoding_reports_its_choice(tmp_path, data, chosen):
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "data": data, "encoding": "auto"}])
    result = compile_recipe(load_recipe(recipe))
    assert result.sources[0]["encoding"] == "auto"
    assert result.sources[0]["decoded_as"] == chosen
    assert words_of(result) == ["BÅT", "HUS"]


def test_latin1_declared(tmp_path):
    recipe = write_recipe(
        tmp_path, [{"name": "a.txt", "data": "båt\n".encode("latin-1"), "encoding": "latin-1"}]
    )
    assert words_of(compile_recipe(load_recipe(recipe))) == ["BÅT"]


@pytest.mark.parametrize("name", ["a.txt.gz", "a.txt.xz"])
def test_compressed_sources_read_transparently(tmp_path, name):
    recipe = write_recipe(tmp_path, [{"name": name, "text": "hus\nbåt\n"}])
    result = compile_recipe(load_recipe(recipe))
    assert words_of(result) == ["BÅT", "HUS"]
    digest = hashlib.sha256((tmp_path / name).read_bytes()).hexdigest()
    assert result.sources[0]["sha256"] == digest


def test_corrupt_compressed_source(tmp_path):
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "text": "x\n"}])
    (tmp_path / "a.txt.xz").write_bytes(b"not xz at all")
    recipe.write_text(recipe.read_text().replace('"a.txt"', '"a.txt.xz"'))
    assert "cannot decompress .xz" in str(_error(recipe))


def test_delta_applies_in_order(tmp_path):
    recipe = write_recipe(
        tmp_path,
        [
            {"name": "base.txt", "text": "hus\nbåt\nsol\n"},
            {
                "name": "d1.txt",
                "text": "# update\n+ord\n-båt\n-finns\n+båt\n-sol\n",
                "format": "delta",
            },
            {"name": "d2.txt", "text": "+sol\n-hus\n", "format": "delta"},
            {"name": "more.txt", "text": "hus\n"},
        ],
    )
    result = compile_recipe(load_recipe(recipe))
    assert words_of(result) == ["BÅT", "HUS", "ORD", "SOL"]
    d1 = result.sources[1]
    assert (d1["entries"], d1["added"], d1["removed"]) == (5, 2, 2)
    assert result.rejected_counts["delta-remove-absent"] == 1
    # Without the later plain source, HUS stays removed.
    partial = write_recipe(
        tmp_path,
        [
            {"name": "base.txt", "text": "hus\nbåt\nsol\n"},
            {"name": "d2.txt", "text": "+sol\n-hus\n", "format": "delta"},
        ],
        lexicon_id="p",
    )
    assert words_of(compile_recipe(load_recipe(partial))) == ["BÅT", "SOL"]


def test_plain_format_skips_comments_and_blank_lines(tmp_path):
    text = "# header\n\n  hus  \nbåt # a boat\r\nsol\u2028ord\n#\n"
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "text": text}])
    result = compile_recipe(load_recipe(recipe))
    assert words_of(result) == ["BÅT", "HUS", "ORD", "SOL"]
    assert result.sources[0]["entries"] == 4


def test_rejected_list_has_file_line_reason(tmp_path):
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "text": "hus\nEKG\nc/o\n"}])
    result = compile_recipe(load_recipe(recipe), keep_rejected=True)
    assert [(r.file, r.line, r.entry, r.reason, r.detail) for r in result.rejected] == [
        ("a.txt", 2, "EKG", "capitalised", "'E'"),
        ("a.txt", 3, "c/o", "non-letter", "'/'"),
    ]


def test_manifest_fields(tmp_path):
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "text": "hus\nmüsli\nEKG\nwatt\n"}])
    _, manifest_path = build(load_recipe(recipe), tmp_path / "out")
    m = artifact.read_manifest(manifest_path)
    assert (m["format"], m["format_version"]) == (artifact.FORMAT_NAME, artifact.FORMAT_VERSION)
    assert (m["id"], m["language"], m["title"], m["version"], m["license"]) == (
        "t",
        "sv",
        "test",
        "1",
        "CC0",
    )
    assert m["word_count"] == 3 and m["needs_blank"] == 2
    trie = (tmp_path / "out" / "t.marisa").read_bytes()
    assert m["marisa"]["sha256"] == hashlib.sha256(trie).hexdigest()
    (src,) = m["sources"]
    assert src["path"] == "a.txt" and src["format"] == "plain" and src["encoding"] == "utf-8"
    assert src["entries"] == 4 and len(src["sha256"]) == 64
    assert m["rejected"] == {"capitalised": 1}
    profile = m["profile"]
    assert profile["alphabet"] == "ABCDEFGHIJKLMNOPQRSTUVWXYZÅÄÖÜÆ"
    assert profile["blank_only"] == "QWÜÆ"
    assert profile["tiles"]["Z"] == {"count": 1, "value": 10}
    assert profile["folding"]["É"] == "E"
    assert sum(t["count"] for t in profile["tiles"].values()) + profile["blanks"] == 100


def test_progress_bar_on_large_sources(tmp_path, monkeypatch, capsys):
    import sys

    from compiler import build as build_module

    recipe = write_recipe(tmp_path, [{"name": "a.txt", "text": "hus\nbåt\n" * 50}])
    monkeypatch.setattr(build_module, "PROGRESS_BYTES", 100)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    result = compile_recipe(load_recipe(recipe), progress=True)
    assert result.word_count == 2
    assert "a.txt" in capsys.readouterr().err  # the bar, labelled with the source
    compile_recipe(load_recipe(recipe), progress=False)
    assert capsys.readouterr().err == ""


def test_removing_an_absent_word_is_neither_kept_nor_rejected_twice(tmp_path):
    recipe = write_recipe(
        tmp_path,
        [
            {"name": "a.txt", "text": "hus\nbil\n"},
            {"name": "d.txt", "text": "+sol\n-bil\n-zebra\n", "format": "delta"},
        ],
    )
    result = compile_recipe(load_recipe(recipe))
    delta = result.sources[1]
    assert (delta["entries"], delta["kept"], delta["added"], delta["removed"]) == (3, 2, 1, 1)
    assert result.rejected_counts == {"delta-remove-absent": 1}


def test_unknown_language_names_the_line(tmp_path):
    recipe = write_recipe(tmp_path, [{"name": "a.txt", "text": "hus\n"}])
    recipe.write_text(recipe.read_text().replace('language = "sv"', 'language = "fi"'))
    with pytest.raises(LexiconError) as info:
        compile_recipe(load_recipe(recipe))
    assert info.value.line == 2 and "'fi'" in info.value.message
