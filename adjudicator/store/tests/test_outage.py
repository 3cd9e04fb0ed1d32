"""A store that cannot be used right now: the service answers 503 `store_unavailable` (never a
500), readiness says so, and the CLI says it in one line. Over HTTP, with PostgreSQL killed and
restarted under a running service: api_tests/test_store_http.py."""

from __future__ import annotations

import sqlite3

import pytest

from adjudicator import create_app
from adjudicator import store as store_module
from adjudicator.cli import main

CHALLENGE = "/api/v1/rulesets/ssf-1999/challenge"


@pytest.fixture
def locked_app(lexicon_dir, tmp_path, monkeypatch):
    """An app on SQLite whose busy timeout is short, and a way to hold the write lock."""
    monkeypatch.setattr(store_module, "SQLITE_BUSY_TIMEOUT_MS", 200)
    url = f"sqlite:///{tmp_path / 'adjudicator.db'}"
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": url})
    yield app, str(tmp_path / "adjudicator.db")
    app.extensions["store"].dispose()


def test_a_write_lock_held_past_the_timeout_is_503_and_then_passes(locked_app):
    """Another program (an `sqlite3` shell, a backup) holds SQLite's write lock: the ruling
    cannot be recorded, so it is not given; once the lock goes, the same request is ruled."""
    app, path = locked_app
    client = app.test_client()
    assert client.post(CHALLENGE, json={"words": ["HEJ"]}).status_code == 200
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        refused = client.post(CHALLENGE, json={"words": ["HEJ"]})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert refused.status_code == 503
    assert refused.mimetype == "application/problem+json"
    assert refused.json["code"] == "store_unavailable"
    assert refused.headers["Retry-After"] == str(store_module.OUTAGE_RETRY_AFTER_SECONDS)
    assert "locked" not in refused.get_data(as_text=True)  # the reason is for the log only
    assert client.post(CHALLENGE, json={"words": ["HEJ"]}).status_code == 200


def test_readiness_needs_the_store(lexicon_dir, monkeypatch):
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir)})
    client = app.test_client()
    ready = client.get("/api/v1/readyz")
    assert ready.status_code == 200
    assert ready.json["store"] == {"reachable": True, "writable": True, "cause": None}
    store = app.extensions["store"]
    monkeypatch.setattr(store, "unreachable", lambda: "connection refused")
    down = client.get("/api/v1/readyz")
    assert down.status_code == 503 and down.json["ready"] is False
    assert down.json["store"] == {"reachable": False, "writable": False, "cause": None}
    assert "refused" not in down.get_data(as_text=True)


def test_unreachable_names_the_drivers_reason(tmp_path):
    store = store_module.Store(f"sqlite:///{tmp_path / 'adjudicator.db'}")
    assert store.unreachable() is None
    (tmp_path / "garbage.db").write_text("not a database at all, " * 100)
    broken = store_module.Store(f"sqlite:///{tmp_path / 'garbage.db'}")
    assert broken.unreachable() == "file is not a database"


@pytest.mark.parametrize(
    "command",
    [["audit", "verify"], ["audit", "export", "--format", "json"], ["keys", "list"]],
)
def test_the_cli_says_in_one_line_when_the_database_fails(command, tmp_path, capsys):
    """A database whose tables were dropped behind the service's back: one line, exit 2, no
    traceback (it was a traceback)."""
    path = tmp_path / "adjudicator.db"
    url = f"sqlite:///{path}"
    assert main(["db", "upgrade", "--database-url", url]) == 0
    with sqlite3.connect(path) as conn:
        conn.executescript("DROP TABLE rulings; DROP TABLE api_keys;")
    capsys.readouterr()
    assert main([*command, "--database-url", url]) == 2
    err = capsys.readouterr().err
    assert "the database failed: no such table" in err
    assert "Traceback" not in err and "sqlalche.me" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_database_error_never_carries_a_statements_values(store):
    """A failing statement's message (which a 500 writes to the log) names no value it was
    given: those are the words of a ruling and the labels a caller sent."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    with pytest.raises(DBAPIError) as failed:
        with store.connection() as conn:
            conn.execute(text("SELECT * FROM no_such_table WHERE word = :w"), {"w": "HEMLIGT"})
    assert "HEMLIGT" not in str(failed.value)
    assert "no_such_table" in str(failed.value)  # the statement itself is still named


def test_the_loaded_drivers_own_errors_count_as_outages(store):
    """The append path calls the driver directly, so its errors are outages too; and only the
    loaded driver's, so that a SQLite deployment never imports psycopg."""
    modules = {cls.__module__.split(".")[0] for cls in store.outages()}
    assert modules == {"sqlalchemy", "sqlite3" if store.is_sqlite else "psycopg"}


def test_an_outage_is_told_from_a_bug_by_the_apps_store(locked_app):
    """What the web layer answers with 503 (`store.is_outage`): the store's own outages, not
    any other error, and nothing in an app without a store."""
    from flask import Flask

    app, _ = locked_app
    with app.app_context():
        assert store_module.is_outage(sqlite3.OperationalError("database is locked"))
        assert not store_module.is_outage(ValueError("a bug"))
    with Flask(__name__).app_context():
        assert not store_module.is_outage(sqlite3.OperationalError("database is locked"))
