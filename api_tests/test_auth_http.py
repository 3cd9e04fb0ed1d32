"""Who is asking, over HTTP: a real gunicorn (2 workers) in tournament mode, on SQLite and on a
throwaway PostgreSQL, with accounts made by the `adjudicator` command as an operator would.

Every role: anonymous (refused), an app key, a director (login, lockout, logout), a paired judge
device (pairing, its ruleset, revocation on the screen and by the CLI); and the rate limits,
which must hold across both workers because they are counted in the store.
"""

from __future__ import annotations

import os
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from adjudicator.auth.lockout import LOGIN
from api_tests.conftest import (
    csrf_token,
    director_login,
    pair_tablet,
    start_server,
    store_cli,
)

pytestmark = pytest.mark.slow  # servers in both modes: left out of `make test-quick`

PASSWORD = "correct horse battery"
RATE = 5
PLAYER = {"X-Forwarded-For": "10.9.9.9"}  # behind the (simulated) proxy: the player's phone
DIRECTOR = {"X-Forwarded-For": "10.0.0.1"}  # the director's laptop
JUDGE = {"X-Requested-With": "judge"}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database(request, tmp_path_factory):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('auth-store') / 'adjudicator.db'}"
        return
    cluster = request.getfixturevalue("postgres_cluster")
    name = f"auth_http_{os.getpid()}"
    yield cluster.create_database(name)
    cluster.drop_database(name)


@pytest.fixture(scope="module")
def server(database, tmp_path_factory):
    assert store_cli(database, "db", "upgrade").returncode == 0
    made = store_cli(
        database, "directors", "add", "anna", "--password-stdin", stdin=PASSWORD + "\n"
    )
    assert made.returncode == 0, made.stderr
    srv = start_server(
        tmp_path_factory.mktemp("auth-gunicorn"),
        ADJUDICATOR_DATABASE_URL=database,
        ADJUDICATOR_MODE="tournament",
        ADJUDICATOR_RATE_RULINGS_PER_MINUTE=str(RATE),
        ADJUDICATOR_TRUSTED_PROXIES="1",
    )
    yield srv
    srv.stop()


def challenge(server, session=requests, ruleset="ssf-1999", headers=None):
    return session.post(
        server.api(f"/rulesets/{ruleset}/challenge"),
        json={"words": ["hej", "ord"]},
        headers=headers or {},
        timeout=10,
    )


def just_before_a_minute_ends(seconds: float = 2.5) -> None:
    """Wait until `seconds` before the next whole minute of the clock (the server's, too)."""
    time.sleep((60 - seconds - time.time() % 60) % 60)


def director_session(server) -> requests.Session:
    return director_login(server, "anna", PASSWORD, DIRECTOR)


def test_anonymous_callers_are_refused_lexicon_answers(server):
    refused = challenge(server)
    assert refused.status_code == 401
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "credential_required"
    assert "words" not in refused.text and "HEJ" not in refused.text
    assert requests.get(server.api("/healthz"), timeout=10).status_code == 200
    assert requests.get(server.api("/rulesets/ssf-1999"), timeout=10).status_code == 200
    assert requests.get(server.api("/auth/whoami"), timeout=10).json()["mode"] == "tournament"


def test_an_app_key_is_rate_limited_across_workers_and_revocable(server, database):
    made = store_cli(database, "keys", "create", "--role", "app", "--name", "scorer")
    assert made.returncode == 0, made.stderr
    key = made.stdout.strip()
    auth = {"Authorization": f"Bearer {key}"}
    # A new connection each time, so both workers answer: the count is the store's.
    statuses = [challenge(server, headers=auth).status_code for _ in range(RATE)]
    assert statuses == [200] * RATE
    limited = challenge(server, headers=auth)
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    other = store_cli(database, "keys", "create", "--role", "app", "--name", "other").stdout.strip()
    assert challenge(server, headers={"Authorization": f"Bearer {other}"}).status_code == 200
    listed = store_cli(database, "keys", "list").stdout
    assert "scorer" in listed and key not in listed
    scorer_line = next(line for line in listed.splitlines() if " scorer " in line)
    assert "never" not in scorer_line  # last use is recorded
    assert store_cli(database, "keys", "revoke", "scorer").returncode == 0
    revoked = challenge(server, headers=auth)
    assert revoked.status_code == 401 and revoked.json()["code"] == "credential_invalid"


def test_a_director_logs_in_and_a_player_cannot_lock_them_out(server):
    player = requests.Session()
    player.headers.update(PLAYER)
    for _ in range(LOGIN.attempts):
        wrong = player.post(
            f"{server.url}/director/login",
            data={"name": "anna", "password": "1234"},
            allow_redirects=False,
            timeout=10,
        )
        assert wrong.status_code == 401
    locked = player.post(
        f"{server.url}/director/login",
        data={"name": "anna", "password": PASSWORD},
        allow_redirects=False,
        timeout=10,
    )
    assert locked.status_code == 429 and int(locked.headers["Retry-After"]) > 0
    director = director_session(server)  # the director's own laptop gets in
    screen = director.get(f"{server.url}/director/", timeout=10)
    assert screen.status_code == 200 and "Director: anna" in screen.text
    assert challenge(server, director, headers=JUDGE).status_code == 200
    assert challenge(server, director).json()["code"] == "csrf_header_missing"
    logout = director.post(
        f"{server.url}/director/logout",
        data={"csrf": csrf_token(screen.text)},
        allow_redirects=False,
        timeout=10,
    )
    assert logout.status_code == 303
    assert director.get(f"{server.url}/director/", allow_redirects=False).status_code == 303


def test_text_with_a_nul_is_refused_not_a_500_on_either_store(server):
    """PostgreSQL refuses a NUL in any text: none may reach the store as a query parameter."""
    stranger = requests.post(
        f"{server.url}/director/login",
        data={"name": "an\x00na", "password": PASSWORD},
        headers={"X-Forwarded-For": "10.7.7.7"},
        allow_redirects=False,
        timeout=10,
    )
    assert stranger.status_code == 401, stranger.text
    director = director_session(server)
    search = director.get(server.api("/audit/rulings?q=%00"), timeout=10)
    assert search.status_code == 400 and search.json()["code"] == "not_printable", search.text
    screen = director.get(f"{server.url}/director/", timeout=10).text
    named = director.post(
        f"{server.url}/director/pairings",
        data={"csrf": csrf_token(screen), "name": "T\x00"},
        timeout=10,
    )
    assert named.status_code == 400, named.text


def test_the_session_cookie_is_secure_behind_tls(server):
    response = requests.post(
        f"{server.url}/director/login",
        data={"name": "anna", "password": PASSWORD},
        headers={**DIRECTOR, "X-Forwarded-Proto": "https"},
        allow_redirects=False,
        timeout=10,
    )
    assert response.status_code == 303
    cookie = response.headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_a_paired_tablet_rules_under_its_ruleset_until_revoked(server, database):
    director = director_session(server)
    tablet = pair_tablet(server, director, "Table 12")
    ruling = challenge(server, tablet, headers=JUDGE)
    assert ruling.status_code == 200 and ruling.json()["ruling"] == "valid"
    who = tablet.get(server.api("/auth/whoami"), timeout=10).json()
    assert who["kind"] == "device" and who["name"] == "Table 12"
    assert who["rulesets"] == ["ssf-1999"]
    assert challenge(server, tablet, "dsf-2015", headers=JUDGE).json()["code"] == "out_of_scope"
    # revoked on the director's screen
    screen = director.get(f"{server.url}/director/", timeout=10).text
    device_id = re.search(r'data-device="(\d+)" data-state="active"', screen).group(1)
    revoked = director.post(
        f"{server.url}/director/devices/{device_id}/revoke",
        data={"csrf": csrf_token(screen)},
        allow_redirects=False,
        timeout=10,
    )
    assert revoked.status_code == 303
    refused = challenge(server, tablet, headers=JUDGE)
    assert refused.status_code == 401 and refused.json()["code"] == "credential_invalid"
    # and by the command line
    second = pair_tablet(server, director, "Table 13")
    assert challenge(server, second, headers=JUDGE).status_code == 200
    listed = store_cli(database, "devices", "list").stdout
    line = next(line for line in listed.splitlines() if "Table 13" in line)
    assert store_cli(database, "devices", "revoke", line.split()[0]).returncode == 0
    assert challenge(server, second, headers=JUDGE).status_code == 401


def test_the_pairing_address_is_one_a_tablet_can_open(server):
    """Through the venue's proxy, the code and its QR name the host the director reached; on the
    laptop itself (127.0.0.1, which no tablet can open) the screen says the service is bound to
    loopback only, as `/` does (adjudicator.web.netaddrs.tablet_bases)."""
    director = director_session(server)
    venue = {**DIRECTOR, "X-Forwarded-Host": "judge.venue.example"}

    def screen(headers: dict[str, str]) -> str:
        csrf = csrf_token(director.get(f"{server.url}/director/", timeout=10).text)
        return director.post(
            f"{server.url}/director/pairings?lang=en",
            data={"csrf": csrf, "name": "Table 5", "ruleset": "ssf-1999"},
            headers=headers,
            timeout=10,
        ).text

    proxied = screen(venue)
    assert "<code>http://judge.venue.example/judge/pair</code>" in proxied
    assert "pairing-unreachable" not in proxied
    bind = server.url.removeprefix("http://")
    direct = screen({})  # the director's browser on the laptop, no proxy between
    assert f"listens on {bind} only: tablets cannot reach it" in direct
    assert 'id="pairing-unreachable"' in direct


def test_a_device_is_rate_limited(server):
    tablet = pair_tablet(server, director_session(server), "Table 14")
    statuses = [challenge(server, tablet, headers=JUDGE).status_code for _ in range(RATE + 1)]
    assert statuses == [200] * RATE + [429]


def verify(server, record: dict, session=requests, headers=None) -> requests.Response:
    return session.post(
        server.api("/rulesets/ssf-1999/games/verify"),
        json=record,
        headers=headers or {},
        timeout=10,
    )


# A word and its withdrawal, then a string the lexicon lacks and its withdrawal: a record of
# such pairs would be a ruling per play for one request (issue 27, break 5).
PHONIES = {
    "players": ["A", "B"],
    "turns": [
        {"player": "A", "type": "play", "move": "8H HEJ", "score": 20},
        {"player": "A", "type": "withdrawn", "score": -20},
        {"player": "B", "type": "play", "move": "8H JEH", "score": 20},
        {"player": "B", "type": "withdrawn", "score": -20},
    ],
}


def test_a_record_rules_on_words_for_a_director_only(server, database):
    """Issue 27, break 5: a key's or a device's verification gives scores and the rules check
    but no word's validity, is counted once answered, and costs nothing when refused."""
    key = store_cli(database, "keys", "create", "--role", "app", "--name", "verifier")
    auth = {"Authorization": f"Bearer {key.stdout.strip()}"}
    director = director_session(server)
    tablet = pair_tablet(server, director, "Table 15")
    for session, headers in ((requests, auth), (tablet, JUDGE)):
        for _ in range(RATE):  # malformed records: refused, and no ruling used up
            assert verify(server, {"players": ["A", "B"]}, session, headers).status_code == 400
        answers = [verify(server, PHONIES, session, headers) for _ in range(RATE + 1)]
        assert [a.status_code for a in answers] == [200] * RATE + [429]
        report = answers[0].json()
        assert report["lexicon"] is None
        assert [t["ruling"] for t in report["turns"]] == [None] * 4
        assert [t["computed_score"] for t in report["turns"]] == [20, -20, 20, -20]
    ruled = verify(server, PHONIES, director, JUDGE).json()
    assert ruled["lexicon"] == "wswedish"
    assert [t["ruling"] for t in ruled["turns"]] == ["valid", None, "invalid", None]


# On SQLite only: it waits for a minute to end (30 s on average), and the count is the same code
# on both stores, pinned at the boundary on each by adjudicator/auth/tests/test_ratelimit.py.
@pytest.mark.slow
@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_a_burst_straddling_a_minute_boundary_is_refused_past_the_limit(server, database):
    """The limit holds over any 60 seconds: the limit just before a minute ends leaves nothing
    for just after it (a count per calendar minute allowed twice the limit here)."""
    key = store_cli(
        database, "keys", "create", "--role", "app", "--name", "boundary"
    ).stdout.strip()
    auth = {"Authorization": f"Bearer {key}"}
    just_before_a_minute_ends()
    start = time.time()
    boundary = (start // 60 + 1) * 60
    before = [challenge(server, headers=auth).status_code for _ in range(RATE)]
    assert before == [200] * RATE
    time.sleep(max(0.0, boundary + 0.5 - time.time()))  # into the next minute
    after = challenge(server, headers=auth)
    assert after.status_code == 429, "the limit was given again at the minute's boundary"
    # Until the first of the burst is a minute old, in whole seconds rounded up.
    wait = int(after.headers["Retry-After"])
    assert 60 - (time.time() - start) <= wait <= 58


def test_wrong_passwords_sent_at_once_get_exactly_the_allowed_tries(server):
    """Both workers checking passwords for one client at the same time: the count is taken in
    turn before each check, so exactly `LOGIN.attempts` (5) are checked and the rest wait."""
    client = {"X-Forwarded-For": "10.7.7.7"}

    def wrong(i):
        return requests.post(
            f"{server.url}/director/login",
            data={"name": "anna", "password": f"wrong guess {i}"},
            headers=client,
            allow_redirects=False,
            timeout=30,
        ).status_code

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(wrong, range(12)))
    assert sorted(statuses) == [401] * LOGIN.attempts + [429] * (12 - LOGIN.attempts)


def test_a_changed_password_ends_the_directors_sessions_at_once(server, database):
    made = store_cli(
        database, "directors", "add", "carl", "--password-stdin", stdin=PASSWORD + "\n"
    )
    assert made.returncode == 0, made.stderr
    session = requests.Session()
    session.headers.update({"X-Forwarded-For": "10.0.0.3"})
    login = {"name": "carl", "password": PASSWORD}
    url = f"{server.url}/director/login"
    assert session.post(url, data=login, allow_redirects=False, timeout=10).status_code == 303
    assert session.get(f"{server.url}/director/", allow_redirects=False).status_code == 200
    new = "a much better passphrase"
    changed = store_cli(
        database, "directors", "passwd", "carl", "--password-stdin", stdin=new + "\n"
    )
    assert changed.returncode == 0 and "1 session(s) ended" in changed.stdout, changed.stderr
    assert session.get(f"{server.url}/director/", allow_redirects=False).status_code == 303
    assert challenge(server, session, headers=JUDGE).json()["code"] == "credential_invalid"
    again = {"name": "carl", "password": new}
    assert session.post(url, data=again, allow_redirects=False, timeout=10).status_code == 303
