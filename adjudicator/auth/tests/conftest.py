"""An app per test on a fresh store, in open or tournament mode, with helpers for each role."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from adjudicator import create_app, store
from adjudicator.auth import directors, keys, store_time
from adjudicator.tests.conftest import build_test_lexicons

PASSWORD = "correct horse battery"


@pytest.fixture(scope="session")
def lexicon_dir(tmp_path_factory):
    return build_test_lexicons(tmp_path_factory.mktemp("lexicons"))


@pytest.fixture
def make_app(lexicon_dir, tmp_path):
    def make(**config):
        settings = {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'store.db'}",
        }
        settings.update(config)
        return create_app(settings)

    return make


@pytest.fixture
def tournament(make_app):
    return make_app(MODE="tournament", RATE_RULINGS_PER_MINUTE=3)


class Clock:
    """The store's time, moved by hand."""

    def __init__(self):
        self.at = store_time.utcnow().replace(microsecond=0)

    def __call__(self):
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
def frozen(monkeypatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(store_time, "now", fake)
    return fake


def add_director(app, name: str = "anna", password: str = PASSWORD) -> None:
    with app.app_context(), store.connection(write=True) as conn:
        directors.add(conn, name, password, store_time.now())


def add_key(app, name: str = "scorer", scopes=()) -> str:
    from adjudicator.catalogue import rulesets

    with app.app_context(), store.connection(write=True) as conn:
        return keys.create(conn, name, "app", list(scopes), set(rulesets()), store_time.now()).key


def form_csrf(html: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', html)
    assert match, "the form carries a CSRF token"
    return match.group(1)


def login(client, name: str = "anna", password: str = PASSWORD, **kw):
    return client.post("/director/login", data={"name": name, "password": password}, **kw)


def pairing_code(client, name: str = "Table 1", ruleset: str = "ssf-1999") -> str:
    """As a logged-in director: make a pairing code and read it off the screen."""
    csrf = form_csrf(client.get("/director/").get_data(as_text=True))
    response = client.post(
        "/director/pairings", data={"csrf": csrf, "name": name, "ruleset": ruleset}
    )
    assert response.status_code == 200
    match = re.search(r'id="pairing-code">([^<]+)<', response.get_data(as_text=True))
    return match.group(1)


def pair(client, code: str, **kw):
    return client.post("/judge/pair", data={"code": code}, **kw)


def challenge(client, ruleset: str = "ssf-1999", words=("hej",), headers=None, **kw):
    return client.post(
        f"/api/v1/rulesets/{ruleset}/challenge",
        json={"words": list(words)},
        headers=headers or {},
        **kw,
    )


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


JUDGE_HEADER = {"X-Requested-With": "judge"}


@pytest.fixture
def director(app):
    """A client logged in as the director `anna` (the test module's `app` adds her)."""
    client = app.test_client()
    assert login(client).status_code == 303
    return client
