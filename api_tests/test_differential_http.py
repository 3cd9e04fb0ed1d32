"""Disclosure, differentially and over HTTP: two gunicorns, each on a lexicon lacking a different
word of one play, must give byte-identical answers (status, headers but Date, body) to every
route under every `play` ruleset. The routes are the app's own (`adjudicator/tests/differential`).
"""

from __future__ import annotations

import pytest
import requests

from adjudicator import create_app
from adjudicator.tests.differential import (
    CARD,
    PIN,
    UNKNOWN_ROUTES,
    build_pair,
    card_is_public,
    checksums,
    comparable,
    requests_for,
)
from api_tests.conftest import start_server


def _two_servers(root, dir_a, dir_b, **env):
    """Two gunicorns, one per lexicon folder, each its own store (so that state a request
    leaves, a wrong PIN's count, is alike in both), and an app of A's to list the routes; the
    fixture's value, stopped after the module."""
    # One published URL for both: openapi.json's `servers` would otherwise name each one's port.
    env |= {"ADJUDICATOR_JUDGE_PIN": PIN, "ADJUDICATOR_PUBLIC_URL": "http://adjudicator.test"}
    started = []
    try:
        for folder, store in ((dir_a, "a.db"), (dir_b, "b.db")):
            url = f"sqlite:///{root / store}"
            started.append(
                start_server(
                    root, ADJUDICATOR_LEXICON_DIR=str(folder), ADJUDICATOR_DATABASE_URL=url, **env
                )
            )
        config = {"TESTING": True, "LEXICON_DIR": str(dir_a)}
        if "ADJUDICATOR_RULESET_DIR" in env:
            config["RULESET_DIR"] = env["ADJUDICATOR_RULESET_DIR"]
        yield create_app(config), *started, checksums(dir_a) + checksums(dir_b)
    finally:
        for server in started:
            server.stop()


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    root = tmp_path_factory.mktemp("differential-http")
    yield from _two_servers(root, *build_pair(root))


def _send(session: requests.Session, base: str, req) -> requests.Response:
    return session.request(
        req.method,
        base + req.path,
        params=req.query,
        json=req.json,
        data=req.data,
        headers=req.headers,
        timeout=30,
        allow_redirects=False,
    )


def test_every_route_is_identical_under_play_over_http(pair):
    app, a, b, sums = pair
    ids = sorted(r.id for r in app.extensions["rulesets"].values() if r.disclosure.policy == "play")
    reqs, unknown = requests_for(app, ids)
    assert not unknown, UNKNOWN_ROUTES + "; ".join(unknown)
    with requests.Session() as sa, requests.Session() as sb:
        for ruleset, endpoint, req in reqs:
            ra, rb = _send(sa, a.url, req), _send(sb, b.url, req)
            got_a = comparable(ra.status_code, list(ra.headers.items()), ra.content, sums)
            got_b = comparable(rb.status_code, list(rb.headers.items()), rb.content, sums)
            if endpoint == CARD and card_is_public(app, ruleset):  # 003: on every table
                if req.method == "GET":  # a HEAD's Content-Length differs as the body does
                    assert ra.status_code == rb.status_code == 200 and got_a != got_b, req.label()
                continue
            assert got_a == got_b, f"{ruleset} {endpoint}: {req.label()}\nA: {got_a}\nB: {got_b}"
            assert ra.status_code < 500, (endpoint, req.label(), ra.text[:300])


def test_word_policy_differs_over_http(pair):
    """The same requests under `word` do tell the lexicons apart: the test can fail."""
    app, a, b, sums = pair
    reqs, _ = requests_for(app, ["dsf-2015"])
    with requests.Session() as s:
        differing = {
            endpoint
            for _, endpoint, req in reqs
            if comparable(*_parts(_send(s, a.url, req)), sums)
            != comparable(*_parts(_send(s, b.url, req)), sums)
        }
    assert {"challenge.challenge", "moves.validate", "games.verify_game"} <= differing


def _parts(r: requests.Response):
    return r.status_code, list(r.headers.items()), r.content


@pytest.fixture(scope="module")
def edition_pair(tmp_path_factory):
    """Two gunicorns whose edition in force is the same and whose previous editions differ
    (issue 39 item 2: `differential.build_edition_pair`)."""
    from adjudicator.tests.differential import build_edition_pair

    root = tmp_path_factory.mktemp("differential-editions-http")
    dir_a, dir_b, rulesets = build_edition_pair(root)
    yield from _two_servers(root, dir_a, dir_b, ADJUDICATOR_RULESET_DIR=str(rulesets))


def test_another_editions_verdict_stays_with_the_director_over_http(edition_pair):
    """Every route, every ruleset, both policies: the previous editions differ, the edition in
    force does not, and an anonymous caller's answers are byte-identical."""
    app, a, b, sums = edition_pair
    reqs, unknown = requests_for(app, sorted(app.extensions["rulesets"]))
    assert not unknown, UNKNOWN_ROUTES + "; ".join(unknown)
    with requests.Session() as sa, requests.Session() as sb:
        for ruleset, endpoint, req in reqs:
            ra, rb = _send(sa, a.url, req), _send(sb, b.url, req)
            got_a = comparable(ra.status_code, list(ra.headers.items()), ra.content, sums)
            got_b = comparable(rb.status_code, list(rb.headers.items()), rb.content, sums)
            assert got_a == got_b, f"{ruleset} {endpoint}: {req.label()}\nA: {got_a}\nB: {got_b}"
