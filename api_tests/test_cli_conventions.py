"""Both command lines as scripts use them: --version, help on every option, a closed pipe."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.cli import build_parser
from api_tests.conftest import LEXICON_DIR
from compiler.cli import parser as lexicon_parser
from lexicon import __version__

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "adjudicator" / "engine" / "tests" / "records"


def _parsers(parser: argparse.ArgumentParser, name: str):
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {sub_name}")


@pytest.mark.parametrize("make", [build_parser, lexicon_parser], ids=["adjudicator", "lexicon"])
def test_every_option_and_argument_has_help(make):
    for name, parser in _parsers(make(), make().prog):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    assert choice.help, f"{name} {choice.dest}: no help"
                continue
            assert action.help and action.help != argparse.SUPPRESS, (
                f"{name} {'/'.join(action.option_strings) or action.dest}: no help"
            )


@pytest.mark.parametrize("command", ["adjudicator", "lexicon"])
def test_version(command):
    done = subprocess.run([BIN / command, "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == f"{command} {__version__}"


def test_closed_pipe_ends_quietly():
    """`adjudicator replay --json | head -1`: no traceback when head stops reading."""
    records = sorted(RECORDS.glob("*.gcg"))
    assert records
    script = (
        f"'{BIN / 'adjudicator'}' replay --no-lexicon --no-rules --json "
        + " ".join(f"'{r}'" for r in records * 3)
        + " | head -c 10"
    )
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    assert len(done.stdout) == 10
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


def test_an_audit_export_into_a_closed_pipe_ends_quietly(tmp_path):
    """`adjudicator audit export | head`: the export is longer than a pipe holds, so writing
    fails once head has gone; that is the reader's choice, not an error to report."""
    from adjudicator import create_app
    from adjudicator.store import Store, migrate

    database = f"sqlite:///{tmp_path / 'adjudicator.db'}"
    migrate.upgrade(Store(database))
    client = create_app(
        {"TESTING": True, "LEXICON_DIR": str(LEXICON_DIR), "DATABASE_URL": database}
    ).test_client()
    for i in range(150):  # about 90 KB of JSON: more than a pipe's 64 KiB
        ruled = client.post(
            "/api/v1/rulesets/ssf-1999/challenge", json={"words": ["HEJ"], "game": f"g{i}"}
        )
        assert ruled.status_code == 200
    script = f"'{BIN / 'adjudicator'}' audit export --format json --database-url '{database}'"
    done = subprocess.run(
        ["bash", "-c", f"{script} | head -c 10; exit ${{PIPESTATUS[0]}}"],
        capture_output=True,
        text=True,
    )
    assert len(done.stdout) == 10
    assert done.stderr == "" and done.returncode == 141, (done.returncode, done.stderr)
    whole = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    assert whole.returncode == 0 and whole.stderr == "150 entries exported\n", whole.stderr


def test_serve_refuses_bad_options_before_starting(tmp_path, capsys):
    from adjudicator.cli import main

    with pytest.raises(SystemExit) as exited:  # argparse: the option's bounds are the setting's
        main(["serve", "--workers", "0"])
    assert exited.value.code == 2
    assert "--workers: 0 is not from 1 to 256" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--lexicon-dir", str(tmp_path / "nowhere")])
    assert exited.value.code == 2
    assert "no such folder" in capsys.readouterr().err


@pytest.mark.parametrize("make", [build_parser, lexicon_parser], ids=["adjudicator", "lexicon"])
def test_every_sub_command_has_a_description(make):
    """`COMMAND --help` says what the command is for, not only its usage line."""
    for name, parser in _parsers(make(), make().prog):
        if " " in name:
            assert parser.description, f"{name}: no description"


@pytest.mark.parametrize(
    "argv",
    [
        ["db", "upgrade"],
        ["db", "current"],
        ["db", "heads"],
        ["audit", "verify"],
        ["audit", "export"],
    ],
)
def test_db_and_audit_actions_are_sub_commands_with_their_own_help(argv, capsys):
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args([*argv, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: adjudicator {' '.join(argv)} ")
    assert "--database" in out or argv == ["db", "heads"]
    assert ("--format" in out) == (argv == ["audit", "export"])  # only where it means something


def test_the_module_runs_as_a_script(tmp_path):
    """`python -m adjudicator.cli` is the console script: its help lists every command (no
    circular import through adjudicator.cli.accounts), and a usage error raised by a command
    defined in another module is still one line and exit 2, not a traceback."""
    script = [sys.executable, "-m", "adjudicator.cli"]
    done = subprocess.run([*script, "--help"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "directors" in done.stdout and "reload" in done.stdout
    database = f"sqlite:///{tmp_path / 'adjudicator.db'}"
    argv = ["directors", "add", "bob", "--password-stdin", "--database-url", database]
    done = subprocess.run([*script, *argv], input="", capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr == "adjudicator directors: no password on standard input\n"
