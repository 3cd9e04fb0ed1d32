"""The processes: gunicorn's conf, worker and entry point, hot reload."""

from __future__ import annotations

import sys
from typing import NoReturn


def cannot_start(why: object) -> NoReturn:
    """End a start that the command line does not run (gunicorn's settings, the WSGI entry) on
    bad input: one line naming it, exit status 2, never a traceback."""
    sys.stderr.write(f"adjudicator: cannot start: {why}\n")
    sys.stderr.flush()
    raise SystemExit(2) from None
