"""The WSGI entry point for gunicorn: `gunicorn -c deploy/gunicorn.conf.py adjudicator.process.wsgi:app`.

A deployment's broken ruleset file stops the start with one line naming the file and field,
not a traceback: the operator needs the line, and a tournament must not run on half-read rules.
So does a store that cannot be opened or is not migrated (`adjudicator db upgrade`).
A bad `ADJUDICATOR_*` value (adjudicator.settings) stops it the same way, naming the variable.
Each ends the process with exit status 2 (bad input), as the commands do.
"""

from adjudicator import create_app
from adjudicator.process import cannot_start
from adjudicator.rulesets import RulesetFileError
from adjudicator.settings import ConfigError
from adjudicator.store import StoreError

try:
    app = create_app()
except (RulesetFileError, StoreError, ConfigError) as exc:
    cannot_start(exc)
