"""A ruling in tournament mode takes its app key or device from the worker's cache instead of
reading it before its transaction (`auth.credcache`), and a revocation still refuses the very
next ruling: the ruling's own count checks that the credential is in force."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from adjudicator import store
from adjudicator.auth import credcache, devices, keys, store_time
from adjudicator.auth.tests.conftest import add_director, add_key, bearer, challenge
from adjudicator.auth.tokens import digest


@pytest.fixture
def app(make_app):
    return make_app(MODE="tournament", RATE_RULINGS_PER_MINUTE=100)


def _entries(app) -> int:
    with app.app_context(), store.connection() as conn:
        return conn.execute(sa.text("SELECT count(*) FROM rulings")).scalar_one()


def _reads(monkeypatch, module) -> list[str]:
    calls: list[str] = []
    real = module.resolve

    def counted(*args):
        calls.append(args[1])
        return real(*args)

    monkeypatch.setattr(module, "resolve", counted)
    return calls


def test_a_ruling_reads_its_key_from_the_store_once_per_worker(app, monkeypatch):
    key = add_key(app)
    reads = _reads(monkeypatch, keys)
    client = app.test_client()
    for _ in range(3):
        assert challenge(client, headers=bearer(key)).status_code == 200
    assert reads == [key]  # then from the cache
    # Not from the cache: a request with an Idempotency-Key (a replay is not counted, so
    # nothing would check the key) and any request that is not a counted ruling.
    headers = {**bearer(key), "Idempotency-Key": "k1"}
    assert challenge(client, headers=headers).status_code == 200
    assert client.get("/api/v1/auth/whoami", headers=bearer(key)).status_code == 200
    assert len(reads) == 3


def test_a_revoked_key_is_refused_at_its_next_ruling(app):
    key = add_key(app)
    client = app.test_client()
    assert challenge(client, headers=bearer(key)).status_code == 200
    assert challenge(client, headers=bearer(key)).status_code == 200
    assert credcache.get(digest(key)) is not None
    recorded = _entries(app)
    with app.app_context(), store.connection(write=True) as conn:
        assert keys.revoke(conn, "scorer", store_time.now())

    refused = challenge(client, headers=bearer(key))

    assert refused.status_code == 401
    assert refused.get_json()["code"] == "credential_invalid"
    assert "invalid_token" in refused.headers["WWW-Authenticate"]
    assert _entries(app) == recorded  # no ruling recorded, none answered
    assert credcache.get(digest(key)) is None
    assert challenge(client, headers=bearer(key)).status_code == 401  # read: unknown now


def test_a_cached_key_whose_row_was_replaced_is_refused(app):
    """Checked by id and token digest: a row deleted by hand and its id given to another key
    never makes the old token valid again."""
    key = add_key(app)
    client = app.test_client()
    assert challenge(client, headers=bearer(key)).status_code == 200
    with app.app_context(), store.connection(write=True) as conn:
        conn.execute(sa.text("UPDATE api_keys SET key_hash = 'another key' WHERE name = 'scorer'"))
    assert challenge(client, headers=bearer(key)).status_code == 401


def _device(app, seconds: int) -> str:
    add_director(app)
    with app.app_context(), store.connection(write=True) as conn:
        now = store_time.now()
        pairing = devices.new_pairing(conn, 1, "Table 1", "ssf-1999", 600, now)
        return devices.redeem(conn, pairing.code, seconds, now).token


def test_a_revoked_device_is_refused_at_its_next_ruling(app):
    token = _device(app, 3600)
    client = app.test_client()
    assert challenge(client, headers=bearer(token)).status_code == 200
    assert credcache.get(digest(token)) is not None
    with app.app_context(), store.connection(write=True) as conn:
        assert devices.revoke(conn, 1, store_time.now())
    assert challenge(client, headers=bearer(token)).status_code == 401


def test_an_expired_device_is_refused_though_cached(app, frozen):
    token = _device(app, 120)
    client = app.test_client()
    assert challenge(client, headers=bearer(token)).status_code == 200
    frozen.advance(121)
    refused = challenge(client, headers=bearer(token))
    assert refused.status_code == 401 and refused.get_json()["code"] == "credential_invalid"


def test_a_cached_credential_still_notes_its_last_use_once_a_minute(app, frozen):
    key = add_key(app)
    client = app.test_client()

    def last_used():
        with app.app_context(), store.connection() as conn:
            return conn.execute(sa.text("SELECT last_used_at FROM api_keys")).scalar_one()

    assert challenge(client, headers=bearer(key)).status_code == 200
    first = last_used()
    frozen.advance(30)
    assert challenge(client, headers=bearer(key)).status_code == 200
    assert last_used() == first
    frozen.advance(31)
    assert challenge(client, headers=bearer(key)).status_code == 200
    assert last_used() != first
    assert credcache.get(digest(key)).last_used_at == frozen()


def _revoked_after(app, key: str, url: str, asked: dict) -> None:
    """`key` cached (a ruling), then refused `asked` at `url` while in force, then revoked."""
    client = app.test_client()
    assert challenge(client, headers=bearer(key)).status_code == 200
    told = client.post(url, headers=bearer(key), **asked)
    assert told.status_code in (400, 403, 404), told.get_json()
    assert credcache.get(digest(key)) is not None
    with app.app_context(), store.connection(write=True) as conn:
        assert keys.revoke(conn, "scorer", store_time.now())


def _refused_as_revoked(app, key: str, url: str, asked: dict) -> None:
    refused = app.test_client().post(url, headers=bearer(key), **asked)
    assert refused.status_code == 401, refused.get_json()
    assert refused.get_json()["code"] == "credential_invalid"
    assert "invalid_token" in refused.headers["WWW-Authenticate"]
    assert credcache.get(digest(key)) is None


def test_a_revoked_cached_key_is_not_told_its_scope(app):
    """Its authentication is settled before the guard refuses it anything else: a key revoked
    since it was cached gets 401 for a ruleset outside its scope, as it would uncached, not the
    403 that would say what its scope is."""
    from adjudicator.catalogue import rulesets

    key = add_key(app, scopes=["ssf-1999"])
    with app.app_context():
        other = next(ruleset for ruleset in sorted(rulesets()) if ruleset != "ssf-1999")
    url, asked = f"/api/v1/rulesets/{other}/challenge", {"json": {"words": ["hej"]}}
    _revoked_after(app, key, url, asked)
    _refused_as_revoked(app, key, url, asked)


@pytest.mark.parametrize(
    ("ruleset", "asked"),
    [
        ("ssf-1999", {"data": "{not json", "content_type": "application/json"}),
        ("ssf-1999", {"json": {"words": "hej"}}),  # JSON, but not the request's shape
        ("no-such-ruleset", {"json": {"words": ["hej"]}}),
    ],
    ids=["malformed", "misshapen", "unknown-ruleset"],
)
def test_a_revoked_cached_key_learns_nothing_of_its_request(app, ruleset, asked):
    """Its authentication is settled before its request is judged: a revoked key gets 401 for a
    request it got 4xx for before, not the 4xx that would say what was wrong with it."""
    key = add_key(app)
    url = f"/api/v1/rulesets/{ruleset}/challenge"
    _revoked_after(app, key, url, asked)
    _refused_as_revoked(app, key, url, asked)


def test_a_cached_key_in_force_still_hears_what_is_wrong_with_its_request(app):
    key = add_key(app)
    client = app.test_client()
    assert challenge(client, headers=bearer(key)).status_code == 200
    wrong = client.post(
        "/api/v1/rulesets/ssf-1999/challenge", headers=bearer(key), json={"words": "hej"}
    )
    assert wrong.status_code == 400
    assert credcache.get(digest(key)) is not None
