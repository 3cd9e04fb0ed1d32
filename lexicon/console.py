"""What both command lines (`lexicon`, `adjudicator`) share: `--version`, a quiet exit when
the reader of standard output goes away (`adjudicator replay --json | head`), and a Ctrl-C that
is never lost nor answered with a traceback (`run_command`)."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
from collections.abc import Callable
from datetime import date

from lexicon import __version__

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # what a shell reports for a process ended by SIGINT (128 + 2)
EXIT_CLOSED_PIPE = 141  # what a shell reports for a process ended by SIGPIPE (128 + 13)


def add_version(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",
        help="print the version and exit",
    )


def run_handler(
    args: argparse.Namespace,
    prog: str,
    bad_input: Callable[[Exception], str | None],
    interrupted: str | None = None,
) -> int:
    """Run a parsed command (`args.handler`), its reader free to go: if the reader closed the
    pipe, it stops writing and exits without a traceback. Standard output is flushed inside
    that guard, and then pointed at /dev/null so that the interpreter's own flush at exit does
    not raise again (the recipe in Python's signal docs).

    An error that `bad_input` words, or a file or folder named on the line that cannot be read
    or written, is the user's to fix: one line after `prog` on standard error, exit status 2,
    never a traceback. Any other error is a bug, and raises. With `interrupted`, a Ctrl-C is
    that line and exit status 130."""

    def run() -> int:
        try:
            return args.handler(args)
        except BrokenPipeError:
            raise  # an OSError too, but not an error of ours: ended quietly below
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            line = f"{where}{exc.strerror or exc}"
        except Exception as exc:
            line = bad_input(exc)
            if line is None:
                raise
        except KeyboardInterrupt:
            if interrupted is None:
                raise
            print(interrupted, file=sys.stderr)
            return EXIT_INTERRUPTED
        print(f"{prog}: {line}", file=sys.stderr)
        return EXIT_BAD_INPUT

    try:
        code = run()
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_CLOSED_PIPE


def die_by_sigint() -> None:
    """End the process as a Ctrl-C does, so that a shell (or a supervisor) sees it so (status
    130): with the default disposition restored, the signal is delivered before `kill` returns."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)
    os._exit(EXIT_INTERRUPTED)  # not reached, but never return into the code that was interrupted


def stop_on_interrupt(say: str, cleanup: Callable[[], None] | None = None) -> None:
    """While a program loads (imports, the app's lexicons), make a Ctrl-C end it at once with
    the line `say` instead of raising KeyboardInterrupt.

    A KeyboardInterrupt raised during imports can be lost: code that catches broad exceptions
    (pydantic-core wraps it in a SchemaError while it builds a schema), or a destructor or GC
    callback it lands in ("Exception ignored in ..."), swallows it and the start goes on, deaf
    to that Ctrl-C. A handler that ends the process itself cannot be swallowed. Nothing is
    half-written yet at that point; `cleanup` removes what was made (a metrics folder)."""

    def handler(signum: int, frame: object) -> None:
        if cleanup is not None:
            with contextlib.suppress(Exception):  # best effort; the stop must still happen
                cleanup()
        os.write(2, f"{say}\n".encode())
        die_by_sigint()

    signal.signal(signal.SIGINT, handler)


def run_command(prog: str, module: str) -> int:
    """A console script's entry: it imports the command line proper (`module`, whose `main` it
    runs), with a Ctrl-C ending it quietly meanwhile (`stop_on_interrupt`); then it runs with
    Python's usual KeyboardInterrupt, so its `finally` blocks remove temporary files; a Ctrl-C
    then ends it with one line as well, never a traceback, and by SIGINT as a shell expects."""
    stop_on_interrupt(f"{prog}: interrupted")
    # a parent may have started it with SIGINT blocked (a mask is inherited across fork and
    # exec): the Ctrl-C would wait, unseen, until the command ended
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    main: Callable[[], int] = importlib.import_module(module).main
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return main()
    except KeyboardInterrupt:
        sys.stderr.write(f"{prog}: interrupted\n")
        sys.stderr.flush()
        die_by_sigint()
        return EXIT_INTERRUPTED  # not reached


def print_table(header: list[str], rows: list[list], counts: bool = False) -> None:
    """A header and rows as columns two spaces apart, each as wide as its widest cell, no space
    at a line's end; to the left, or with `counts` all but the first to the right."""
    cells = [header, *([str(value) for value in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    for row in cells:
        aligned = (
            cell.rjust(width) if counts and i else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        print("  ".join(aligned).rstrip())


# --- argument types: odd input is refused by argparse, naming the option, with exit status 2 --


def whole_number(minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `minimum` to `maximum` (a database id, a count),
    so a huge one never reaches SQLite's 64-bit integers or a fork loop."""

    def parse(value: str) -> int:
        text = value.strip()
        if not (text.lstrip("-").isascii() and text.lstrip("-").isdigit()) or len(text) > 40:
            raise argparse.ArgumentTypeError(f"{value!r} is not a whole number")
        number = int(text)
        if not minimum <= number <= maximum:
            raise argparse.ArgumentTypeError(f"{number} is not from {minimum} to {maximum}")
        return number

    parse.__name__ = "whole number"  # what argparse calls it in a message
    return parse


def seconds(maximum: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds above 0 and at most `maximum` (not nan, not inf)."""

    def parse(value: str) -> float:
        try:
            number = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds") from None
        if not 0 < number <= maximum:  # nan compares false
            raise argparse.ArgumentTypeError(f"{value!r}: from 0 to {maximum:g} seconds")
        return number

    parse.__name__ = "seconds"
    return parse


def text(value: str) -> str:
    """An argparse type for a name (not a path): text a store can hold, so no byte that was not
    UTF-8 (Python keeps those as lone surrogates) and no control character."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError(f"{value!r} is not UTF-8 text") from None
    if not value.isprintable():
        raise argparse.ArgumentTypeError(f"{value!r} holds a control character")
    return value


def day(value: str) -> date:
    """An argparse type: a date, `YYYY-MM-DD`, as an edition's date is written."""
    from lexicon.artifact import in_force_date

    try:
        parsed = in_force_date(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    assert parsed is not None
    return parsed


def folder(value: str) -> str:
    """An argparse type: an existing folder, as an absolute path."""
    try:
        found = bool(value) and os.path.isdir(value)
    except (OSError, ValueError):  # a name too long, a NUL
        found = False
    if not found:
        raise argparse.ArgumentTypeError(f"{value!r}: no such folder")
    return os.path.abspath(value)
