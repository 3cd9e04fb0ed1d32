"""The director's pages and the tablet's pairing page in the judge pages' four languages: chosen
as the judge pages choose (`?lang=`, else Accept-Language, else English), with the same switch,
`<html lang>`, localised messages, and the choice carried through forms and redirects."""

from __future__ import annotations

import html as htmllib
import json
import re
from importlib import resources

import pytest

from adjudicator.pages.page_language import LANGUAGES

from .conftest import PASSWORD, add_director, add_key, bearer, challenge, form_csrf, login

HEADINGS = {
    "/director/login": {
        "da": "Log ind som turneringsleder",
        "sv": "Inloggning för tävlingsledare",
        "nl": "Inloggen als wedstrijdleider",
        "en": "Director login",
    },
    "/director/": {
        "da": "Turneringsleder: anna",
        "sv": "Tävlingsledare: anna",
        "nl": "Wedstrijdleider: anna",
        "en": "Director: anna",
    },
    "/director/rulings": {
        "da": "Kendelser",
        "sv": "Utslag",
        "nl": "Uitspraken",
        "en": "Rulings",
    },
    "/director/games": {
        "da": "Kontrollér et parti",
        "sv": "Kontrollera ett parti",
        "nl": "Een spel controleren",
        "en": "Check a game",
    },
    "/judge/pair": {
        "da": "Par denne tablet",
        "sv": "Koppla den här surfplattan",
        "nl": "Deze tablet koppelen",
        "en": "Pair this tablet",
    },
}
WRONG_PASSWORD = {
    "da": "Forkert navn eller adgangskode.",
    "sv": "Fel namn eller lösenord.",
    "nl": "Naam of wachtwoord onjuist.",
    "en": "Wrong name or password.",
}


@pytest.fixture
def app(make_app, lockouts):
    lockouts(LOGIN={"attempts": 2})
    app = make_app(MODE="tournament")
    add_director(app)
    return app


def visible(html: str) -> str:
    """The page's text as read, without code samples, ruleset names and ids (data, not UI)."""
    body = html.split("<body>", 1)[1]
    body = re.sub(r"<(code|option)\b.*?</\1>", " ", body, flags=re.S)
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", body))


def english_leaks(html: str, lang: str) -> list[str]:
    """The director pages' English strings (fixed ones, longer than four letters) in the page's
    text where `lang` says something else."""
    path = resources.files("adjudicator") / "i18n"
    en = json.loads((path / "en.json").read_text("utf-8"))
    own = json.loads((path / f"{lang}.json").read_text("utf-8"))
    text = visible(html)
    return sorted(
        value
        for key, value in en.items()
        if key.startswith("dir_")
        and isinstance(value, str)
        and value != own[key]
        and len(value) > 4
        and "{" not in value
        and re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text)
    )


def assert_in_language(html: str, path: str, lang: str) -> None:
    assert f'<html lang="{lang}">' in html
    assert f"<h1>{HEADINGS[path][lang]}</h1>" in html
    for code in LANGUAGES:
        assert f'lang="{code}" hreflang="{code}"' in html  # the judge pages' switch
    assert f'hreflang="{lang}" aria-current="page"' in html
    assert english_leaks(html, lang) == [], lang


def rulings_made(app) -> None:
    key = add_key(app)
    assert challenge(app.test_client(), headers=bearer(key)).status_code == 200
    second = challenge(app.test_client(), "dsf-2015", ("kat", "xqz"), headers=bearer(key))
    assert second.status_code == 200  # the word policy: each word's verdict is recorded


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", list(HEADINGS))
def test_each_page_in_each_language_by_query(app, director, path, lang):
    rulings_made(app)
    client = app.test_client() if path in ("/director/login", "/judge/pair") else director
    response = client.get(f"{path}?lang={lang}", headers={"Accept-Language": "fr"})
    assert response.status_code == 200
    assert_in_language(response.get_data(as_text=True), path, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", list(HEADINGS))
def test_each_page_follows_the_browsers_language(app, director, path, lang):
    client = app.test_client() if path in ("/director/login", "/judge/pair") else director
    response = client.get(path, headers={"Accept-Language": f"{lang};q=0.9, fr"})
    assert_in_language(response.get_data(as_text=True), path, lang)


@pytest.mark.parametrize("header", [None, "fr-FR", "de, pl;q=0.5"])
def test_english_when_nothing_asks_for_another(app, director, header):
    headers = {"Accept-Language": header} if header else {}
    for path in HEADINGS:
        client = app.test_client() if path in ("/director/login", "/judge/pair") else director
        html = client.get(path, headers=headers).get_data(as_text=True)
        assert '<html lang="en">' in html and HEADINGS[path]["en"] in html
        assert "?lang=" not in html.split("</nav>", 1)[1]  # nothing chosen, nothing carried


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_login_error_is_in_the_pages_language(app, lang):
    client = app.test_client()
    by_query = client.post(f"/director/login?lang={lang}", data={"name": "anna", "password": "x"})
    assert by_query.status_code == 401
    page = by_query.get_data(as_text=True)
    assert f'<p class="error" role="alert" id="login-error">{WRONG_PASSWORD[lang]}</p>' in page
    assert f'<html lang="{lang}">' in page
    by_header = app.test_client().post(
        "/director/login",
        data={"name": "nobody", "password": "x"},
        headers={"Accept-Language": lang},
    )
    assert WRONG_PASSWORD[lang] in by_header.get_data(as_text=True)


def test_the_lockout_says_how_long_in_the_pages_language(app):
    client = app.test_client()
    for _ in range(2):
        client.post("/director/login?lang=sv", data={"name": "anna", "password": "wrong"})
    locked = client.post("/director/login?lang=sv", data={"name": "anna", "password": PASSWORD})
    assert locked.status_code == 429
    wait = int(locked.headers["Retry-After"])
    said = f"{-(-wait // 60)} minuter" if wait >= 60 else f"{wait} sekunder"  # never 900 seconds
    assert (
        "För många felaktiga lösenord för det här kontot från den här enheten. "
        f"Försök igen om {said}."
    ) in locked.get_data(as_text=True)


def test_pairing_messages_are_in_the_pages_language(app, director):
    wrong = app.test_client().post("/judge/pair?lang=nl", data={"code": "AAAA-BBBB"})
    assert wrong.status_code == 403
    assert "Die code is onjuist, al gebruikt of verlopen." in wrong.get_data(as_text=True)
    csrf = form_csrf(director.get("/director/").get_data(as_text=True))
    unnamed = director.post("/director/pairings?lang=da", data={"csrf": csrf, "name": ""})
    assert unnamed.status_code == 400
    assert "Giv tabletten et navn (1 til 64 tegn), f.eks. »Bord 12«." in unnamed.text
    gone = director.post("/director/devices/7/revoke?lang=sv", data={"csrf": csrf})
    assert gone.status_code == 404 and "Ingen aktiv enhet 7." in gone.text


def test_a_chosen_language_is_carried_through_forms_and_redirects(app):
    client = app.test_client()
    form = client.get("/director/login?lang=da").get_data(as_text=True)
    assert 'action="/director/login?lang=da"' in form
    assert 'name="next" value="/director/"' in form  # `next` itself stays as it was
    response = login(client, query_string={"lang": "da"})
    assert response.status_code == 303 and response.location == "/director/?lang=da"
    home = client.get(response.location).get_data(as_text=True)
    for action in ("/director/logout", "/director/pairings"):
        assert f'action="{action}?lang=da"' in home
    assert 'href="/director/rulings?lang=da"' in home
    csrf = form_csrf(home)
    shown = client.post(
        "/director/pairings?lang=da", data={"csrf": csrf, "name": "Bord 1", "ruleset": "*"}
    )
    # The page answering the POST switches language at the screen's own (GET) address.
    assert 'href="/director/?lang=sv"' in shown.text
    out = client.post("/director/logout?lang=da", data={"csrf": csrf})
    assert out.location == "/director/login?lang=da"


def test_a_next_keeps_its_own_query_and_gains_the_language(app):
    client = app.test_client()
    form = client.get(
        "/director/login", query_string={"next": "/director/rulings?q=kat", "lang": "nl"}
    )
    assert 'href="/director/login?next=/director/rulings?q%3Dkat&amp;lang=sv"' in form.text
    data = {"name": "anna", "password": PASSWORD, "next": "/director/rulings?q=kat"}
    response = client.post("/director/login?lang=nl", data=data)
    assert response.location == "/director/rulings?q=kat&lang=nl"
    data["next"] = "/director/rulings?lang=en"  # a language of its own wins
    assert client.post("/director/login?lang=nl", data=data).location == data["next"]


def test_a_page_that_needs_a_login_sends_it_in_the_pages_language(app):
    """An ended session on a page chosen in Danish: the login comes in Danish, whatever the
    browser prefers, and goes back to the page afterwards."""
    client = app.test_client()
    sent = client.get("/director/rulings?lang=da", headers={"Accept-Language": "sv"})
    assert sent.status_code == 303
    assert sent.location == "/director/login?lang=da&next=/director/rulings%3Flang%3Dda"
    login = client.get(sent.location, headers={"Accept-Language": "sv"})
    assert '<html lang="da"' in login.text
    data = {"name": "anna", "password": PASSWORD, "next": "/director/rulings?lang=da"}
    assert client.post("/director/login?lang=da", data=data).location == data["next"]
    plain = app.test_client().get("/director/rulings")  # none chosen: the browser's, as before
    assert plain.location == "/director/login?next=/director/rulings"


def test_the_rulings_page_takes_lang_the_api_does_not(app, director):
    rulings_made(app)
    page = director.get("/director/rulings?lang=sv&limit=1")
    assert page.status_code == 200 and "<h1>Utslag</h1>" in page.text
    assert 'href="/director/rulings?limit=1&amp;before=2&amp;lang=sv"' in page.text  # older
    assert '<input type="hidden" name="lang" value="sv">' in page.text  # the search keeps it
    assert "XQZ (ogiltigt)" in page.text  # each word's verdict
    api = director.get("/api/v1/audit/rulings?lang=sv")
    assert api.status_code == 400 and api.json["code"] == "unknown_parameter"


def test_a_consequence_in_the_directors_language_whatever_the_ruleset_gives(app, director):
    key = add_key(app)
    challenge(app.test_client(), words=("xqz",), headers=bearer(key))  # ssf-1999: sv and en
    swedish = director.get("/director/rulings?lang=sv").text
    cell = '<td class="text consequence">'
    assert f"{cell}Brickorna tas tillbaka och spelaren förlorar sin tur.</td>" in swedish
    # None in Danish in the ruleset: the catalogue's words for its kind, never English.
    danish = director.get("/director/rulings?lang=da").text
    assert f"{cell}Lægningen tages tilbage og giver ingen point.</td>" in danish


def test_values_that_look_like_placeholders_are_shown_as_typed(app, director):
    csrf = form_csrf(director.get("/director/").get_data(as_text=True))
    shown = director.post(
        "/director/pairings?lang=en", data={"csrf": csrf, "name": "{ruleset} <b>", "ruleset": "*"}
    )
    assert "Pair “{ruleset} &lt;b&gt;”</h2>" in shown.text


# Said the same as in English on purpose (a loanword, a label shared across the languages).
SAME_AS_ENGLISH = {
    "da": {"dir_home_tablet", "dir_kind_jury", "dir_caller_app"},
    "sv": {"dir_kind_jury", "dir_caller_app"},
    "nl": {"dir_home_tablet", "dir_kind_jury", "dir_caller_app", "dir_mode_open", "dir_pair_code"},
}


@pytest.mark.parametrize("lang", ["da", "sv", "nl"])
def test_the_director_strings_are_translated(lang):
    """A director page's string left in English in another language's file is a slip, not a
    choice, unless it is one of the few said the same on purpose."""
    path = resources.files("adjudicator") / "i18n"
    en = json.loads((path / "en.json").read_text("utf-8"))
    own = json.loads((path / f"{lang}.json").read_text("utf-8"))
    same = {
        key
        for key in en
        if key.startswith("dir_")
        and own[key] == en[key]
        and re.search(r"[^\W\d_]", re.sub(r"\{\w+\}", "", str(en[key])))  # words, not a pattern
    }
    assert same == SAME_AS_ENGLISH[lang]
