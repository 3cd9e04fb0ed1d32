"""Odd input on the command line (issue 35, break 6): every sub-command of both CLIs, taken from
their argparse parsers, run with each of a table of odd arguments in each of its places; none
may end in a traceback. Bad input is one line naming it, and exit 2.

The commands run in this process (`main(argv)`), against a scratch instance (store, run
directory, lexicons), in a scratch folder; `os.execve` and `os.kill` are refused, so that no
odd input may start a server or signal a process."""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Callable, Iterator

import pytest

from adjudicator.cli import build_parser as adjudicator_parser
from adjudicator.cli import main as adjudicator_main
from compiler.cli import main as lexicon_main
from compiler.cli import parser as lexicon_parser

HUGE = "9" * 23


def odd_values(tmp_path) -> dict[str, str]:
    """The table: a name for the report, the argument."""
    not_utf8 = tmp_path / "not-utf8.txt"
    not_utf8.write_bytes(b"\xff\xfe\x80 caf\xe9\n#player1 A \xff\n")
    folder = tmp_path / "a-folder"
    folder.mkdir(exist_ok=True)
    return {
        "huge": HUGE,
        "huge-negative": "-" + HUGE,
        "negative": "-1",
        "zero": "0",
        "empty": "",
        "blank": " ",
        "dash": "-",
        "dev-null": "/dev/null",
        "not-utf8-file": str(not_utf8),
        "folder": str(folder),
        "missing": str(tmp_path / "missing" / "file"),
        "far-past": "0001-01-01T00:00:00+14:00",
        "far-future": "9999-12-31T23:59:59-14:00",
        "nan": "nan",
        "inf": "inf",
        "long": "x" * 5000,
        "undecodable-argv": os.fsdecode(b"\xff\xfe"),
        "control": "a\x1b[2Jb",
    }


def leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator:
    """(command path, parser) for every sub-command that runs something."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
        return
    for action in subs:
        for name, child in action.choices.items():
            yield from leaves(child, (*path, name))


def slots(parser: argparse.ArgumentParser) -> tuple[list[argparse.Action], list[argparse.Action]]:
    """Its positionals, and its options that take a value."""
    positionals, options = [], []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._VersionAction):
            continue
        if not action.option_strings:
            positionals.append(action)
        elif action.nargs != 0:
            options.append(action)
    return positionals, options


def argvs(path: tuple[str, ...], parser: argparse.ArgumentParser, value: str) -> Iterator:
    """The command with `value` in every positional place, then with it in each option too."""
    positionals, options = slots(parser)
    base = [*path, *(value for _ in positionals)]
    if positionals:  # else the command as it is, with no odd value
        yield base
    for option in options:
        yield [*base, option.option_strings[-1], value]


CLIS: dict[str, tuple[Callable[[], argparse.ArgumentParser], Callable[[list[str]], int]]] = {
    "adjudicator": (adjudicator_parser, adjudicator_main),
    "lexicon": (lexicon_parser, lexicon_main),
}


class Refused(Exception):
    """A command that got as far as starting or signalling a process."""


# What a command may take and go on with: `serve` starts (here: gets as far as exec) with a host
# name that is only a word, or an existing (empty) folder of lexicons.
ACCEPTED = {
    ("serve", "--bind"): {"nan", "inf"},
    ("serve", "--lexicon-dir"): {"folder"},
}


def shown(argv: list[str]) -> str:
    return repr([a if len(a) < 60 else a[:20] + "…" for a in argv])


@pytest.fixture
def scratch(tmp_path, monkeypatch, lexicon_dir):
    """A scratch instance: its store migrated, its lexicons, no process to signal or become."""
    monkeypatch.chdir(tmp_path)
    for name in [k for k in os.environ if k.startswith("ADJUDICATOR_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("ADJUDICATOR_INSTANCE_DIR", str(tmp_path / "instance"))
    monkeypatch.setenv("ADJUDICATOR_DATABASE_URL", f"sqlite:///{tmp_path / 'scratch.db'}")
    monkeypatch.setenv("ADJUDICATOR_LEXICON_DIR", str(lexicon_dir))
    monkeypatch.setenv("ADJUDICATOR_RUN_DIR", str(tmp_path / "run"))

    def refused(*args, **kwargs):
        raise Refused(f"odd input got as far as {args[0]!r}")

    monkeypatch.setattr(os, "execve", refused)
    monkeypatch.setattr(os, "kill", refused)
    assert adjudicator_main(["db", "upgrade"]) == 0
    return tmp_path


def run(main: Callable[[list[str]], int], argv: list[str], monkeypatch) -> tuple[int, str]:
    """The exit status and standard error of one command; a traceback fails the test."""
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: usage, then one line naming the argument
        code = exc.code if isinstance(exc.code, int) else 2
    except Exception as exc:  # noqa: BLE001 (what the test is here to find)
        return -1, f"Traceback: {type(exc).__name__}: {exc}"
    return code, err.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("cli", sorted(CLIS))
def test_no_odd_argument_ends_in_a_traceback(cli, scratch, monkeypatch):
    build, main = CLIS[cli]
    values = odd_values(scratch)
    commands = list(leaves(build()))
    assert len(commands) > 5
    failures = []
    for path, parser in commands:
        for name, value in values.items():
            for argv in argvs(path, parser, value):
                with monkeypatch.context() as m:
                    code, err = run(main, argv, m)
                if "Refused:" in err and name in ACCEPTED.get(tuple(argv[:1] + argv[-2:-1]), ()):
                    continue
                if "Traceback" in err:
                    failures.append(f"{shown(argv)} ({name}): {err.strip()[-200:]}")
                elif code not in (0, 1, 2):
                    failures.append(f"{shown(argv)} ({name}): exit {code}")
                elif code == 2 and not err.strip():
                    failures.append(f"{shown(argv)} ({name}): exit 2 without a word why")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:60])


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["audit", "prune", "--before", "0001-01-01T00:00:00+14:00"], "0001-01-01T00:00:00+14:00"),
        (["devices", "revoke", HUGE], HUGE),
        (["replay", "/dev/null"], "/dev/null"),
    ],
)
def test_the_reported_commands_name_their_odd_input(scratch, monkeypatch, argv, named):
    with monkeypatch.context() as m:
        code, err = run(adjudicator_main, argv, m)
    assert code == 2 and "Traceback" not in err, err
    last = err.strip().splitlines()[-1]
    assert named in last, err
