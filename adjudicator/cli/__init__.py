"""`adjudicator` command line. Each command registers itself in one `add_*` function, in the
module of its group.

Exit codes: 0 all good, 1 a disagreement was found, 2 bad input (never a traceback); a command
over several inputs reports each and exits with the worst.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from adjudicator.cli.accounts import add_devices, add_directors, add_keys
from adjudicator.cli.audit import add_audit
from adjudicator.cli.common import UsageError
from adjudicator.cli.db import add_db
from adjudicator.cli.labels import add_labels
from adjudicator.cli.replay import add_replay
from adjudicator.cli.serve import add_reload, add_serve
from adjudicator.settings import ConfigError
from lexicon.console import add_version, run_handler

# In the order `adjudicator --help` lists them.
COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [
    add_replay,
    add_serve,
    add_db,
    add_audit,
    add_reload,
    add_directors,
    add_devices,
    add_keys,
    add_labels,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="adjudicator",
        description="Scrabble adjudicator: the HTTP service, game records and the store",
        epilog="Exit status: 0 all good; 1 a disagreement was found; 2 bad input.",
    )
    add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run_handler(args, f"adjudicator {args.command}", _bad_input)


def _bad_input(exc: Exception) -> str | None:
    """Bad input, in the words of the part that refused it: a bad ADJUDICATOR_* value, a store
    that cannot be opened, reached or read, a ruleset file, a compiled lexicon, a director's
    name or password, a key's name or scope. One place words each for the command line (as the
    web layer maps them to problem codes), so that no command catches them only to say so."""
    from sqlalchemy.exc import SQLAlchemyError

    from adjudicator.auth.directors import AccountError
    from adjudicator.rulesets import RulesetFileError
    from adjudicator.store import StoreError, describe_error
    from lexicon.errors import LexiconError

    if isinstance(exc, SQLAlchemyError):  # the database went away, or its schema is damaged
        return f"the database failed: {describe_error(exc)}"
    configured = (ConfigError, StoreError, RulesetFileError, LexiconError)
    return str(exc) if isinstance(exc, (UsageError, *configured, AccountError)) else None
