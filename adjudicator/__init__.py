"""The adjudication service: rulesets, challenge rulings, move validation and the judge page."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used: the console script (adjudicator.process.entry) stays light
    from flask import Flask


def configured_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app with its settings (adjudicator.settings: defaults, then `ADJUDICATOR_*`
    environment variables, then the settings named in `test_config`), each checked here, so a
    bad value stops the start naming its variable. Keys of `test_config` that are not settings
    (`TESTING`) go to Flask's config."""
    from flask import Flask

    from adjudicator.settings import init_app, is_setting, read

    settings = read(overrides=test_config)
    # The instance folder (`INSTANCE_DIR`) is the app's: its lexicons and SQLite store default
    # to it, as the run directory does.
    app = Flask(__name__, instance_relative_config=True, instance_path=settings.instance_dir)
    init_app(app, settings)
    app.config.from_mapping({k: v for k, v in (test_config or {}).items() if not is_setting(k)})
    return app


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The service: configured (`configured_app`), then every resource and blueprint."""
    app = configured_app(test_config)
    from adjudicator.web.jsonprovider import OrjsonProvider
    from adjudicator.web.requests import Request, RowId

    app.request_class = Request
    app.url_map.converters["int"] = RowId  # before any route: every `<int:...>` is bounded
    app.json = OrjsonProvider(app)

    from adjudicator import catalogue, lexicon_registry, store
    from adjudicator.api import challenge, games, meta, moves
    from adjudicator.api import lexicon_summaries as lexicons_api
    from adjudicator.web import cors, errors, logs, metrics

    for part in (logs, errors, metrics, store, cors, lexicon_registry, catalogue):
        part.init_app(app)
    for api in (meta, lexicons_api, challenge, moves, games):
        app.register_blueprint(api.bp)

    from adjudicator import auth, judge
    from adjudicator.api import check_page  # noqa: F401 (its routes join the directors' pages)
    from adjudicator.audit import record as audit_record
    from adjudicator.audit import views as audit_views

    for part in (
        # The judge's tablet: its page, assets and PIN check; JUDGE_* config defaults; and the
        # two-letter card for the tables (003 Verloop van het spel): a page to print, per ruleset.
        judge,
        auth,  # Who is asking: open or tournament mode, directors, judge devices, app keys.
        # The audit log for directors: a page and a JSON list of rulings, searched.
        audit_record,
        audit_views,
    ):
        part.init_app(app)
    return app
