"""CORS from an allow-list (off by default) and ETag/Cache-Control with 304 on the static lists."""

from __future__ import annotations

import pytest

from adjudicator import create_app
from adjudicator.settings import ConfigError, origins

APP_ORIGIN = "https://app.example"
CHALLENGE = "/api/v1/rulesets/ssf-1999/challenge"


@pytest.fixture
def cors_client(lexicon_dir):
    config = {"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "CORS_ORIGINS": APP_ORIGIN}
    return create_app(config).test_client()


def test_cors_is_off_by_default(client):
    r = client.post(CHALLENGE, json={"words": ["hej"]}, headers={"Origin": APP_ORIGIN})
    assert r.status_code == 200
    assert not [h for h in r.headers.keys() if h.lower().startswith("access-control-")]


def test_allowed_origin_reads_answers_and_errors(cors_client):
    r = cors_client.post(CHALLENGE, json={"words": ["hej"]}, headers={"Origin": APP_ORIGIN})
    assert r.headers["Access-Control-Allow-Origin"] == APP_ORIGIN
    assert "ETag" in r.headers["Access-Control-Expose-Headers"]
    assert "Origin" in r.headers["Vary"]
    assert "Access-Control-Allow-Credentials" not in r.headers
    bad = cors_client.post(CHALLENGE, json={"words": []}, headers={"Origin": APP_ORIGIN})
    assert bad.status_code == 400 and bad.headers["Access-Control-Allow-Origin"] == APP_ORIGIN


def test_other_origins_get_no_cors_headers(cors_client):
    r = cors_client.post(CHALLENGE, json={"words": ["hej"]}, headers={"Origin": "https://evil"})
    assert "Access-Control-Allow-Origin" not in r.headers
    assert "Origin" in r.headers["Vary"]


def test_preflight(cors_client):
    headers = {
        "Origin": APP_ORIGIN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
    }
    r = cors_client.options(CHALLENGE, headers=headers)
    assert r.status_code == 200
    assert r.headers["Access-Control-Allow-Origin"] == APP_ORIGIN
    assert "POST" in r.headers["Access-Control-Allow-Methods"]
    assert "Content-Type" in r.headers["Access-Control-Allow-Headers"]
    assert int(r.headers["Access-Control-Max-Age"]) > 0
    evil = cors_client.options(CHALLENGE, headers={**headers, "Origin": "https://evil"})
    assert "Access-Control-Allow-Origin" not in evil.headers


def test_cors_covers_only_the_api(cors_client):
    r = cors_client.get("/judge/", headers={"Origin": APP_ORIGIN})
    assert "Access-Control-Allow-Origin" not in r.headers


def test_wildcard_and_list_configuration(lexicon_dir):
    assert origins("https://a.example, https://b.example/") == {
        "https://a.example",
        "https://b.example",
    }
    assert origins(["https://a.example"]) == {"https://a.example"}
    assert origins("") == frozenset()
    with pytest.raises(ConfigError, match="ADJUDICATOR_CORS_ORIGINS: 'app.example' is not an"):
        create_app({"LEXICON_DIR": str(lexicon_dir), "CORS_ORIGINS": "app.example"})
    app = create_app({"LEXICON_DIR": str(lexicon_dir), "CORS_ORIGINS": "*"})
    r = app.test_client().get("/api/v1/healthz", headers={"Origin": "https://any.example"})
    assert r.headers["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize(
    "path",
    ["/api/v1/lexicons", "/api/v1/rulesets", "/api/v1/rulesets/ssf-1999", "/api/v1/openapi.json"],
)
def test_static_lists_have_etag_and_answer_304(client, path):
    first = client.get(path)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag.startswith('"')
    assert "max-age=60" in first.headers["Cache-Control"]
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag
    other = client.get(path, headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.data == first.data


def test_etag_follows_the_content(lexicon_dir, tmp_path):
    a = create_app({"LEXICON_DIR": str(lexicon_dir)}).test_client().get("/api/v1/lexicons")
    b = create_app({"LEXICON_DIR": str(tmp_path)}).test_client().get("/api/v1/lexicons")
    assert a.headers["ETag"] != b.headers["ETag"]


def test_rulings_are_not_cacheable(client):
    r = client.post(CHALLENGE, json={"words": ["hej"]})
    assert "ETag" not in r.headers
