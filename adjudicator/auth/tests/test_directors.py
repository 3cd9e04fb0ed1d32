"""Directors: login, sessions, logout, lockout, CSRF, and the cookie's attributes."""

from __future__ import annotations

import pytest

from adjudicator import create_app, store
from adjudicator.auth import directors, lockout, passwords, store_time

from .conftest import PASSWORD, add_director, form_csrf, login


@pytest.fixture
def app(make_app, lockouts):
    lockouts(LOGIN={"attempts": 3, "account_attempts": 50})
    app = make_app(MODE="tournament")
    add_director(app)
    return app


def test_passwords_are_argon2_hashed():
    stored = passwords.hash_password(PASSWORD)
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert passwords.verify_password(stored, PASSWORD)
    assert not passwords.verify_password(stored, PASSWORD + "x")
    assert not passwords.verify_password(None, PASSWORD)
    with pytest.raises(directors.AccountError, match="at least 10"):
        directors.check_password("short")


def test_the_parameters_are_an_owasp_argon2id_row():
    """Issue 36.9: chosen by measurement (benchmarks/argon2_params.py) within OWASP's table."""
    from argon2 import Type, extract_parameters

    used = extract_parameters(passwords.hash_password(PASSWORD))
    assert used.type is Type.ID and used.salt_len >= 16 and used.hash_len >= 32
    assert (used.memory_cost, used.time_cost, used.parallelism) in passwords.OWASP_ROWS
    assert (used.memory_cost, used.time_cost, used.parallelism) == (19456, 2, 1)


def test_a_hash_made_with_other_parameters_is_rehashed_at_the_next_login(app):
    from argon2 import PasswordHasher, extract_parameters

    old = PasswordHasher().hash(PASSWORD)  # argon2-cffi's default: 64 MiB, t=3, p=4
    assert passwords.needs_rehash(old)
    with app.app_context(), store.connection(write=True) as conn:
        conn.execute(directors.Director.__table__.update().values(password_hash=old))
    assert login(app.test_client()).status_code == 303
    with app.app_context(), store.connection() as conn:
        stored = conn.execute(directors.Director.__table__.select()).first().password_hash
    assert stored != old and not passwords.needs_rehash(stored)
    assert extract_parameters(stored).memory_cost == passwords.MEMORY_KIB
    assert login(app.test_client()).status_code == 303  # the new hash verifies


def test_right_wrong_and_unknown_each_cost_one_verify_and_no_hash(make_app, monkeypatch):
    """Why a wrong name took twice a login's time (36.9): the dummy hash an unknown name is
    checked against was made at its first use, in each worker. It is made at start-up; a login
    then costs one argon2 verify whatever the answer, and never a hash."""
    from argon2 import PasswordHasher

    passwords.dummy_hash.cache_clear()  # as in a freshly started process
    app = make_app(MODE="tournament")
    add_director(app)
    calls = []
    for method in ("hash", "verify"):
        real = getattr(PasswordHasher, method)

        def counted(self, *args, _real=real, _name=method, **kwargs):
            calls.append(_name)
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(PasswordHasher, method, counted)
    for name, password, status in (
        ("nobody", PASSWORD, 401),
        ("anna", PASSWORD + "x", 401),
        ("anna", PASSWORD, 303),
    ):
        calls.clear()
        assert login(app.test_client(), name=name, password=password).status_code == status
        assert calls == ["verify"], (name, calls)


def test_login_sets_a_strict_httponly_session_cookie(app):
    client = app.test_client()
    assert client.get("/director/").status_code == 303
    response = login(client)
    assert response.status_code == 303 and response.location == "/director/"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("adj_session=adj_ses_")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" not in cookie
    page = client.get("/director/")
    assert page.status_code == 200 and "Director: anna" in page.get_data(as_text=True)
    assert "form-action 'self'" in page.headers["Content-Security-Policy"]


def test_the_cookie_is_secure_over_tls(app):
    response = login(app.test_client(), base_url="https://judge.example")
    assert "Secure" in response.headers["Set-Cookie"]


def test_behind_a_trusted_proxy_the_forwarded_scheme_counts(make_app):
    app = make_app(TRUSTED_PROXIES=1)
    add_director(app)
    headers = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.7"}
    response = login(app.test_client(), headers=headers)
    assert "Secure" in response.headers["Set-Cookie"]
    untrusted = make_app(TRUSTED_PROXIES=0)
    response = login(untrusted.test_client(), headers=headers)
    assert "Secure" not in response.headers["Set-Cookie"]


def test_wrong_passwords_and_unknown_names_look_alike(app):
    client = app.test_client()
    wrong = login(client, password="not the password")
    unknown = login(client, name="nobody")
    assert wrong.status_code == unknown.status_code == 401
    assert "Wrong name or password." in wrong.get_data(as_text=True)
    assert "Wrong name or password." in unknown.get_data(as_text=True)
    assert "adj_session" not in wrong.headers.get("Set-Cookie", "")


def test_lockout_is_per_account_and_client(app):
    add_director(app, "bo")
    player = app.test_client()
    for _ in range(3):
        assert login(player, password="guess guess guess").status_code == 401
    locked = login(player)  # even the right password waits now, from this client
    assert locked.status_code == 429 and int(locked.headers["Retry-After"]) > 0
    assert "Too many wrong passwords" in locked.get_data(as_text=True)
    assert login(player, name="bo").status_code == 303  # another account is not locked
    director = app.test_client()
    here = {"environ_base": {"REMOTE_ADDR": "10.0.0.2"}}
    assert login(director, **here).status_code == 303  # the director's own device


def test_a_player_on_the_venues_64_cannot_lock_the_director_out(app):
    """Every device on the venue's Wi-Fi shares one IPv6 /64: each address has its own count."""
    player = {"environ_base": {"REMOTE_ADDR": "2001:db8:1:2::a"}}
    for _ in range(3):
        assert login(app.test_client(), password="guess guess guess", **player).status_code == 401
    assert login(app.test_client(), **player).status_code == 429
    director = {"environ_base": {"REMOTE_ADDR": "2001:db8:1:2::d"}}
    assert login(app.test_client(), **director).status_code == 303


def test_an_ipv6_64_has_a_wider_limit_of_its_own(app):
    """A device taking a fresh address in its /64 for every try meets the /64's higher limit."""
    wider = 3 * lockout.NETWORK_FACTOR
    for i in range(wider):
        at = {"environ_base": {"REMOTE_ADDR": f"2001:db8:1:2::{i + 1:x}"}}
        assert login(app.test_client(), password="guess guess guess", **at).status_code == 401
    again = {"environ_base": {"REMOTE_ADDR": "2001:db8:1:2:ffff:ffff:ffff:ffff"}}
    assert login(app.test_client(), **again).status_code == 429
    neighbour = {"environ_base": {"REMOTE_ADDR": "2001:db8:1:3::1"}}  # another /64
    assert login(app.test_client(), **neighbour).status_code == 303


def test_an_ipv4_address_written_as_ipv6_is_that_address(app):
    player = app.test_client()
    mapped = {"environ_base": {"REMOTE_ADDR": "::ffff:10.0.0.7"}}
    for _ in range(3):
        assert login(player, password="guess guess guess", **mapped).status_code == 401
    plain = {"environ_base": {"REMOTE_ADDR": "10.0.0.7"}}  # the same IPv4 client
    assert login(player, **plain).status_code == 429


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Origin": "https://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Origin": "null", "Sec-Fetch-Site": "same-origin"}, 303),  # a no-referrer page
        ({"Sec-Fetch-Site": "cross-site"}, 403),
        ({"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}, 303),
        ({}, 303),  # no browser sent it: nobody's session to forge
    ],
)
def test_login_form_must_come_from_this_site(app, headers, status):
    response = login(app.test_client(), headers=headers)
    assert response.status_code == status
    assert ("adj_session" in response.headers.get("Set-Cookie", "")) == (status == 303)


def test_the_login_page_is_the_same_for_everyone(app):
    first = app.test_client().get("/director/login")
    second = app.test_client().get("/director/login")
    assert first.data == second.data and "Set-Cookie" not in first.headers


def test_next_is_a_local_path_only(app):
    data = {"name": "anna", "password": PASSWORD, "next": "//evil.example/"}
    assert app.test_client().post("/director/login", data=data).location == "/director/"


def test_logout_ends_the_session_in_the_store(app):
    client = app.test_client()
    login(client)
    token = client.get_cookie("adj_session").value
    csrf = form_csrf(client.get("/director/").get_data(as_text=True))
    assert client.post("/director/logout", data={"csrf": "wrong"}).status_code == 403
    assert client.post("/director/logout", data={"csrf": csrf}).status_code == 303
    thief = app.test_client()
    thief.set_cookie("adj_session", token)
    assert thief.get("/director/").status_code == 303  # the old token is worth nothing


def test_removing_a_director_ends_their_sessions(app):
    from adjudicator.auth import store_time

    client = app.test_client()
    login(client)
    with app.app_context(), store.connection(write=True) as conn:
        assert directors.remove(conn, "anna")
        assert directors.listed(conn, store_time.now()) == []
    assert client.get("/director/").status_code == 303


def test_sessions_expire(app, frozen):
    client = app.test_client()
    login(client)
    frozen.advance(12 * 3600 + 1)
    assert client.get("/director/").status_code == 303


def test_names_are_checked():
    for name in ("two words", "anna\n", "an\x00na", "", "a" * 65):
        with pytest.raises(directors.AccountError):
            directors.check_name(name)
    assert directors.check_name("anna.berg@sm-2027") == "anna.berg@sm-2027"


@pytest.fixture
def on_either_store(lexicon_dir, database_url):
    """An app with a director, on SQLite and on PostgreSQL (`database_url`), made with `config`."""
    from adjudicator.store import Store, migrate

    def make(**config):
        migrate.upgrade(Store(database_url))
        settings = {"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": database_url}
        app = create_app({**settings, **config})
        add_director(app)
        return app

    return make


def test_a_name_no_account_can_have_is_a_wrong_login_counted_on_either_store(
    on_either_store, lockouts
):
    """A NUL in the name (which PostgreSQL refuses in any text), a newline, an overlong name:
    refused as a wrong name is, and counted, not a 500."""
    lockouts(LOGIN={"attempts": 3})
    app = on_either_store()
    player = app.test_client()
    for name in ("an\x00na", "an\nna", "x" * 500):
        answer = login(player, name=name)
        assert answer.status_code == 401, name
        assert "Wrong name or password." in answer.get_data(as_text=True)
    for _ in range(2):  # the third and last try allowed (the loop above was the first)
        assert login(player, name="an\x00na", password="guess guess guess").status_code == 401
    assert login(player, name="an\x00na").status_code == 429  # counted under that name
    assert login(player).status_code == 303  # anna herself was never held back


def test_a_login_checked_against_a_password_changed_meanwhile_gets_no_session(app, monkeypatch):
    """argon2 runs outside the transaction: a `directors passwd` landing during it must win."""
    real = passwords.verify_password

    def slow_verify(stored, password):
        ok = real(stored, password)
        with app.app_context(), store.connection(write=True) as conn:
            directors.set_password(conn, "anna", "a new passphrase here")
        return ok

    monkeypatch.setattr(directors, "verify_password", slow_verify)
    response = login(app.test_client())
    assert response.status_code == 401
    assert "adj_session" not in response.headers.get("Set-Cookie", "")
    monkeypatch.setattr(directors, "verify_password", real)
    assert login(app.test_client(), password="a new passphrase here").status_code == 303


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/",
        "/\t/evil.example/",  # browsers drop tabs and newlines from a URL: //evil.example/
        "/\x0b/evil.example/",
        "/\r/evil.example/",
        "/\n/evil.example/",
        "/\\evil.example/",
        "https://evil.example/",
        "/ /evil.example/",
        "/\u3000/evil.example/",
    ],
)
def test_next_never_leaves_the_site(app, target):
    client = app.test_client()
    data = {"name": "anna", "password": PASSWORD, "next": target}
    response = client.post("/director/login", data=data)
    assert response.status_code == 303 and response.location == "/director/"
    form = client.get("/director/login", query_string={"next": target})
    assert form.status_code == 200 and 'name="next" value="/director/"' in form.text


def test_next_keeps_a_path_on_this_site(app):
    data = {"name": "anna", "password": PASSWORD, "next": "/director/rulings?q=%C3%86BLE&page=2"}
    response = app.test_client().post("/director/login", data=data)
    assert response.location == "/director/rulings?q=%C3%86BLE&page=2"


def test_a_forged_csrf_token_is_refused_not_a_crash(app):
    client = app.test_client()
    login(client)
    for forged in ("é" * 64, "\x00", "x" * 10_000):
        refused = client.post("/director/logout", data={"csrf": forged})
        assert refused.status_code == 403, forged[:8]


def test_a_forwarded_address_that_is_no_address_is_counted_not_a_crash(on_either_store, lockouts):
    """With TRUSTED_PROXIES set higher than the proxies really in front, a client picks its own
    X-Forwarded-For: a long or odd value is still counted (hashed), never a 500."""
    lockouts(LOGIN={"attempts": 3})
    app = on_either_store(TRUSTED_PROXIES=1)
    player = app.test_client()
    spoofed = {"headers": {"X-Forwarded-For": "10.0.0.1, " + "not-an-address " * 20}}
    for _ in range(3):
        assert login(player, password="guess guess guess", **spoofed).status_code == 401
    assert login(player, **spoofed).status_code == 429  # counted against that one value
    assert login(app.test_client(), headers={"X-Forwarded-For": "10.0.0.9"}).status_code == 303


def test_logging_in_again_ends_the_browsers_earlier_session(app):
    add_director(app, "bo")
    browser = app.test_client()
    assert login(browser).status_code == 303
    first = browser.get_cookie("adj_session").value
    assert login(browser, name="bo").status_code == 303  # another director, same browser
    second = browser.get_cookie("adj_session").value
    assert second != first
    stale = app.test_client()
    stale.set_cookie("adj_session", first)
    assert stale.get("/director/").status_code == 303  # to the login form: it ended
    fresh = app.test_client()
    fresh.set_cookie("adj_session", second)
    assert fresh.get("/director/").status_code == 200


def test_a_director_added_meanwhile_elsewhere_is_a_clear_error(database_url, monkeypatch):
    """Two `directors add` of one name at once on PostgreSQL: the second gets the message, not a
    traceback. (On SQLite the write lock makes them take turns.)"""
    from adjudicator.store import Store, migrate

    s = Store(database_url)
    if s.is_sqlite:
        pytest.skip("SQLite's write lock serialises the two")
    migrate.upgrade(s)
    real_hash = directors.hash_password

    def hash_while_another_adds(password):  # runs between the name check and the insert
        monkeypatch.setattr(directors, "hash_password", real_hash)
        with s.connection(write=True) as other:
            directors.add(other, "cy", PASSWORD, store_time.now())
        return real_hash(password)

    monkeypatch.setattr(directors, "hash_password", hash_while_another_adds)
    with pytest.raises(directors.AccountError, match="already exists"):
        with s.connection(write=True) as conn:
            directors.add(conn, "cy", PASSWORD, store_time.now())
    s.dispose()
