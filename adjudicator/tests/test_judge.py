"""The judge's tablet in-process: the page, its headers and embedded config, the PIN endpoint."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from adjudicator import create_app
from adjudicator.judge import LANGUAGES, PinLimiter, pin_matches

PIN = "0468"


def page_config(html: str) -> dict:
    match = re.search(
        r'<script type="application/json" id="judge-config">(.*?)</script>', html, re.S
    )
    assert match, "the page embeds its config"
    return json.loads(match.group(1))


@pytest.fixture
def pin_app(lexicon_dir):
    return create_app(
        {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "JUDGE_PIN": PIN,
            "JUDGE_PIN_ATTEMPTS": 3,
        }
    )


@pytest.fixture
def pin_client(pin_app):
    return pin_app.test_client()


def unlock(client, pin, **kw):
    return client.post("/api/v1/judge/unlock", json={"pin": pin}, **kw)


def test_the_page_is_served_in_the_rulesets_language(client):
    response = client.get("/judge/ssf-1999")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert '<html lang="sv">' in html
    assert "Hur många ord utmanar du?" in html
    config = page_config(html)
    assert config["ruleset"] == {
        "id": "ssf-1999",
        "name": "Svenska Scrabbleförbundets turneringsregler (1999)",
        "language": "sv",
        "policy": "play",
        "max_words": 8,
        "available": True,
    }
    assert config["strings"]["valid"] == "GILTIGT" and config["strings"]["invalid"] == "OGILTIGT"
    assert config["endpoints"]["challenge"] == "/api/v1/rulesets/ssf-1999/challenge"
    assert html.count('class="btn count"') == 8


@pytest.mark.parametrize(
    ("ruleset_id", "valid", "invalid"),
    [
        ("dsf-2015", "GYLDIG", "UGYLDIG"),
        ("ssf-1999", "GILTIGT", "OGILTIGT"),
        ("sbnl-punten", "GELDIG", "ONGELDIG"),
        ("wespa", "VALID", "INVALID"),
    ],
)
def test_verdict_words_follow_the_ruleset(client, ruleset_id, valid, invalid):
    strings = page_config(client.get(f"/judge/{ruleset_id}").get_data(as_text=True))["strings"]
    assert (strings["valid"], strings["invalid"]) == (valid, invalid)


def test_letters_come_from_the_language_profiles(client):
    da = page_config(client.get("/judge/dsf-2015").get_data(as_text=True))
    assert da["letters"][-4:] == ["Æ", "Ø", "Å", "É"]
    assert {"É", "Æ", "Ø", "Å"} <= set(da["word_characters"])
    assert not set("0123456789 -'.") & set(da["word_characters"])
    sv = page_config(client.get("/judge/ssf-1999").get_data(as_text=True))
    assert {"Å", "Ä", "Ö", "É"} <= set(sv["letters"])
    nl = page_config(client.get("/judge/sbnl-punten").get_data(as_text=True))
    assert "".join(nl["letters"]) == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert "Ĳ" in nl["word_characters"]  # the server folds it to IJ, so the page takes it


def test_security_headers(client):
    response = client.get("/judge/dsf-2015")
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_no_external_assets_and_no_inline_code(client):
    html = client.get("/judge/dsf-2015").get_data(as_text=True)
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    assert " style=" not in html and "<style" not in html and " on" + "click=" not in html
    scripts = re.findall(r"<script(?P<attrs>[^>]*)>", html)
    assert all("src=" in a or 'type="application/json"' in a for a in scripts)
    for asset in ("judge.js", "judge.css"):
        response = client.get(f"/judge/static/{asset}")
        assert response.status_code == 200
        assert len(response.data) < 40_000  # small, no build step
        assert b"http://" not in response.data and b"https://" not in response.data
        response.close()


def test_default_timers_and_overrides(lexicon_dir, client):
    timers = page_config(client.get("/judge/dsf-2015").get_data(as_text=True))["timers"]
    assert timers["result_ms"] == 10_000
    assert timers["tap_guard_ms"] == 500
    assert timers["idle_ms"] == 15_000
    app = create_app(
        {"LEXICON_DIR": str(lexicon_dir), "JUDGE_RESULT_SECONDS": 2, "JUDGE_IDLE_SECONDS": 1.5}
    )
    html = app.test_client().get("/judge/dsf-2015").get_data(as_text=True)
    timers = page_config(html)["timers"]
    assert timers["result_ms"] == 2_000 and timers["idle_ms"] == 1_500


def test_unknown_ruleset_is_a_404_page(client):
    response = client.get("/judge/no-such-ruleset")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert "no-such-ruleset" in response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store"


def test_index_lists_every_ruleset(client):
    html = client.get("/judge/").get_data(as_text=True)
    for ruleset_id in ("dsf-2015", "ssf-1999", "sbnl-punten", "dk-home", "naspa", "wespa"):
        assert f'href="/judge/{ruleset_id}"' in html


def test_the_pin_is_never_in_the_page(pin_client):
    for path in ("/judge/ssf-1999", "/judge/", "/judge/static/judge.js"):
        response = pin_client.get(path)
        assert PIN.encode() not in response.data, path
        response.close()


def test_unlock_with_the_right_pin(pin_client):
    response = unlock(pin_client, PIN)
    assert response.status_code == 200
    body = response.json
    assert body["unlocked"] is True
    assert {"dsf-2015", "ssf-1999"} <= {r["id"] for r in body["rulesets"]}
    assert response.headers["Cache-Control"] == "no-store"


def test_wrong_pins_are_refused_then_rate_limited(pin_client):
    for pin in ("0000", "04680", "468"):
        response = unlock(pin_client, pin)
        assert response.status_code == 403
        assert response.json["code"] == "wrong_pin"
    limited = unlock(pin_client, PIN)  # even the right PIN waits once the limit is hit
    assert limited.status_code == 429
    assert limited.json["code"] == "too_many_attempts"
    assert 1 <= int(limited.headers["Retry-After"]) <= 61
    other = unlock(pin_client, PIN, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200  # the limit is per client


def test_unlock_rejects_bad_bodies(pin_client):
    assert pin_client.post("/api/v1/judge/unlock", data="1234").status_code == 415
    assert pin_client.post("/api/v1/judge/unlock", json={"pin": 1234}).status_code == 400
    assert pin_client.post("/api/v1/judge/unlock", json={"pin": ""}).status_code == 400
    response = pin_client.post("/api/v1/judge/unlock", json={"pin": PIN, "ruleset": "x"})
    assert response.json["code"] == "unknown_field"


def test_without_a_configured_pin_nothing_unlocks(client):
    response = unlock(client, "")
    assert response.status_code == 403
    assert response.json["code"] == "pin_not_set"


def test_a_numeric_pin_from_the_environment_keeps_its_leading_zero(lexicon_dir, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_JUDGE_PIN", "0042")
    monkeypatch.setenv("ADJUDICATOR_LEXICON_DIR", str(lexicon_dir))
    app = create_app()
    assert app.extensions["judge_pin"] == "0042"
    assert unlock(app.test_client(), "0042").status_code == 200
    monkeypatch.setenv("ADJUDICATOR_JUDGE_PIN", "1234")  # JSON-parsed to an int by Flask
    assert create_app().extensions["judge_pin"] == "1234"


def test_pin_compare_and_limiter():
    assert pin_matches("2468", "2468")
    assert not pin_matches("2467", "2468") and not pin_matches("24680", "2468")
    limiter = PinLimiter()
    for _ in range(2):
        assert limiter.retry_after("a", 2, 60) == 0
        limiter.fail("a")
    assert limiter.retry_after("a", 2, 60) > 0
    assert limiter.retry_after("b", 2, 60) == 0
    assert limiter.retry_after("a", 2, 0.0) == 0  # an expired window forgets


def test_i18n_files_have_the_same_keys_and_placeholders():
    folder = resources.files("adjudicator") / "i18n"
    files = {lang: json.loads((folder / f"{lang}.json").read_text("utf-8")) for lang in LANGUAGES}
    english = files["en"]
    for lang, strings in files.items():
        assert set(strings) == set(english), lang
        for key, text in strings.items():
            assert isinstance(text, str) and text.strip(), (lang, key)
            placeholders = set(re.findall(r"\{(\w+)\}", text))
            assert placeholders == set(re.findall(r"\{(\w+)\}", english[key])), (lang, key)
