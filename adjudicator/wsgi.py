"""The WSGI entry point for gunicorn: `gunicorn -c deploy/gunicorn.conf.py adjudicator.wsgi:app`.

A deployment's broken ruleset file stops the start with one line naming the file and field,
not a traceback: the operator needs the line, and a tournament must not run on half-read rules.
So does a store that cannot be opened or is not migrated (`adjudicator db upgrade`).
"""

from adjudicator import create_app
from adjudicator.auth.settings import ConfigError
from adjudicator.cors import CorsConfigError
from adjudicator.metrics import MetricsConfigError
from adjudicator.rulesets import RulesetError
from adjudicator.store import StoreError

try:
    app = create_app()
except (RulesetError, StoreError, CorsConfigError, ConfigError, MetricsConfigError) as exc:
    raise SystemExit(f"adjudicator: cannot start: {exc}") from None
