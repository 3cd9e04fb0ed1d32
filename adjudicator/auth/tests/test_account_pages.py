"""The director's accounts page (issue 36.10): app keys made (shown once) and revoked, and
directors added, from the browser, each with the session's CSRF token, in the store as the CLI
records them and in the service's log with the director who did it."""

from __future__ import annotations

import logging

import pytest

from adjudicator import store
from adjudicator.auth import directors, keys, store_time

from .conftest import PASSWORD, add_director, form_csrf, login

CHALLENGE = "/api/v1/rulesets/{}/challenge"


@pytest.fixture
def app(make_app):
    app = make_app(MODE="tournament", RATE_RULINGS_PER_MINUTE=100)
    add_director(app)
    return app


@pytest.fixture
def director(app):
    client = app.test_client()
    assert login(client).status_code == 303
    return client


def csrf_of(client) -> str:
    page = client.get("/director/accounts")
    assert page.status_code == 200
    return form_csrf(page.get_data(as_text=True))


def listed_keys(app) -> list[dict]:
    with app.app_context(), store.connection() as conn:
        return keys.listed(conn)


def test_the_home_page_links_to_the_accounts_page(director):
    home = director.get("/director/?lang=da").get_data(as_text=True)
    assert 'href="/director/accounts?lang=da"' in home
    page = director.get("/director/accounts?lang=da")
    assert page.status_code == 200 and "App-nøgler og turneringsledere" in page.get_data(True)


def test_a_key_is_made_shown_once_and_used(app, director, caplog):
    caplog.set_level(logging.INFO)
    made = director.post(
        "/director/keys", data={"csrf": csrf_of(director), "name": "scorer", "scope": "ssf-1999"}
    )
    assert made.status_code == 200 and made.headers["Cache-Control"] == "no-store"
    html = made.get_data(as_text=True)
    key = html.split('id="new-key-value">', 1)[1].split("<", 1)[0]
    assert key.startswith("adj_app_")
    assert "shown only this once" in html
    (row,) = listed_keys(app)
    assert (row["name"], row["scopes"], row["revoked_at"]) == ("scorer", "ssf-1999", None)
    assert key not in director.get("/director/accounts").get_data(as_text=True)  # only once
    auth = {"Authorization": f"Bearer {key}"}
    player = app.test_client()
    mine = player.post(CHALLENGE.format("ssf-1999"), json={"words": ["ord"]}, headers=auth)
    assert mine.status_code == 200
    other = player.post(CHALLENGE.format("dsf-2015"), json={"words": ["ord"]}, headers=auth)
    assert other.status_code == 403  # its scope
    logged = [r.getMessage() for r in caplog.records if "app key" in r.getMessage()]
    assert logged == ["director 'anna' created app key (name='scorer', id=1, rulesets='ssf-1999')"]
    assert key not in caplog.text


def test_a_key_is_revoked_at_once(app, director, caplog):
    caplog.set_level(logging.INFO)
    csrf = csrf_of(director)
    director.post("/director/keys", data={"csrf": csrf, "name": "scorer"})
    director.post("/director/keys", data={"csrf": csrf, "name": "7"})  # a name like an id
    key_id = next(k["id"] for k in listed_keys(app) if k["name"] == "scorer")
    revoked = director.post(f"/director/keys/{key_id}/revoke?lang=nl", data={"csrf": csrf})
    assert revoked.status_code == 303
    assert revoked.location == "/director/accounts?done=key_revoked&name=scorer&lang=nl"
    after = director.get(revoked.location).get_data(as_text=True)
    assert "Sleutel ‘scorer’ is ingetrokken." in after
    states = {k["name"]: k["revoked_at"] is not None for k in listed_keys(app)}
    assert states == {"scorer": True, "7": False}  # by id, never the key named "7"
    again = director.post(f"/director/keys/{key_id}/revoke", data={"csrf": csrf})
    assert again.status_code == 404
    for no_id in (99, 2**63, 10**20):  # none such; past the stores' 64-bit ids (was a 500)
        for what in ("keys", "devices"):
            answer = director.post(f"/director/{what}/{no_id}/revoke", data={"csrf": csrf})
            assert answer.status_code == 404, (what, no_id)
    for no_id in (2**63, 10**20):  # a pairing code's unknown id is "expired"; these are no id
        assert director.get(f"/director/pairings/{no_id}/state").status_code == 404
    assert "director 'anna' revoked app key (name='scorer', id=1)" in caplog.text


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("/director/keys", {"name": "scorer"}),
        ("/director/keys/1/revoke", {}),
        ("/director/directors", {"name": "bo", "password": PASSWORD, "password_again": PASSWORD}),
    ],
)
def test_each_form_needs_the_sessions_csrf_token(app, director, path, data):
    with app.app_context(), store.connection(write=True) as conn:
        keys.create(conn, "standing", "app", [], {"ssf-1999"}, store_time.now())
    before = (listed_keys(app), director.get("/director/accounts").get_data(as_text=True))
    for token in (None, "forged"):
        sent = data if token is None else data | {"csrf": token}
        refused = director.post(path, data=sent)
        assert refused.status_code == 403, (path, token)
    assert listed_keys(app) == before[0]
    with app.app_context(), store.connection() as conn:
        assert not directors.exists(conn, "bo")
    anonymous = app.test_client().post(path, data=data | {"csrf": csrf_of(director)})
    assert anonymous.status_code == 303 and "/director/login" in anonymous.location


def test_a_director_adds_a_director_who_can_log_in(app, director, caplog):
    caplog.set_level(logging.INFO)
    csrf = csrf_of(director)
    form = {"csrf": csrf, "name": "bo", "password": "a long passphrase", "password_again": ""}
    differ = director.post("/director/directors?lang=sv", data=form)
    assert differ.status_code == 400 and "De två lösenorden skiljer sig åt." in differ.get_data(
        True
    )
    short = director.post(
        "/director/directors", data=form | {"password": "short", "password_again": "short"}
    )
    assert short.status_code == 400 and "at least 10 characters" in short.get_data(True)
    bad = director.post("/director/directors", data=form | {"name": "b o"})
    assert bad.status_code == 400
    form["password_again"] = form["password"]
    added = director.post("/director/directors", data=form)
    assert added.status_code == 303
    assert "Director “bo” is added" in director.get(added.location).get_data(True)
    assert login(app.test_client(), name="bo", password="a long passphrase").status_code == 303
    taken = director.post("/director/directors", data=form)
    assert taken.status_code == 409
    assert "director 'anna' added director (name='bo')" in caplog.text
    assert "a long passphrase" not in caplog.text
