"""The challenge API in process: rulings, disclosure, bad input and unavailable rulesets."""

from __future__ import annotations

import shutil
import unicodedata

import pytest

from adjudicator import create_app
from adjudicator.bounds import MAX_RECORD_BYTES
from adjudicator.settings import current_settings

URL = "/api/v1/rulesets/{}/challenge"


def challenge(client, ruleset, words):
    return client.post(URL.format(ruleset), json={"words": words})


def test_valid_and_invalid_play_under_play_policy(client):
    ok = challenge(client, "ssf-1999", ["hej", "ÖGON"])
    assert ok.status_code == 200
    assert ok.json["ruling"] == "valid"
    assert ok.json["consequence"]["kind"] == "challenger_penalty"
    assert ok.json["consequence"]["points"] == 10
    assert ok.json["lexicon"]["id"] == "wswedish"
    assert ok.json["lexicon"]["stand_in"] is True
    bad = challenge(client, "ssf-1999", ["hej", "xyzzy"])
    assert bad.json["ruling"] == "invalid"
    assert bad.json["consequence"]["kind"] == "play_withdrawn"
    assert all("valid" not in w for w in bad.json["words"])


def test_word_policy_gives_each_verdict(client):
    r = challenge(client, "dsf-2015", ["café", "qqq", "elguitar"])
    assert r.json["ruling"] == "invalid"
    assert [(w["word"], w["valid"]) for w in r.json["words"]] == [
        ("CAFE", True),
        ("QQQ", False),
        ("ELGUITAR", True),
    ]


def _strip_id(response):
    body = dict(response.json)
    body.pop("ruling_id")
    return body


def test_play_policy_hides_which_word_failed(client):
    first = challenge(client, "ssf-1999", ["xyzzy", "hej", "ord"])
    third = challenge(client, "ssf-1999", ["hej", "ord", "xyzzy"])
    assert first.status_code == third.status_code == 200
    assert _strip_id(first) == _strip_id(third)
    assert first.data.replace(first.json["ruling_id"].encode(), b"") == third.data.replace(
        third.json["ruling_id"].encode(), b""
    )
    assert first.json["ruling_id"] != third.json["ruling_id"]
    assert len(first.data) == len(third.data)
    skip = {"Content-Length"}
    assert {k: v for k, v in first.headers if k not in skip} == {
        k: v for k, v in third.headers if k not in skip
    }


def test_play_policy_echoes_words_in_canonical_order(client):
    one = challenge(client, "naspa", ["zzz", "cat", "dog"])
    assert [w["word"] for w in one.json["words"]] == ["CAT", "DOG", "ZZZ"]
    assert one.json["ruling"] == "invalid"


def test_nfd_equals_nfc(client):
    nfc = challenge(client, "dsf-2015", ["café"])
    nfd = challenge(client, "dsf-2015", [unicodedata.normalize("NFD", "café")])
    assert nfc.json["words"][0]["word"] == nfd.json["words"][0]["word"] == "CAFE"
    assert nfc.json["ruling"] == nfd.json["ruling"] == "valid"


def test_swedish_letters_do_not_fold(client):
    assert challenge(client, "ssf-1999", ["MÜSLI"]).json["ruling"] == "valid"
    assert challenge(client, "ssf-1999", ["MUSLI"]).json["ruling"] == "invalid"
    assert challenge(client, "ssf-1999", ["alle"]).json["ruling"] == "valid"  # allé → ALLE


@pytest.mark.parametrize(
    "words, code, field",
    [
        (["ab1"], "word_has_digit", "words[0]"),
        (["hej", "abc-bok"], "word_has_hyphen", "words[1]"),
        (["silk screen"], "word_has_space", "words[0]"),
        (["a\x07b"], "word_has_control_character", "words[0]"),
        ([""], "word_empty", "words[0]"),
        (["a" * 16], "word_too_long", "words[0]"),
        (["c/o"], "word_has_non_letter", "words[0]"),
        ([5], "word_not_string", "words[0]"),
        ([], "word_count", "words"),
        (["ord"] * 9, "word_count", "words"),
    ],
)
def test_bad_words(client, words, code, field):
    r = challenge(client, "ssf-1999", words)
    assert r.status_code == 400
    assert r.json["code"] == code
    assert r.json["field"] == field
    assert r.json["detail"]


@pytest.mark.parametrize(
    "kwargs, status, code",
    [
        ({"data": "words=hej"}, 415, "not_json"),
        ({"data": "{", "content_type": "application/json"}, 400, "invalid_json"),
        ({"json": ["hej"]}, 400, "wrong_shape"),
        ({"json": {"words": "hej"}}, 400, "wrong_shape"),
        ({"json": {"words": ["hej"], "extra": 1}}, 400, "unknown_field"),
        ({"json": {"words": ["a" * 40000]}}, 413, "body_too_large"),
    ],
)
def test_malformed_requests(client, kwargs, status, code):
    r = client.post(URL.format("ssf-1999"), **kwargs)
    assert r.status_code == status
    assert r.json["code"] == code


def test_unknown_ruleset_and_wrong_method(client):
    r = challenge(client, "no-such", ["hej"])
    assert r.status_code == 404 and r.json["code"] == "unknown_ruleset"
    r = client.get(URL.format("ssf-1999"))
    assert r.status_code == 405 and r.json["code"] == "method_not_allowed"
    assert client.get("/api/v1/nothing").json["code"] == "not_found"


def test_unavailable_ruleset_and_failed_lexicon(tmp_path, lexicon_dir):
    lexdir = tmp_path / "lex"
    shutil.copytree(lexicon_dir, lexdir)
    (lexdir / "wswedish.marisa").write_bytes(b"garbage")  # fails its checksum
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexdir)})
    client = app.test_client()
    r = challenge(client, "ssf-1999", ["hej"])
    assert r.status_code == 503 and r.json["code"] == "ruleset_unavailable"
    assert challenge(client, "dsf-2015", ["hej"]).json["ruling"] == "valid"  # others serve
    r = client.get("/api/v1/readyz")
    ready = r.json
    assert r.status_code == 503 and ready["ready"] is False  # a configured ruleset cannot serve
    assert ready["rulesets"]["ssf-1999"] == {
        "available": False,
        "lexicon": "wswedish",
        "reason": "lexicon 'wswedish' is not loaded",
    }
    assert ready["rulesets"]["dsf-2015"]["available"] is True
    assert ready["failed"][0]["file"] == "wswedish.json"
    assert "checksum" in ready["failed"][0]["reason"]
    assert ready["unavailable_rulesets"] == ["ssf-1999"]
    listed = {r["id"]: r for r in client.get("/api/v1/rulesets").json["rulesets"]}
    assert listed["ssf-1999"]["available"] is False
    assert listed["dsf-2015"]["available"] is True


def test_environment_configures_app(monkeypatch, lexicon_dir, tmp_path):
    monkeypatch.setenv("ADJUDICATOR_LEXICON_DIR", str(tmp_path))  # empty: nothing loads
    app = create_app()
    assert current_settings(app).lexicon_dir == str(tmp_path)
    r = app.test_client().get("/api/v1/readyz")
    assert r.status_code == 503 and r.json["ready"] is False
    app = create_app({"LEXICON_DIR": str(lexicon_dir)})  # the test mapping wins
    assert app.test_client().get("/api/v1/readyz").status_code == 200


def test_rulesets_and_lexicons_never_list_words(client):
    body = client.get("/api/v1/rulesets/dsf-2015").get_data(as_text=True)
    assert "ELGUITAR" not in body and "elguitar" not in body
    lexicons = client.get("/api/v1/lexicons").json["lexicons"]
    assert {lex["id"] for lex in lexicons} == {
        "wdanish",
        "wdanish-egennavne",
        "wswedish",
        "wdutch",
        "wamerican-huge",
    }
    assert all(set(lex) >= {"sha256", "word_count", "stand_in", "title"} for lex in lexicons)


def test_body_too_large_names_the_endpoints_own_limit(client):
    small = client.post(URL.format("ssf-1999"), json={"words": ["a" * 40000]})
    assert "16384 bytes" in small.json["detail"]
    big = client.post(
        "/api/v1/rulesets/naspa/games/verify", json={"gcg": "#player1 a A\n" + "x" * 300_000}
    )
    assert big.status_code == 413
    assert str(MAX_RECORD_BYTES) in big.json["detail"]


def test_free_challenge_costs_nothing_at_home_004(client):
    """004 Almindelige varianter: "Gratis protest — hvor en tabt protest ikke koster noget"."""
    url = URL.format("dk-home")
    free = client.post(url, json={"words": ["hej"], "free_challenge": True})
    assert free.status_code == 200 and free.json["ruling"] == "valid"
    assert free.json["consequence"]["kind"] == "none"
    assert free.json["consequence"]["text"]["en"].startswith("Free challenge")
    plain = client.post(url, json={"words": ["hej"]}).json["consequence"]
    assert plain["kind"] == "challenger_loses_turn"
    refused = client.post(URL.format("dsf-2015"), json={"words": ["hej"], "free_challenge": True})
    assert refused.status_code == 422 and refused.json["field"] == "free_challenge"
    shape = client.post(url, json={"words": ["hej"], "free_challenge": "yes"})
    assert shape.status_code == 400


def test_verify_takes_the_free_challenge_variant_004(client):
    turns = [
        {"player": "Mor", "type": "play", "move": "8G KAT", "score": 12},
        {"player": "Far", "type": "challenge", "score": 0},
        {"player": "Far", "type": "play", "move": "H7 H.J", "score": 9},
    ]
    url = "/api/v1/rulesets/dk-home/games/verify"
    body = {"players": ["Mor", "Far"], "turns": turns}
    free = client.post(url, json=body | {"free_challenge": True}).json
    assert free["rule_deviations"] == 0 and free["challenges"][0]["consequence"] == "none"
    assert client.post(url, json=body).json["rule_deviations"] == 1
    wrong = client.post(url.replace("dk-home", "naspa"), json=body | {"free_challenge": True})
    assert wrong.status_code == 422


def test_the_jury_answers_each_word_under_sbnl_003(client):
    """003 "Verloop van het spel": a player puts a word to the jury "ter goedkeuring", and the
    limit counts words; unlike 002, 003 says nothing to limit what the jury tells. So a query
    under sbnl-punten says which word the jury rejects."""
    r = challenge(client, "sbnl-punten", ["xyzzy", "woord"])
    assert r.status_code == 200 and r.json["policy"] == "word"
    assert r.json["ruling"] == "invalid"
    assert {w["word"]: w["valid"] for w in r.json["words"]} == {"XYZZY": False, "WOORD": True}


def test_a_jury_query_before_placement_costs_nothing_003(client):
    """003 Strafpuntenregel: the penalty falls on a word "nadat het definitief is geplaatst".
    A word the jury rejects before it is placed costs nothing: the answer's consequence is
    none, and the penalty is named only as what placing it anyway would cost (`if_placed`)."""
    bad = challenge(client, "sbnl-punten", ["xyzzy"]).json
    assert bad["consequence"]["kind"] == "none" and bad["consequence"]["points"] == 0
    assert "20" not in bad["consequence"]["text"]["nl"] + bad["consequence"]["text"]["en"]
    assert bad["if_placed"]["kind"] == "turn_score_plus_penalty"
    assert bad["if_placed"]["points"] == 20 and "20 strafpunten" in bad["if_placed"]["text"]["nl"]
    good = challenge(client, "sbnl-punten", ["woord"]).json
    assert good["consequence"]["kind"] == "none" and good["if_placed"] is None
    assert "if_placed" not in challenge(client, "dsf-2015", ["qqq"]).json  # a challenge: no query
