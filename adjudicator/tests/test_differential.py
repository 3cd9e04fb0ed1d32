"""Disclosure, differentially and in process: every route, every ruleset, two lexicons.

See `differential.py`: under `play`, a lexicon lacking CATS and one lacking SO must give
byte-identical answers to every request; under `word` the word endpoints must tell them apart.
"""

from __future__ import annotations

import pytest

from adjudicator import create_app
from adjudicator.settings import current_settings
from adjudicator.tests.differential import (
    CARD,
    PIN,
    UNKNOWN_ROUTES,
    build_edition_pair,
    build_pair,
    card_is_public,
    checksums,
    comparable,
    requests_for,
)

WORD_ENDPOINTS = {
    "challenge.challenge",
    "moves.validate",
    "games.verify_game",
    "games.board_picture",
}


@pytest.fixture(scope="module")
def apps(tmp_path_factory):
    dir_a, dir_b = build_pair(tmp_path_factory.mktemp("differential"))
    config = {"TESTING": True, "JUDGE_PIN": PIN}
    # each its own store, so that state a request leaves (a wrong PIN's count) is alike in both
    stores = tmp_path_factory.mktemp("differential-stores")
    app_a = create_app(
        {**config, "LEXICON_DIR": str(dir_a), "DATABASE_URL": f"sqlite:///{stores / 'a.db'}"}
    )
    app_b = create_app(
        {**config, "LEXICON_DIR": str(dir_b), "DATABASE_URL": f"sqlite:///{stores / 'b.db'}"}
    )
    return app_a, app_b, checksums(dir_a) + checksums(dir_b)


def _send(client, req, headers=None):
    kwargs = {"query_string": req.query, "headers": {**req.headers, **(headers or {})}}
    if req.json is not None:
        kwargs["json"] = req.json
    elif req.data is not None:
        kwargs["data"] = req.data
    return client.open(req.path, method=req.method, **kwargs)


def _answers(apps, policy: str):
    app_a, app_b, sums = apps
    ids = sorted(
        r.id for r in app_a.extensions["rulesets"].values() if r.disclosure.policy == policy
    )
    assert ids, f"no {policy} ruleset to test"
    reqs, unknown = requests_for(app_a, ids + (["no-such-ruleset"] if policy == "play" else []))
    assert not unknown, UNKNOWN_ROUTES + "; ".join(unknown)
    a, b = app_a.test_client(), app_b.test_client()
    for ruleset, endpoint, req in reqs:
        ra, rb = _send(a, req), _send(b, req)
        yield (
            ruleset,
            endpoint,
            req,
            comparable(ra.status_code, list(ra.headers), ra.get_data(), sums),
            comparable(rb.status_code, list(rb.headers), rb.get_data(), sums),
        )


def test_every_route_is_identical_under_play(apps):
    seen, public_cards = set(), set()
    for ruleset, endpoint, req, a, b in _answers(apps, "play"):
        seen.add(endpoint)
        if endpoint == CARD and card_is_public(apps[0], ruleset):
            # The ruleset puts the card on every table: its words are meant to be read (a HEAD's
            # Content-Length says as much; an OPTIONS says nothing of them).
            if req.method == "GET":
                assert a[0] == b[0] == 200 and a != b, f"{ruleset}: {req.label()}"
            public_cards.add(ruleset)
            continue
        assert a == b, f"{ruleset} {endpoint}: {req.label()}\nA: {a}\nB: {b}"
    assert WORD_ENDPOINTS | {CARD} <= seen
    play = {r.id for r in apps[0].extensions["rulesets"].values() if r.disclosure.policy == "play"}
    assert public_cards == {r for r in play if card_is_public(apps[0], r)}


def test_word_policy_tells_the_lexicons_apart(apps):
    """The requests do reach the lexicon: under `word` the answers must differ."""
    differing = {
        endpoint for _, endpoint, _, a, b in _answers(apps, "word") if a != b and a[0] == 200
    }
    # sbnl-punten (word policy since 003 lets the jury answer each word) puts its card on every
    # table (003): the card lists the lexicon's words, so it differs too
    assert WORD_ENDPOINTS | {CARD} <= differing


def test_the_play_forms_both_words(apps):
    """Both lexicons find the play invalid (each lacks one of its words)."""
    app_a, app_b, _ = apps
    for app in (app_a, app_b):
        body = {"plays": ["H7 CAT"], "play": "10H SO"}
        r = app.test_client().post("/api/v1/rulesets/naspa/moves/validate", json=body)
        assert r.status_code == 200 and r.json["legal"], r.json
        assert sorted(w["word"] for w in r.json["words"]) == ["CATS", "SO"]
        assert r.json["ruling"] == "invalid"


def test_an_unregistered_route_fails_with_advice(apps):
    app_a, _, _ = apps
    app = create_app({"TESTING": True, "LEXICON_DIR": current_settings(app_a).lexicon_dir})
    app.add_url_rule("/api/v1/rulesets/<ruleset_id>/new-thing", "new.thing", lambda **_: "")
    _, unknown = requests_for(app, ["naspa"])
    assert unknown == ["new.thing (/api/v1/rulesets/<ruleset_id>/new-thing)"]


# --- a second opinion is the director's alone (issue 39 item 2) ----------------------------

PASSWORD = "correct horse battery staple"


def _tournament(lexicons, rulesets, db):
    """A tournament app with a director, an app key and a paired tablet: (app, director client,
    tablet client, the key's headers)."""
    import re

    from adjudicator import store
    from adjudicator.auth import directors, keys, store_time

    app = create_app(
        {
            "TESTING": True,
            "JUDGE_PIN": PIN,
            "MODE": "tournament",
            # every request is a ruling to compare, never a 429 whose Retry-After is the clock's
            "RATE_RULINGS_PER_MINUTE": 100_000,
            "LEXICON_DIR": str(lexicons),
            "RULESET_DIR": str(rulesets),
            "DATABASE_URL": f"sqlite:///{db}",
        }
    )
    with app.app_context(), store.connection(write=True) as conn:
        directors.add(conn, "anna", PASSWORD, store_time.now())
        known = set(app.extensions["rulesets"])
        key = keys.create(conn, "K1", "app", [], known, store_time.now()).key
    director = app.test_client()
    director.post("/director/login", data={"name": "anna", "password": PASSWORD})
    csrf = re.search(r'name="csrf" value="([^"]+)"', director.get("/director/").text)[1]
    shown = director.post(
        "/director/pairings", data={"csrf": csrf, "name": "Bord 1", "ruleset": "dsf-2015"}
    ).text
    code = re.search(r'id="pairing-code">([^<]+)<', shown)[1]
    tablet = app.test_client()
    assert tablet.post("/judge/pair", data={"code": code}).status_code == 303
    return app, director, tablet, {"Authorization": f"Bearer {key}"}


@pytest.fixture(scope="module")
def edition_apps(tmp_path_factory):
    root = tmp_path_factory.mktemp("differential-editions")
    dir_a, dir_b, rulesets = build_edition_pair(root)
    a = _tournament(dir_a, rulesets, root / "a.db")
    b = _tournament(dir_b, rulesets, root / "b.db")
    return a, b, checksums(dir_a) + checksums(dir_b)


def test_no_tablet_key_or_anonymous_caller_learns_another_editions_verdict(edition_apps):
    """Two services whose previous editions differ (A's lacks CATS, B's lacks SO) and whose
    edition in force is the same: under every ruleset, both policies, every route gives a
    paired tablet, an app key and an anonymous caller byte-identical answers. A second opinion
    is computed for the director only (the next test shows it differs)."""
    (app_a, _, tablet_a, key_a), (app_b, _, tablet_b, key_b), sums = edition_apps
    ids = sorted(app_a.extensions["rulesets"])
    reqs, unknown = requests_for(app_a, ids)
    assert not unknown, UNKNOWN_ROUTES + "; ".join(unknown)
    callers = {
        "anonymous": (app_a.test_client(), {}, app_b.test_client(), {}),
        "tablet": (tablet_a, {}, tablet_b, {}),
        "key": (app_a.test_client(), key_a, app_b.test_client(), key_b),
    }
    answered = set()
    for who, (client_a, headers_a, client_b, headers_b) in callers.items():
        for ruleset, endpoint, req in reqs:
            if endpoint in ("auth.pair", "auth.logout"):
                continue  # would unpair the tablet for the requests after it
            ra = _send(client_a, req, headers_a)
            rb = _send(client_b, req, headers_b)
            a = comparable(ra.status_code, list(ra.headers), ra.get_data(), sums)
            b = comparable(rb.status_code, list(rb.headers), rb.get_data(), sums)
            assert a == b, f"{who} {ruleset} {endpoint}: {req.label()}\nA: {a}\nB: {b}"
            assert ra.status_code != 429, f"{who} {endpoint}: refused, not compared"
            if endpoint == "challenge.challenge" and ra.status_code == 200:
                answered.add(who)
    assert {"tablet", "key"} <= answered  # the rulings were given, not refused


def test_the_directors_page_shows_each_services_previous_edition(edition_apps):
    """The same disputed ruling: A's director reads that the previous edition lacked CATS, B's
    that it lacked SO. The requests above did reach the other editions' words."""
    pages = []
    for _, director, tablet, _ in edition_apps[:2]:
        ruled = tablet.post(
            "/api/v1/rulesets/dsf-2015/challenge",
            json={"words": ["cats", "so", "xqz"]},
            headers={"X-Requested-With": "fetch"},
        )
        assert ruled.status_code == 200 and ruled.json["ruling"] == "invalid", ruled.json
        pages.append(director.get("/director/rulings?ruleset=dsf-2015").get_data(as_text=True))
    page_a, page_b = pages
    assert "differs on CATS" in page_a and "differs on SO" not in page_a
    assert "differs on SO" in page_b and "differs on CATS" not in page_b
