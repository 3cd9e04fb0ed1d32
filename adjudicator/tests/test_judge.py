"""The judge's tablet in-process: the page, its headers and embedded config, the PIN endpoint."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from adjudicator import create_app
from adjudicator.bounds import MAX_PIN_CHARS
from adjudicator.judge import config as judge_config
from adjudicator.judge.layouts import check_layouts
from adjudicator.judge.pin import pin_matches
from adjudicator.pages.page_language import LANGUAGES
from adjudicator.settings import current_settings
from adjudicator.store.labelforms import LABEL_MAX
from lexicon.limits import MAX_LETTERS, MIN_LETTERS

PIN = "0468"


def page_config(html: str) -> dict:
    match = re.search(
        r'<script type="application/json" id="judge-config">(.*?)</script>', html, re.S
    )
    assert match, "the page embeds its config"
    return json.loads(match.group(1))


@pytest.fixture
def pin_app(lexicon_dir, tmp_path, lockouts):
    lockouts(PIN={"attempts": 3})
    return create_app(
        {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "JUDGE_PIN": PIN,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'store.db'}",  # wrong PINs are counted there
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
    assert "Skriv de utmanade orden" in html and "Nästa ord" in html
    config = page_config(html)
    assert config["ruleset"] == {
        "id": "ssf-1999",
        "name": "Svenska Scrabbleförbundets turneringsregler (1999)",
        "language": "sv",
        "policy": "play",
        "mode": "challenge",
        "max_words": 8,
        "available": True,
    }
    assert config["strings"]["valid"] == "GILTIGT" and config["strings"]["invalid"] == "OGILTIGT"
    assert config["endpoints"]["challenge"] == "/api/v1/rulesets/ssf-1999/challenge"
    # the limits are the service's own, never literals in the page
    assert config["limits"] == {
        "min_letters": MIN_LETTERS,
        "max_letters": MAX_LETTERS,
        "max_words": 8,
        "label": LABEL_MAX,
        "pin": MAX_PIN_CHARS,
    }
    assert config["jury"] is None
    assert config["challenge_fields"] == ["event", "game", "player", "round", "table", "words"]
    assert 'class="jury-fields"' not in html


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


def test_the_kiosk_carries_its_own_strings_and_not_the_directors(client):
    strings = page_config(client.get("/judge/ssf-1999").get_data(as_text=True))["strings"]
    assert "valid" in strings and "word_problem" in strings
    assert not [key for key in strings if key.startswith("dir_")]


def test_keyboard_layouts_are_the_national_ones_and_alphabetical(client):
    da = page_config(client.get("/judge/dsf-2015").get_data(as_text=True))
    assert [layout["id"] for layout in da["layouts"]] == ["qwerty", "abc"]
    assert ["".join(r) for r in da["layouts"][0]["rows"]] == [
        "QWERTYUIOPÅ",
        "ASDFGHJKLÆØ",
        "ZXCVBNMÉ",
    ]
    sv = page_config(client.get("/judge/ssf-1999").get_data(as_text=True))
    assert ["".join(r) for r in sv["layouts"][0]["rows"]][:2] == ["QWERTYUIOPÅ", "ASDFGHJKLÖÄ"]
    assert "".join(sum(sv["layouts"][1]["rows"], [])) == "ABCDEFGHIJKLMNOPQRSTUVWXYZÅÄÖÜÆÉ"
    nl = page_config(client.get("/judge/sbnl-punten").get_data(as_text=True))
    # issue 36.8: the Dutch keyboard has IJ (Ĳ) and É, as its declaration says
    assert ["".join(r) for r in nl["layouts"][0]["rows"]] == [
        "QWERTYUIOP",
        "ASDFGHJKL",
        "ZXCVBNMĲÉË",
    ]
    assert "Ĳ" in nl["word_characters"]  # the server folds it to IJ, so the page takes it
    # Dutch alone takes the joiners its lists drop (docs/rules.md §4.4: mee-eten is MEEETEN).
    assert set("-'’") <= set(nl["word_characters"])
    for config in (da, sv, nl):
        signs = "0123456789 ." if config is nl else "0123456789 -'’."
        assert not set(signs) & set(config["word_characters"])
        for layout in config["layouts"]:
            keys = sum(layout["rows"], [])
            assert set(keys) <= set(config["word_characters"])


@pytest.mark.parametrize("ruleset_id", ["dsf-2015", "ssf-1999", "sbnl-punten", "naspa"])
def test_word_characters_are_what_the_challenge_endpoint_accepts(client, ruleset_id):
    """The page's accepted set is the service's query check itself, character by character."""
    config = page_config(client.get(f"/judge/{ruleset_id}").get_data(as_text=True))
    accepted = set(config["word_characters"])
    probes = sorted(accepted)[::7] + list("1-ßØÆÅÄÖÜÉĲŁЖΩ")
    for ch in probes:
        body = client.post(f"/api/v1/rulesets/{ruleset_id}/challenge", json={"words": [ch * 2]})
        form_error = body.status_code == 400 and body.json["code"].startswith("word_has")
        assert form_error == (ch not in accepted), (ruleset_id, ch, body.json)


# ß and its capital ẞ are letters of no bundled language: not in an alphabet, not named by a
# folding map, so a query holding one is refused before any case is applied (both JavaScript
# and Python upper-case ß to "SS"). ſ and ı upper-case to S and I: look-alikes, refused too.
ESZETT = ["straße", "STRAẞE", "ß", "ẞ", "ẞẞ"]
NOT_CAPITALS = "ßẞſıǅ"


def test_eszett_is_refused_alike_by_the_api_and_the_page_under_every_ruleset(client):
    """The API refuses ß and ẞ, naming them; the page, told only the API's own characters and
    capitals, keeps them as typed and refuses them too, naming the same character."""
    ids = [r["id"] for r in client.get("/api/v1/rulesets").json["rulesets"]]
    assert {"dsf-2015", "ssf-1999", "sbnl-punten", "wespa"} <= set(ids)
    for ruleset_id in ids:
        config = page_config(client.get(f"/judge/{ruleset_id}").get_data(as_text=True))
        for word in ESZETT:
            r = client.post(f"/api/v1/rulesets/{ruleset_id}/challenge", json={"words": [word]})
            assert r.status_code == 400, (ruleset_id, word, r.json)
            assert r.json["code"] == "word_has_foreign_letter", (ruleset_id, word, r.json)
            culprit = next(c for c in word if c in "ßẞ")
            assert repr(culprit) in r.json["detail"], (ruleset_id, word, r.json)
        for ch in "ßẞ":
            assert ch not in config["word_characters"], ruleset_id
            assert ch not in config["word_capitals"], ruleset_id


@pytest.mark.parametrize("ruleset_id", ["dsf-2015", "ssf-1999", "sbnl-punten", "naspa"])
def test_the_page_upper_cases_exactly_as_the_query_check_reads(client, ruleset_id):
    """The page's capitals map is the service's: each typed character it maps is read by the
    challenge endpoint as the capital it is shown as, and none it leaves alone is a letter the
    endpoint would take (so no JavaScript case rule of its own is needed, or allowed)."""
    config = page_config(client.get(f"/judge/{ruleset_id}").get_data(as_text=True))
    accepted = set(config["word_characters"])
    capitals = config["word_capitals"]
    assert set(capitals.values()) <= accepted and not set(capitals) & accepted
    url = f"/api/v1/rulesets/{ruleset_id}/challenge"
    for typed, shown in capitals.items():
        as_typed = client.post(url, json={"words": [typed * 2]})
        as_shown = client.post(url, json={"words": [shown * 2]})
        assert as_typed.status_code == as_shown.status_code == 200, (typed, as_typed.json)
        assert as_typed.json["words"][0]["word"] == as_shown.json["words"][0]["word"], typed
    for ch in NOT_CAPITALS:
        assert ch not in capitals and ch not in accepted
        r = client.post(url, json={"words": [ch * 2]})
        assert r.status_code == 400 and r.json["code"] == "word_has_foreign_letter", r.json


@pytest.mark.parametrize("ruleset_id", ["dsf-2015", "ssf-1999", "sbnl-punten", "wespa"])
def test_each_keyboard_has_the_keys_its_language_declares(client, ruleset_id):
    """The keys are the language declaration's: its alphabet and its `keys` (36.8), each
    once, in every layout, and every one of them types a word the service judges."""
    from adjudicator.catalogue import rulesets
    from lexicon.languages import load_profile

    with client.application.app_context():
        language = rulesets()[ruleset_id].language
    profile = load_profile(language)
    config = page_config(client.get(f"/judge/{ruleset_id}").get_data(as_text=True))
    for layout in config["layouts"]:
        keys = sum(layout["rows"], [])
        assert sorted(keys) == sorted(profile.alphabet + profile.keys), layout["id"]
    for key in profile.keys:
        answer = client.post(config["endpoints"]["challenge"], json={"words": [key + "DE"]})
        assert answer.status_code == 200, (key, answer.json)


def test_a_layout_that_cannot_type_the_alphabet_stops_the_start():
    # a letter the national keyboard has no key for goes on its bottom row, never missing
    assert check_layouts("xx", "ABCÞ", lambda c: True)[0]["rows"][-1][-1] == "Þ"
    with pytest.raises(ValueError, match="refuses É"):
        check_layouts("da", "ABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ", lambda c: c != "É", "É")


def test_jury_mode_page(client):
    html = client.get("/judge/sbnl-punten").get_data(as_text=True)
    config = page_config(html)
    assert config["ruleset"]["mode"] == "jury"
    # open mode, a home or club game: sbnl-punten's limit is for tournaments, so none is shown
    assert config["jury"] == {"submissions_per_player": None}
    assert "Woord voorleggen aan de jury" in html
    assert 'id="jury-player"' in html and 'id="jury-game"' in html
    assert "jury-limit" not in html
    shown = re.sub(r'<script type="application/json".*?</script>', "", html, flags=re.S)
    assert "Tegenstander" not in shown and "BEOORDEEL" not in shown  # no challenge wording
    assert "CONTROLEER" in shown


def test_jury_mode_page_where_the_event_counts(lexicon_dir):
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "JURY_LIMIT": "on"})
    html = app.test_client().get("/judge/sbnl-punten").get_data(as_text=True)
    assert page_config(html)["jury"] == {"submissions_per_player": 10}
    assert "Ten hoogste 10 opgevraagde woorden per speler per spel." in html


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
    assert all('type="module" src=' in a or 'type="application/json"' in a for a in scripts)
    folder = resources.files("adjudicator") / "static" / "judge"
    assets = sorted(p.name for p in folder.iterdir())
    assert "judge.css" in assets and "main.js" in assets
    for asset in assets:
        response = client.get(f"/judge/static/{asset}")
        assert response.status_code == 200
        limit = 12_000 if asset.endswith(".js") else 20_000  # small modules, one concern each
        assert len(response.data) < limit, asset
        assert b"http://" not in response.data and b"https://" not in response.data
        if asset.endswith(".js"):
            # modules import only each other, by relative path
            for target in re.findall(rb"from '([^']+)'", response.data):
                assert target.startswith(b"./") and target[2:].decode() in assets, target
        response.close()


def test_default_timers_and_overrides(lexicon_dir, client, monkeypatch):
    timers = page_config(client.get("/judge/dsf-2015").get_data(as_text=True))["timers"]
    assert timers["result_ms"] == 10_000
    assert timers["tap_guard_ms"] == 500
    assert timers["idle_ms"] == 60_000 and timers["idle_warning_ms"] == 10_000
    assert timers["lock_ms"] == 15_000
    monkeypatch.setitem(judge_config.TIMERS, "result_ms", 2_000)  # a test's shorter timers
    monkeypatch.setitem(judge_config.TIMERS, "idle_ms", 1_500)
    app = create_app({"LEXICON_DIR": str(lexicon_dir)})
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


@pytest.mark.parametrize(
    ("header", "query", "lang", "title"),
    [
        ("da-DK,da;q=0.9", "", "da", "Orddommer: vælg regelsæt"),
        ("sv", "", "sv", "Orddomare: välj regelverk"),
        ("nl-BE", "", "nl", "Woordrechter: kies de spelregels"),
        ("fr", "", "en", "Word judge: choose the ruleset"),
        ("sv", "?lang=nl", "nl", "Woordrechter: kies de spelregels"),
        ("sv", "?lang=xx", "sv", "Orddomare: välj regelverk"),
    ],
)
def test_setup_and_missing_pages_speak_the_browsers_language(client, header, query, lang, title):
    html = client.get(f"/judge/{query}", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'<html lang="{lang}">' in html and title in html
    for code in LANGUAGES:
        assert f'href="?lang={code}"' in html  # the switcher
    missing = client.get(f"/judge/nope{query}", headers={"Accept-Language": header})
    assert missing.status_code == 404 and f'<html lang="{lang}">' in missing.get_data(as_text=True)


def test_the_pin_is_never_in_the_page(pin_client):
    for path in (
        "/judge/ssf-1999",
        "/judge/",
        "/judge/static/main.js",
        "/judge/static/director.js",
    ):
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
    for left, pin in zip((2, 1, 0), ("0000", "04680", "468"), strict=True):
        response = unlock(pin_client, pin)
        assert response.status_code == 403
        assert response.json["code"] == "wrong_pin"
        assert response.json["attempts_remaining"] == left  # the PIN screen says so (36.8)
    limited = unlock(pin_client, PIN)  # even the right PIN waits once the limit is hit
    assert limited.status_code == 429
    assert limited.json["code"] == "too_many_attempts"
    assert 1 <= int(limited.headers["Retry-After"]) <= 900
    other = unlock(pin_client, PIN, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200  # the limit is per client


def test_unlock_rejects_bad_bodies(pin_client):
    assert pin_client.post("/api/v1/judge/unlock", data="1234").status_code == 415
    assert pin_client.post("/api/v1/judge/unlock", json={"pin": 1234}).status_code == 400
    assert pin_client.post("/api/v1/judge/unlock", json={"pin": ""}).status_code == 400
    response = pin_client.post("/api/v1/judge/unlock", json={"pin": PIN, "ruleset": "x"})
    assert response.json["code"] == "unknown_field"


@pytest.mark.parametrize(
    "body, code, field",
    [
        ({"pin": 1234}, "wrong_shape", "pin"),
        ({"pin": ""}, "wrong_shape", "pin"),
        ({"pin": None}, "wrong_shape", "pin"),
        ({"pin": "1" * 65}, "wrong_shape", "pin"),
        ({}, "wrong_shape", "pin"),
        ({"ruleset": "x", "pin": 1}, "unknown_field", "ruleset"),
    ],
)
def test_a_bad_unlock_body_names_its_field(pin_client, body, code, field):
    """The unlock body is declared once (`api.bodies.UnlockRequest`): same codes and fields."""
    response = pin_client.post("/api/v1/judge/unlock", json=body)
    assert (response.status_code, response.json["code"], response.json.get("field")) == (
        400,
        code,
        field,
    )


def test_without_a_configured_pin_nothing_unlocks(client):
    response = unlock(client, "")
    assert response.status_code == 403
    assert response.json["code"] == "pin_not_set"


def test_a_numeric_pin_from_the_environment_keeps_its_leading_zero(lexicon_dir, monkeypatch):
    monkeypatch.setenv("ADJUDICATOR_JUDGE_PIN", "0042")
    monkeypatch.setenv("ADJUDICATOR_LEXICON_DIR", str(lexicon_dir))
    app = create_app()
    assert current_settings(app).judge_pin == "0042"
    assert unlock(app.test_client(), "0042").status_code == 200
    monkeypatch.setenv("ADJUDICATOR_JUDGE_PIN", "1234")  # JSON-parsed to an int by Flask
    assert current_settings(create_app()).judge_pin == "1234"


def test_pin_compare():
    assert pin_matches("2468", "2468")
    assert not pin_matches("2467", "2468") and not pin_matches("24680", "2468")


def test_i18n_files_have_the_same_keys_and_placeholders():
    folder = resources.files("adjudicator") / "i18n"
    files = {lang: json.loads((folder / f"{lang}.json").read_text("utf-8")) for lang in LANGUAGES}
    english = files["en"]
    for lang, strings in files.items():
        assert set(strings) == set(english), lang
        for key, value in strings.items():
            # A string, or plural forms (test_page_language checks them against CLDR).
            forms = [value] if isinstance(value, str) else [*value.values()][1:]
            assert type(value) is type(english[key]), (lang, key)
            theirs = english[key] if isinstance(value, str) else english[key]["other"]
            for text in forms:
                assert isinstance(text, str) and text.strip(), (lang, key)
                placeholders = set(re.findall(r"\{(\w+)\}", text))
                assert placeholders == set(re.findall(r"\{(\w+)\}", theirs)), (lang, key)


# The values the pages look up under a prefix (`t.get("dir_state_" ~ d.state, …)`): each needs its
# string, or the page would fall back to the bare English value.
LOOKED_UP = {
    "dir_mode_": ("open", "tournament"),
    "dir_state_": ("active", "revoked", "expired"),
    "dir_kind_": ("challenge", "jury", "move", "prune"),
    "dir_verdict_": ("valid", "invalid"),
    "dir_caller_": ("anonymous", "director", "device", "app", "operator"),
    "dir_acc_done_": ("key_revoked", "director_added"),
}


def test_every_string_a_page_names_is_in_the_files():
    """The judge's and the director's templates (`t.key`, `t["key"]`) and the director pages'
    messages (`say("key")`) name only keys of the files, so no page shows a blank."""
    package = resources.files("adjudicator")
    english = json.loads((package / "i18n" / "en.json").read_text("utf-8"))
    named = {prefix + value for prefix, values in LOOKED_UP.items() for value in values}
    for folder in ("templates", "auth/templates", "audit/templates"):
        for template in (package / folder).iterdir():
            text = template.read_text("utf-8")
            named |= set(re.findall(r"(?<![\w.])t\.(\w+)", text)) - {"get"}
            named |= set(re.findall(r"(?<![\w.])t\[\"(\w+)\"\]", text))
    for module in ("auth/views.py", "audit/views.py"):
        named |= set(re.findall(r"\bsay\(\"(\w+)\"", (package / module).read_text("utf-8")))
    assert {"dir_login_wrong", "dir_home_heading", "dir_rulings_title", "dir_pair_title"} <= named
    assert named - set(english) == set()


# --- the problem codes the pages branch on come from adjudicator.problems ------------------------

PAGE_SCRIPTS = ("adjudicator/static", "adjudicator/auth/static")
JS_STRING = re.compile(r"""(['"`])((?:\\.|(?!\1).)*)\1""")


def _scripts():
    root = resources.files("adjudicator").parent
    for where in PAGE_SCRIPTS:
        yield from sorted((root / where).rglob("*.js"))


def test_the_page_embeds_the_declared_problem_codes(client):
    from adjudicator.problems import Problem

    config = page_config(client.get("/judge/dsf-2015").get_data(as_text=True))
    assert config["problems"] == {p.name: p.value for p in Problem}


def test_the_scripts_use_only_declared_problem_codes():
    """A script names a code as `Problem.NAME` (config.js exports the page's `problems`), never
    as a string: a code the enum does not declare, or a literal that would go stale, fails."""
    from adjudicator.problems import Problem

    declared = {p.value for p in Problem}
    used = set()
    for path in _scripts():
        text = path.read_text("utf-8")
        for name in re.findall(r"\bProblem\.(\w+)", text):
            assert name in Problem.__members__, f"{path.name}: Problem.{name} is not declared"
            used.add(name)
        for _, literal in JS_STRING.findall(text):
            assert literal not in declared, f"{path.name} spells the code {literal!r}: use Problem"
    assert {"WRONG_PIN", "JURY_LIMIT_REACHED", "STORE_UNAVAILABLE", "STORE_REFUSES_WRITES"} <= used
