"""The guard: every route is declared, anonymous callers are refused in tournament mode only,
credentials are checked and scoped, and devices and keys are rate-limited per credential."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import text

from adjudicator.auth import guard
from adjudicator.settings import ConfigError

from .conftest import (
    JUDGE_HEADER,
    add_director,
    add_key,
    bearer,
    challenge,
    login,
    pair,
    pairing_code,
)

# The routes whose answer depends on which words are valid. A new one must be added here AND
# marked `@lexicon_dependent`; a new public route must be listed below with its reason.
LEXICON_DEPENDENT = {
    "challenge.challenge",
    "moves.validate",
    "games.verify_game",
    "games.board_picture",  # a record's picture is captioned with verify's disclosed ruling
    "challenge.jury_words_left",  # no word, but a player's jury count: a query's credential
}
PUBLIC = {
    "meta.healthz": "liveness",
    "meta.readyz": "readiness for load balancers",
    "meta.openapi": "the API's description",
    "lexicons.list_lexicons": "manifest summaries, never a word",
    "challenge.list_rulesets": "rules and lexicon identity, never a word",
    "challenge.get_ruleset": "rules and lexicon identity, never a word",
    "games.exchange_allowed": "decided by the bag and the turn",
    "games.final_score_route": "decided by racks and scores",
    "games.draw_order_route": "decided by the tiles drawn for who starts",
    "judge.index": "the kiosk's set-up page",
    "judge.kiosk": "the kiosk page: letters of the alphabet, no word",
    "judge.unlock": "the kiosk's PIN, limited per device",
    "landing.landing": "what runs here: rulesets and kiosk addresses, no word",
    "auth.login_form": "how a director gets a session",
    "auth.login": "how a director gets a session",
    "auth.pair_form": "how a tablet gets a device token",
    "auth.pair": "how a tablet gets a device token",
    "auth.whoami": "says which credential the request carried",
    # The view decides by the ruleset's [card]: a director's session is asked for otherwise
    # (adjudicator/auth/tests/test_two_letter_card.py).
    "card.two_letter_card": "the two-letter card, where the ruleset makes it public (003)",
}


def _endpoints(app):
    return {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if not (rule.endpoint == "static" or rule.endpoint.endswith(".static"))
    }


def test_every_route_is_declared(tournament):
    unmarked = {e for e in _endpoints(tournament) if guard.access_of(tournament, e) is None}
    assert not unmarked, f"routes without an access marker: {sorted(unmarked)}"
    by_access = {e: guard.access_of(tournament, e) for e in _endpoints(tournament)}
    assert {e for e, a in by_access.items() if a == guard.LEXICON_DEPENDENT} == LEXICON_DEPENDENT
    assert {e for e, a in by_access.items() if a == guard.PUBLIC} == set(PUBLIC)
    directors_only = {e for e, a in by_access.items() if a == guard.DIRECTORS_ONLY}
    assert directors_only and all(e.startswith(("auth.", "audit.")) for e in directors_only)


def _concrete(rule) -> str:
    return re.sub(
        r"<(?:int:)?[^>]+>", lambda m: "1" if "int:" in m.group(0) else "ssf-1999", rule.rule
    )


def test_anonymous_callers_in_tournament_mode(tournament):
    """Enumerate the URL map: each non-public route refuses an anonymous caller."""
    client = tournament.test_client()
    for rule in tournament.url_map.iter_rules():
        access = guard.access_of(tournament, rule.endpoint)
        if rule.endpoint.endswith("static") or access == guard.PUBLIC:
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = client.open(_concrete(rule), method=method, json={})
            if access == guard.DIRECTORS_ONLY and rule.rule.startswith("/api/"):
                assert response.status_code == 401, rule.rule  # JSON for an API client
                assert response.json["code"] == "director_required"
            elif access == guard.DIRECTORS_ONLY:
                assert response.status_code == 303, rule.rule
                assert response.location.startswith("/director/login"), rule.rule
            else:
                assert response.status_code == 401, (rule.rule, response.json)
                assert response.json["code"] == "credential_required"
                assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_a_cors_preflight_needs_no_credential(make_app):
    app = make_app(MODE="tournament", CORS_ORIGINS="https://scores.example")
    preflight = app.test_client().options(
        "/api/v1/rulesets/ssf-1999/challenge",
        headers={"Origin": "https://scores.example", "Access-Control-Request-Method": "POST"},
    )
    assert preflight.status_code == 200
    assert "Authorization" in preflight.headers["Access-Control-Allow-Headers"]


def test_metrics_when_on_are_declared_public(make_app):
    app = make_app(MODE="tournament", METRICS=1)
    assert guard.access_of(app, "metrics") == guard.PUBLIC  # guarded by its network allow-list
    assert app.test_client().get("/metrics").status_code == 200


def test_unmarked_routes_fail_closed(make_app):
    app = make_app(MODE="tournament")

    @app.post("/api/v1/new-thing")
    def new_thing():
        return {"words": "secret"}

    assert guard.access_of(app, "new_thing") is None
    assert app.test_client().post("/api/v1/new-thing", json={}).status_code == 401


def test_open_mode_is_todays_behaviour(make_app):
    client = make_app().test_client()
    response = challenge(client)
    assert response.status_code == 200 and response.json["ruling"] == "valid"


def test_public_routes_stay_public_in_tournament_mode(tournament):
    client = tournament.test_client()
    for path in ("/api/v1/healthz", "/api/v1/lexicons", "/api/v1/rulesets/ssf-1999", "/judge/"):
        assert client.get(path).status_code == 200, path
    assert client.get("/api/v1/auth/whoami").json["kind"] == "anonymous"


@pytest.mark.parametrize("mode", ["open", "tournament"])
def test_a_bad_credential_is_refused_in_every_mode(make_app, mode):
    client = make_app(MODE=mode).test_client()
    response = challenge(client, headers=bearer("adj_app_not-a-key"))
    assert response.status_code == 401
    assert response.json["code"] == "credential_invalid"
    response = challenge(client, headers={"Authorization": "Basic YW5uYTpwdw=="})
    assert response.json["code"] == "bad_authorization"


def test_app_keys_are_scoped_and_counted_per_key(tournament, frozen):
    frozen.at = frozen.at.replace(second=1)  # all in one minute
    client = tournament.test_client()
    scoped = add_key(tournament, "scorer", ["ssf-1999"])
    other = add_key(tournament, "other")
    assert challenge(client, headers=bearer(scoped)).status_code == 200
    refused = challenge(client, "dsf-2015", headers=bearer(scoped))
    assert refused.status_code == 403 and refused.json["code"] == "out_of_scope"
    assert client.get("/api/v1/auth/whoami", headers=bearer(scoped)).json == {
        "kind": "app",
        "id": "1",
        "name": "scorer",
        "rulesets": ["ssf-1999"],
        "mode": "tournament",
    }
    for _ in range(2):  # 3 a minute; the refusal out of scope was not a ruling
        assert challenge(client, headers=bearer(scoped)).status_code == 200
    limited = challenge(client, headers=bearer(scoped))
    assert limited.status_code == 429
    assert limited.json["code"] == "rate_limited"
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    assert challenge(client, headers=bearer(other)).status_code == 200  # never global


def test_rate_limit_is_per_minute(tournament, frozen):
    client = tournament.test_client()
    key = add_key(tournament)
    frozen.at = frozen.at.replace(second=5)
    statuses = [challenge(client, headers=bearer(key)).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    frozen.advance(60)
    assert challenge(client, headers=bearer(key)).status_code == 200


def test_open_mode_does_not_rate_limit(make_app):
    app = make_app(RATE_RULINGS_PER_MINUTE=1)
    key = add_key(app)
    client = app.test_client()
    assert all(challenge(client, headers=bearer(key)).status_code == 200 for _ in range(3))


def test_a_paired_device_rules_only_under_its_ruleset(tournament):
    add_director(tournament)
    director = tournament.test_client()
    login(director)
    tablet = tournament.test_client()
    assert pair(tablet, pairing_code(director, "Table 7", "ssf-1999")).status_code == 303
    response = challenge(tablet, headers=JUDGE_HEADER)
    assert response.status_code == 200
    assert challenge(tablet, "dsf-2015", headers=JUDGE_HEADER).status_code == 403
    who = tablet.get("/api/v1/auth/whoami").json
    assert who["kind"] == "device" and who["name"] == "Table 7"


def test_cookie_credentials_need_the_custom_header(tournament):
    add_director(tournament)
    director = tournament.test_client()
    login(director)
    refused = challenge(director)  # a cross-site form could send this; it cannot set a header
    assert refused.status_code == 403
    assert refused.json["code"] == "csrf_header_missing"
    assert challenge(director, headers=JUDGE_HEADER).status_code == 200


def test_directors_are_not_rate_limited(tournament):
    add_director(tournament)
    director = tournament.test_client()
    login(director)
    assert all(challenge(director, headers=JUDGE_HEADER).status_code == 200 for _ in range(5))


@pytest.mark.parametrize(
    ("key", "value"),
    [("MODE", "club"), ("RATE_RULINGS_PER_MINUTE", 0), ("SESSION_HOURS", "five")],
)
def test_bad_settings_stop_the_start(make_app, key, value):
    with pytest.raises(ConfigError, match=f"ADJUDICATOR_{key}"):
        make_app(**{key: value})


def verify(client, headers: dict):
    """games/verify with the shortest record: not a ruling, but lexicon-dependent."""
    record = {"players": ["A", "B"], "turns": [{"player": "A", "type": "pass"}]}
    return client.post("/api/v1/rulesets/ssf-1999/games/verify", json=record, headers=headers)


@pytest.fixture
def opened(monkeypatch) -> list[bool]:
    """Every connection requests open through the store, in order: True for a write (a read
    outside a transaction, `Store.reading`, is a read too)."""
    from adjudicator import store

    seen: list[bool] = []
    real = store.Store.connection
    real_reading = store.Store.reading

    def spy(self, write=False, durable=True):
        seen.append(write)
        return real(self, write, durable)

    def spy_reading(self):
        seen.append(False)
        return real_reading(self)

    monkeypatch.setattr(store.Store, "connection", spy)
    monkeypatch.setattr(store.Store, "reading", spy_reading)
    return seen


def test_a_ruling_settles_its_bookkeeping_in_its_own_transaction(tournament, opened):
    """For a ruling the guard only reads: the key's rate count and last use are written with the
    ruling's audit entry, in one write transaction instead of two."""
    from adjudicator import store
    from adjudicator.auth import keys

    key = add_key(tournament)
    client = tournament.test_client()
    opened.clear()
    assert challenge(client, headers=bearer(key)).status_code == 200
    assert opened == [False]  # the guard's read; the ruling's batch has its own connection
    with tournament.app_context(), store.connection() as conn:
        (listed,) = keys.listed(conn)
        hits = conn.execute(text("SELECT count(*) FROM rate_hits")).scalar_one()
    assert listed["last_used_at"] is not None and hits == 1


JUNK = {
    "app key": {"headers": bearer("adj_app_" + "x" * 40)},
    "device token": {"headers": bearer("adj_dev_" + "x" * 40)},
    "other token": {"headers": bearer("not-ours")},
    "session cookie": {"cookies": {guard.SESSION_COOKIE: "x" * 40}},
    "device cookie": {"cookies": {guard.DEVICE_COOKIE: "x" * 40}},
}


@pytest.mark.parametrize("mode", ["open", "tournament"])
@pytest.mark.parametrize("junk", sorted(JUNK))
def test_a_junk_credential_never_takes_the_write_turn(make_app, opened, mode, junk):
    """Resolving a credential is a read. A write would queue a forged token behind (and ahead
    of) the audit log's commits, so a player could slow every table's rulings with junk."""
    app = make_app(MODE=mode)
    client = app.test_client()
    sent = JUNK[junk]
    for name, value in sent.get("cookies", {}).items():
        client.set_cookie(name, value)
    headers = {**sent.get("headers", {}), **JUDGE_HEADER}
    opened.clear()
    answers = [
        challenge(client, headers=headers),
        verify(client, headers),
        client.get("/api/v1/auth/whoami", headers=headers),
        client.get("/director/", headers=headers),
    ]
    assert opened and not any(opened), opened
    ruled = [a.status_code for a in answers[:2]]
    refused = mode == "tournament" or "headers" in sent  # a junk cookie is no credential
    assert ruled == ([401, 401] if refused else [200, 200])
    assert answers[3].status_code in (303, 401)  # to the login page, or the bad token refused


def test_a_last_use_is_written_at_most_once_a_minute(make_app, frozen, opened):
    """In open mode a key is not counted, and its last use is written only when it is due: most
    requests with a credential write nothing."""
    from adjudicator import store
    from adjudicator.auth import keys

    app = make_app()
    key = add_key(app)
    client = app.test_client()

    def last_used():
        with app.app_context(), store.connection() as conn:
            return keys.listed(conn)[0]["last_used_at"]

    opened.clear()
    assert client.get("/api/v1/auth/whoami", headers=bearer(key)).json["kind"] == "app"
    assert opened == [False, True] and last_used() == frozen.at
    opened.clear()
    frozen.advance(30)
    assert client.get("/api/v1/auth/whoami", headers=bearer(key)).status_code == 200
    assert challenge(client, headers=bearer(key)).status_code == 200
    assert opened == [False, False] and last_used() == frozen.at - timedelta(seconds=30)
    frozen.advance(31)
    opened.clear()
    assert challenge(client, headers=bearer(key)).status_code == 200
    assert opened == [False] and last_used() == frozen.at  # in the ruling's own transaction


def test_an_endpoint_that_is_not_a_ruling_counts_in_a_write_of_its_own(tournament, opened):
    key = add_key(tournament)
    client = tournament.test_client()
    opened.clear()
    response = verify(client, bearer(key))
    assert response.status_code == 200 and opened[:2] == [False, True]


def test_a_retried_ruling_is_not_counted_again(tournament):
    key = add_key(tournament)  # the tournament fixture allows 3 rulings a minute
    client = tournament.test_client()
    retried = {**bearer(key), "Idempotency-Key": "table-4-move-12"}
    assert all(challenge(client, headers=retried).status_code == 200 for _ in range(5))
    statuses = [challenge(client, headers=bearer(key)).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]


def test_a_verification_is_counted_once_answered(tournament):
    key = add_key(tournament)
    client = tournament.test_client()
    assert [verify(client, bearer(key)).status_code for _ in range(4)] == [200, 200, 200, 429]


class Busy:
    """A worker's budget for records that is spent: every verification is refused."""

    def retry_after(self) -> int:
        return 7

    def spend(self, seconds: float) -> None:
        raise AssertionError("a refused verification runs nothing")


def test_a_refused_verification_uses_up_no_ruling(tournament):
    """Issue 27, break 5: a verification refused (its worker busy, or its body malformed) gave
    nothing, so it leaves the credential's rulings for the minute untouched."""
    key = add_key(tournament)  # 3 rulings a minute
    client = tournament.test_client()
    url = "/api/v1/rulesets/ssf-1999/games/verify"
    for _ in range(3):
        malformed = client.post(url, json={"players": ["A", "B"]}, headers=bearer(key))
        assert malformed.status_code == 400
    tournament.extensions["verify_budget"] = Busy()
    for _ in range(3):
        busy = verify(client, bearer(key))
        assert busy.status_code == 429 and busy.json["code"] == "verify_busy"
    tournament.extensions["verify_budget"] = None
    assert [verify(client, bearer(key)).status_code for _ in range(4)] == [200, 200, 200, 429]


# A play and its withdrawal, twice: first a word the test lexicon holds, then one it lacks. A
# record of many such pairs would be as many rulings for one request (issue 27, break 5).
PHONIES = {
    "players": ["A", "B"],
    "turns": [
        {"player": "A", "type": "play", "move": "8H KAT", "score": 12},
        {"player": "A", "type": "withdrawn", "score": -12},
        {"player": "B", "type": "play", "move": "8H TAK", "score": 12},
        {"player": "B", "type": "withdrawn", "score": -12},
    ],
}
VERIFY_WORD_POLICY = "/api/v1/rulesets/dsf-2015/games/verify"


def _verified(client, headers: dict) -> dict:
    answer = client.post(VERIFY_WORD_POLICY, json=PHONIES, headers=headers)
    assert answer.status_code == 200, answer.json
    return answer.json


def test_in_tournament_mode_only_a_director_learns_from_verify_which_plays_are_words(tournament):
    """Issue 27, break 5: games/verify gives a device or an app key the scores and the rules
    check but no word's validity (no lexicon consulted), so it is no ruling oracle outside the
    rate limit and the audit log; a director, who may see the log anyway, gets the rulings."""
    add_director(tournament)
    director = tournament.test_client()
    login(director)
    tablet = tournament.test_client()
    assert pair(tablet, pairing_code(director, "Table 9", "dsf-2015")).status_code == 303
    key = add_key(tournament)
    for report in (
        _verified(tournament.test_client(), bearer(key)),
        _verified(tablet, JUDGE_HEADER),
    ):
        assert report["lexicon"] is None
        assert [t["ruling"] for t in report["turns"]] == [None] * 4
        assert [t["not_in_lexicon"] for t in report["turns"]] == [None] * 4
        assert [t["computed_score"] for t in report["turns"]] == [12, -12, 12, -12]
        assert [t["words"] for t in report["turns"]] == [["KAT"], [], ["TAK"], []]
    ruled = _verified(director, JUDGE_HEADER)
    assert ruled["lexicon"] == "wdanish"
    assert [t["ruling"] for t in ruled["turns"]] == ["valid", None, "invalid", None]
    assert ruled["turns"][2]["not_in_lexicon"] == ["TAK"]


def test_in_open_mode_verify_still_rules_on_the_words(make_app):
    app = make_app()
    key = add_key(app)
    for headers in ({}, bearer(key)):
        report = _verified(app.test_client(), headers)
        assert [t["ruling"] for t in report["turns"]] == ["valid", None, "invalid", None]


@pytest.mark.parametrize("mode", ["open", "tournament"])
def test_cookies_that_are_not_ours_are_no_credential(make_app, opened, mode):
    """Only our two cookies (or an Authorization header) send the guard to the store: a
    browser's other cookies leave the caller anonymous, with no lookup."""
    app = make_app(MODE=mode)
    client = app.test_client()
    client.set_cookie("lang", "da")
    client.set_cookie("adj_session_other", "x" * 40)
    opened.clear()
    answer = challenge(client, headers=JUDGE_HEADER)
    assert opened == []
    if mode == "tournament":
        assert answer.status_code == 401
        assert answer.json["code"] == "credential_required"
    else:
        assert answer.status_code == 200
    client.set_cookie(guard.SESSION_COOKIE, "x" * 40)
    opened.clear()
    answer = challenge(client, headers=JUDGE_HEADER)
    assert opened and not any(opened)  # now looked up (a read), and found to be no session
    if mode == "tournament":
        assert answer.json["code"] == "credential_invalid"
