"""The `adjudicator` console script. Light on purpose (the `adjudicator` package imports
nothing at its top): a Ctrl-C while the command line imports Flask, SQLAlchemy and pydantic
ends it in one line, not a traceback from deep inside an import (lexicon.console.run_command).
`adjudicator serve` then holds SIGINT across its exec into gunicorn, whose entry
(adjudicator.process.gunicorn_main) takes over."""

from __future__ import annotations

from lexicon.console import run_command


def main() -> int:
    return run_command("adjudicator", "adjudicator.cli")
