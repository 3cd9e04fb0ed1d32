"""`adjudicator` command line. Each command registers itself in one `add_*` function, in the
module of its group.

Exit codes: 0 all good, 1 a disagreement was found, 2 bad input (never a traceback); a command
over several inputs reports each and exits with the worst.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from adjudicator.cli.accounts import add_devices, add_directors, add_keys
from adjudicator.cli.audit import add_audit
from adjudicator.cli.common import EXIT_BAD_INPUT, UsageError
from adjudicator.cli.db import add_db
from adjudicator.cli.labels import add_labels
from adjudicator.cli.replay import add_replay
from adjudicator.cli.serve import add_reload, add_serve
from adjudicator.settings import ConfigError
from lexicon.console import add_version, closed_pipe_safe

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
    return closed_pipe_safe(lambda: _run(args))


def _run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from adjudicator.store import describe_error

    try:
        return args.handler(args)
    except (UsageError, ConfigError) as exc:  # ConfigError: a bad ADJUDICATOR_* value
        print(f"adjudicator {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        raise  # an OSError too, but not an error of ours: closed_pipe_safe ends quietly
    except OSError as exc:  # a file or folder named on the line that cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"adjudicator {args.command}: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SQLAlchemyError as exc:  # the database went away, or its schema is damaged
        print(
            f"adjudicator {args.command}: the database failed: {describe_error(exc)}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
