"""What both command lines (`lexicon`, `adjudicator`) share: `--version`, and a quiet exit when
the reader of standard output goes away (`adjudicator replay --json | head`)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from lexicon import __version__

EXIT_CLOSED_PIPE = 141  # what a shell reports for a process ended by SIGPIPE (128 + 13)


def add_version(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",
        help="print the version and exit",
    )


def closed_pipe_safe(run: Callable[[], int]) -> int:
    """Run a command; if the reader closed the pipe, stop writing and exit without a traceback.

    Standard output is flushed here, inside the guard, and then pointed at /dev/null so that the
    interpreter's own flush at exit does not raise again (the recipe in Python's signal docs).
    """
    try:
        code = run()
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_CLOSED_PIPE
