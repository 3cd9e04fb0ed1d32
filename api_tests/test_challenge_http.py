"""The challenge API over real HTTP, against gunicorn serving the bundled lexicons."""

from __future__ import annotations

import unicodedata

import pytest

RULESETS = ["dsf-2015", "ssf-1999", "sbnl-punten", "dk-home", "naspa", "wespa"]
# Words present in each bundled open stand-in list, and one that is in none.
KNOWN = {
    "da": ["hej", "ord"],
    "sv": ["hej", "ord"],
    "nl": ["hallo", "woord"],
    "en": ["hello", "word"],
}
BOGUS = "qxzvqxz"


def test_health_ready_and_openapi(server, http):
    assert http.get(server.api("/healthz")).json() == {"status": "ok"}
    ready = http.get(server.api("/readyz")).json()
    assert ready["ready"] is True and ready["failed"] == []
    assert {"wdanish", "wswedish", "wdutch", "wamerican-huge"} <= set(ready["lexicons"])
    doc = http.get(server.api("/openapi.json")).json()
    assert doc["openapi"].startswith("3.1")


def test_lexicons_are_labelled_stand_ins(server, http):
    lexicons = http.get(server.api("/lexicons")).json()["lexicons"]
    assert lexicons and all(lex["stand_in"] is True for lex in lexicons)
    assert all(len(lex["sha256"]) == 64 and lex["word_count"] > 1000 for lex in lexicons)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_ruleset_rules(server, http, ruleset_id):
    meta = http.get(server.api(f"/rulesets/{ruleset_id}")).json()
    assert meta["available"] is True
    assert meta["lexicon"]["stand_in"] is True
    words = KNOWN[meta["language"]]
    url = server.api(f"/rulesets/{ruleset_id}/challenge")
    valid = http.post(url, json={"words": words}).json()
    assert valid["ruling"] == "valid"
    assert valid["lexicon"]["id"] == meta["lexicon"]["id"]
    invalid = http.post(url, json={"words": [words[0], BOGUS]}).json()
    assert invalid["ruling"] == "invalid"
    per_word = meta["disclosure"] == "word"
    assert all(("valid" in w) == per_word for w in invalid["words"])
    assert valid["consequence"]["text"]["en"] and invalid["consequence"]["text"]["en"]


@pytest.mark.parametrize("ruleset_id", ["ssf-1999", "naspa", "wespa"])
def test_play_policy_disclosure_over_http(server, http, ruleset_id):
    language = http.get(server.api(f"/rulesets/{ruleset_id}")).json()["language"]
    a, b = KNOWN[language]
    url = server.api(f"/rulesets/{ruleset_id}/challenge")
    first = http.post(url, json={"words": [BOGUS, a, b]})
    third = http.post(url, json={"words": [a, b, BOGUS]})
    assert first.status_code == third.status_code == 200
    strip = lambda r: r.content.replace(r.json()["ruling_id"].encode(), b"")  # noqa: E731
    assert strip(first) == strip(third)
    ignore = {"Date"}
    assert {k: v for k, v in first.headers.items() if k not in ignore} == {
        k: v for k, v in third.headers.items() if k not in ignore
    }


def test_nfd_and_case_over_http(server, http):
    url = server.api("/rulesets/dsf-2015/challenge")
    nfd = http.post(url, json={"words": [unicodedata.normalize("NFD", "CAFÉ")]}).json()
    nfc = http.post(url, json={"words": ["café"]}).json()
    assert nfd["words"][0]["word"] == nfc["words"][0]["word"] == "CAFE"
    assert nfd["ruling"] == nfc["ruling"]


@pytest.mark.parametrize(
    "body, status, code",
    [
        (b"not json", 400, "invalid_json"),
        (b'{"words": ["ok", "2x"]}', 400, "word_has_digit"),
        (b'{"words": ["a-b"]}', 400, "word_has_hyphen"),
        (b'{"words": ["a b"]}', 400, "word_has_space"),
        (b'{"words": ["a\\u0000b"]}', 400, "word_has_control_character"),
        (b'{"words": [""]}', 400, "word_empty"),
        (b'{"words": ["abcdefghijklmnop"]}', 400, "word_too_long"),
        (b'{"words": []}', 400, "word_count"),
        (b'{"words": ["a","b","c","d","e","f","g","h","i"]}', 400, "word_count"),
        (b'{"word": ["hej"]}', 400, "unknown_field"),
        (b"[1, 2]", 400, "wrong_shape"),
        (b'{"words": ["' + b"a" * 20000 + b'"]}', 413, "body_too_large"),
    ],
)
def test_bad_input_is_a_clear_error_never_500(server, http, body, status, code):
    r = http.post(
        server.api("/rulesets/ssf-1999/challenge"),
        data=body,
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == status
    assert r.headers["Content-Type"] == "application/problem+json"
    assert r.json()["code"] == code


def test_unknown_ruleset_and_non_json(server, http):
    r = http.post(server.api("/rulesets/nope/challenge"), json={"words": ["hej"]})
    assert r.status_code == 404 and r.json()["code"] == "unknown_ruleset"
    r = http.post(server.api("/rulesets/ssf-1999/challenge"), data="words=hej")
    assert r.status_code == 415 and r.json()["code"] == "not_json"


def test_access_log_never_holds_words(server, http):
    http.post(server.api("/rulesets/ssf-1999/challenge"), json={"words": ["hemligt"]})
    log = server.log.read_text(encoding="utf-8", errors="replace")
    assert "/challenge" in log
    assert "hemligt" not in log.lower()
