"""Switching a running deployment to newly installed lexicons and rulesets (SIGHUP).

gunicorn runs `on_reload` in the master after a HUP and before it forks the new workers; the
hook calls `reload_app`, which loads everything again beside what is serving and swaps it in
only if the rulesets are valid. A lexicon whose new files fail their checks is refused and its
loaded build keeps serving. The new workers start with the new state, the old ones finish their
requests and leave: each worker serves exactly one state, and every answer names its lexicon.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Flask

from adjudicator import catalogue, rundir
from adjudicator.lexicon_registry import LexiconRegistry
from adjudicator.rulesets import RulesetFileError, load_rulesets
from adjudicator.settings import current_settings


def reload_app(app: Flask) -> dict[str, Any]:
    """Load again, swap if sound; returns a report (also written to the run directory)."""
    started = time.time()
    old = app.extensions["lexicons"]
    report: dict[str, Any] = {"time": started, "ok": True, "error": None}
    try:
        new_rulesets = load_rulesets(current_settings(app).ruleset_dir)
    except RulesetFileError as exc:
        app.logger.error("reload refused: %s; the running rulesets and lexicons keep serving", exc)
        report.update(ok=False, error=str(exc))
    else:
        new = LexiconRegistry(old.directory)
        new.load_all(app.logger, previous=old)
        app.extensions["lexicons"] = new
        app.extensions["rulesets"] = new_rulesets
        catalogue.warn_unavailable(app)
    reg = app.extensions["lexicons"]
    report["lexicons"] = {i: lex.identity()["sha256"] for i, lex in sorted(reg.loaded.items())}
    report["failed"] = dict(sorted(reg.failed.items()))
    report["seconds"] = round(time.time() - started, 3)
    app.extensions["last_reload"] = report
    if run_dir := current_settings(app).run_dir:
        rundir.write_last_reload(run_dir, report)
    return report
