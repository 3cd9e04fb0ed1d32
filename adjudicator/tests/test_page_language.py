"""Every page and every message in the page's language: no English on a Danish, Swedish or Dutch
page, and one term per concept in each language.

Every HTML route of the app's URL map is rendered in-process, in every state a test can reach
(the director logged in, rulings of every ruleset in the log, a record checked under every
ruleset, a tablet paired, the errors a director meets), in English and in Danish, Swedish and
Dutch. A text in a non-English page is English when it is an English catalogue string (two
words or more, or a known term) or the English page's own text of two words or more, unless
it is a name (a ruleset's, a word list's) or data typed in.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from dataclasses import replace
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path

import pytest
from babel import Locale

from adjudicator import create_app, store
from adjudicator.auth import directors, keys, lockout, store_time
from adjudicator.catalogue import rulesets
from adjudicator.game.rules import CONSEQUENCE_KINDS
from adjudicator.messages import COUNT
from adjudicator.pages.page_language import LANGUAGES
from adjudicator.pages.strings import Plural, fill, strings
from adjudicator.problems import Problem
from adjudicator.rulesets import load_rulesets

OTHERS = tuple(lang for lang in LANGUAGES if lang != "en")
RECORDS = Path(__file__).parents[1] / "game" / "tests" / "records"
KIOSK_RECORDS = ("dsf-2015", "ssf-1999", "sbnl-punten", "dk-home")  # a record each in RECORDS
PASSWORD = "correct horse battery"

# Words of the English game that no Danish, Swedish or Dutch page says: one alone is English.
ENGLISH_TERMS = (
    "stand-in", "challenge", "challenger", "ruling", "rulings", "valid", "invalid", "legal",
    "illegal", "points", "turn", "rack", "tiles", "withdrawn", "loses", "minute(s)", "seconds",
    "minutes", "deviation", "disagreement", "recorded", "computed", "player", "game", "score",
)  # fmt: skip
# The board's square labels, which are codes but not the same in every language.
BOARD_LABELS = ("3W", "2W", "3L", "2L")

# One term per concept in each language (the pages' glossary): the term used, and the words
# that would say the same thing another way.
GLOSSARY = {
    "da": {"kendelse (ruling)": r"afgørelse\w*", "parti (game)": r"\bspil(let|lene)?\b"},
    "sv": {"utslag (ruling)": r"avgörande\w*", "parti (game)": r"\bspel(et|en)?\b"},
    "nl": {"uitspraak (ruling)": r"beoordeling\w*", "spel (game)": r"\bpartij\w*"},
    "en": {"ruling": r"\bdecisions?\b", "game": r"\bmatch(es)? of\b"},
}


def catalogue(lang: str) -> dict:
    path = resources.files("adjudicator") / "i18n" / f"{lang}.json"
    return json.loads(path.read_text("utf-8"))


def texts_of(value) -> list[str]:
    """A catalogue value's texts: the string, or each plural form."""
    if isinstance(value, dict):
        return [v for k, v in value.items() if k != COUNT]
    return [value]


# --- what a page shows ----------------------------------------------------------------------

SHOWN_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "data-start", "data-caption"}
NOT_TEXT = {"code", "script", "style", "textarea", "option"}  # codes, data typed in, names


class Visible(HTMLParser):
    """The page's text as a person reads or hears it, node by node."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in NOT_TEXT:
            self.skipping += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value:
                self.texts.append(" ".join(value.split()))

    def handle_endtag(self, tag):
        if tag in NOT_TEXT:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.texts.append(" ".join(data.split()))


def visible(html: str) -> list[str]:
    parser = Visible()
    parser.feed(html)
    return parser.texts


def words(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]{2,}", text)


@functools.cache
def names() -> set[str]:
    """Names shown as they are in every language: rulesets' and word lists' (proper names)."""
    shown = set()
    for r in load_rulesets(None).values():
        shown |= {r.name, f"{r.name} ({r.id})", r.id}
    return shown


# A record's own notation (GCG's `(challenge)`, `(time)` lines), data as the record wrote it.
NOTATION = re.compile(r"\((challenge|time)\)")


def without_data(text: str) -> str:
    """`text` without what is data in every language: names, ids, a record's notation."""
    rest = NOTATION.sub(" ", text)
    for name in sorted(names(), key=len, reverse=True):
        rest = rest.replace(name, " ")
    return rest


def data_only(text: str) -> bool:
    """Whether `text` says no word of a language: ruleset ids, played words in capitals, codes."""
    return all(w.isupper() for w in words(without_data(text)))


def english_fragments() -> set[str]:
    """The English catalogue's literal parts of two words or more that another language says
    otherwise, and its known terms."""
    en = catalogue("en")
    found = set()
    for key, value in en.items():
        own = [catalogue(lang)[key] for lang in OTHERS]
        for text in texts_of(value):
            if all(text in texts_of(o) for o in own):
                continue  # said the same in every language (a code, a pattern)
            for part in re.split(r"\{\w+\}", text):
                part = part.strip(" .,:;()·–-")
                if len(words(part)) >= 2:
                    found.add(part)
    return found


def english_on(html: str, lang: str, english_texts: set[str]) -> list[str]:
    """The English in a `lang` page."""
    shown, allowed = visible(html), names()
    own_terms = {t for v in catalogue(lang).values() for t in texts_of(v)}
    leaks = set()
    for text in shown:
        for label in BOARD_LABELS:
            if text == label and label not in own_terms:
                leaks.add(f"board label {label}")
        if text in allowed or re.fullmatch(r"(https?://|/)\S*", text) or data_only(text):
            continue
        bare = without_data(text)
        if text in english_texts and len(words(bare)) >= 2 and text not in own_terms:
            leaks.add(text)
        text = bare
        for fragment in FRAGMENTS:
            if re.search(rf"(?<!\w){re.escape(fragment)}(?!\w)", text):
                leaks.add(fragment)
        for term in ENGLISH_TERMS:
            if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text, re.I):
                leaks.add(f"{term!r} in {text!r}")
    return sorted(leaks)


FRAGMENTS = english_fragments()


# --- every page, in every state a test reaches ------------------------------------------------


@pytest.fixture(scope="module")
def two_logins():
    """Two wrong passwords lock a client out (five in service): the locked page, sooner."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lockout, "LOGIN", replace(lockout.LOGIN, attempts=2))
        yield


@pytest.fixture(scope="module")
def site(tmp_path_factory, lexicon_dir, two_logins):
    """An app in tournament mode with a director, a key, a paired tablet and rulings of every
    kind under every ruleset in its log."""
    folder = tmp_path_factory.mktemp("store")
    app = create_app(
        {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "MODE": "tournament",
            "DATABASE_URL": f"sqlite:///{folder / 'store.db'}",
        }
    )
    with app.app_context(), store.connection(write=True) as conn:
        directors.add(conn, "anna", PASSWORD, store_time.now())
        key = keys.create(conn, "K1", "app", [], set(rulesets()), store_time.now()).key
        ids = sorted(rulesets())
    app_key = {"Authorization": f"Bearer {key}"}
    client = app.test_client()
    for ruleset in ids:
        for words_asked in (["kat"], ["kat", "xqz"]):
            body = {"words": words_asked}
            if ruleset == "sbnl-punten":
                body |= {"player": "Jan", "game": "1"}
            client.post(f"/api/v1/rulesets/{ruleset}/challenge", json=body, headers=app_key)
        client.post(
            f"/api/v1/rulesets/{ruleset}/challenge",
            json={"words": ["kat"], "free_challenge": True},
            headers=app_key,
        )
    director = app.test_client()
    director.post("/director/login", data={"name": "anna", "password": PASSWORD})
    # Two tablets paired, one of them revoked: the device table in each state.
    for name in ("Bord 1", "Bord 2"):
        csrf = csrf_of(director.get("/director/").text)
        shown = director.post(
            "/director/pairings", data={"csrf": csrf, "name": name, "ruleset": "dsf-2015"}
        ).text
        code = re.search(r'id="pairing-code">([^<]+)<', shown)[1]
        assert app.test_client().post("/judge/pair", data={"code": code}).status_code == 303
    revoked = director.post("/director/devices/2/revoke", data={"csrf": csrf})
    assert revoked.status_code in (200, 303)
    return app, director, ids


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html)[1]


HTML = {"Accept": "text/html,application/xhtml+xml"}


# Routes outside the API that answer no HTML page: the director's screen's JSON polls, and the
# rulings page's download (a spreadsheet in the page's language: adjudicator/audit/tests).
NOT_PAGES = {"auth.devices_state_json", "auth.pairing_state_json", "audit.rulings_export"}


def html_routes(app) -> set[str]:
    """The URL map's page routes: every rule that is not the API's, a static file or JSON."""
    return {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if not rule.rule.startswith("/api/")
        and not rule.endpoint.endswith("static")
        and rule.endpoint not in NOT_PAGES
    }


def key_id(app, name: str) -> int:
    with app.app_context(), store.connection() as conn:
        return next(k["id"] for k in keys.listed(conn) if k["name"] == name)


def rendered(site, lang: str) -> dict[str, str]:
    """Every page in `lang` (by `?lang=`; a kiosk speaks its ruleset's language), by name."""
    app, director, ids = site
    anyone = app.test_client()
    q = {"lang": lang}
    pages: dict[str, str] = {}
    pages["/"] = anyone.get("/", query_string=q).text
    pages["/judge/"] = anyone.get("/judge/", query_string=q).text
    pages["/judge/unknown"] = anyone.get("/judge/unknown", query_string=q).text
    for ruleset in ids:
        kiosk = anyone.get(f"/judge/{ruleset}")
        if kiosk.text.startswith('<!doctype html>\n<html lang="' + lang):
            pages[f"/judge/{ruleset}"] = kiosk.text
    pages["login"] = anyone.get("/director/login", query_string=q).text
    wrong = {"name": "anna", "password": "wrong"}
    pages["login wrong"] = anyone.post("/director/login", query_string=q, data=wrong).text
    locked = app.test_client()
    for _ in range(3):
        response = locked.post("/director/login", query_string=q, data=wrong)
    pages["login locked"] = response.text
    home = director.get("/director/", query_string=q).text
    pages["home"] = home
    csrf = csrf_of(home)
    pages["pairing shown"] = director.post(
        "/director/pairings", query_string=q, data={"csrf": csrf, "name": "Bord 1", "ruleset": "*"}
    ).text
    pages["pairing refused"] = director.post(
        "/director/pairings", query_string=q, data={"csrf": csrf, "name": ""}
    ).text
    pages["home pin cleared"] = director.get(
        "/director/", query_string={**q, "cleared": "pin"}
    ).text
    pages["rulings"] = director.get("/director/rulings", query_string=q).text
    pages["rulings none"] = director.get(
        "/director/rulings", query_string={**q, "q": "nothing-matches"}
    ).text
    pages["check form"] = director.get("/director/games", query_string=q).text
    for ruleset in ids:
        record = RECORDS / f"{ruleset}.gcg"
        if record.exists():
            pages[f"check {ruleset}"] = director.post(
                "/director/games",
                query_string=q,
                data={"csrf": csrf, "ruleset": ruleset, "record": record.read_text("utf-8")},
                content_type="multipart/form-data",
            ).text
    pages["check refused"] = director.post(
        "/director/games",
        query_string=q,
        data={"csrf": csrf, "ruleset": "dsf-2015", "record": "junk"},
        content_type="multipart/form-data",
    ).text
    # The accounts page: app keys made, refused and revoked; directors added and refused.
    pages["accounts"] = director.get("/director/accounts", query_string=q).text
    made = {"csrf": csrf, "name": f"K-{lang}", "scope": ids[0]}
    pages["key made"] = director.post("/director/keys", query_string=q, data=made).text
    for name, form in (
        ("key refused", {"name": ""}),
        ("key exists", {"name": "K1"}),
        ("key unknown ruleset", {"name": f"K2-{lang}", "scope": "no-such-ruleset"}),
    ):
        pages[name] = director.post(
            "/director/keys", query_string=q, data={"csrf": csrf, **form}
        ).text
    revoke = f"/director/keys/{key_id(app, f'K-{lang}')}/revoke"
    pages["key revoked"] = director.post(
        revoke, query_string=q, data={"csrf": csrf}, follow_redirects=True
    ).text
    pages["key revoke unknown"] = director.post(
        "/director/keys/999/revoke", query_string=q, data={"csrf": csrf}
    ).text
    long = "x" * 1000
    for name, form in (
        ("director bad name", {"name": "", "password": PASSWORD, "password_again": PASSWORD}),
        ("director passwords differ", {"name": "bo", "password": PASSWORD, "password_again": "x"}),
        ("director password short", {"name": "bo", "password": "x", "password_again": "x"}),
        ("director password long", {"name": "bo", "password": long, "password_again": long}),
        ("director exists", {"name": "anna", "password": PASSWORD, "password_again": PASSWORD}),
    ):
        pages[name] = director.post(
            "/director/directors", query_string=q, data={"csrf": csrf, **form}
        ).text
    added = {"csrf": csrf, "name": f"bo{lang}", "password": PASSWORD, "password_again": PASSWORD}
    pages["director added"] = director.post(
        "/director/directors", query_string=q, data=added, follow_redirects=True
    ).text
    # The two-letter card speaks its ruleset's language, as a kiosk does.
    for ruleset in ids:
        card = director.get(f"/rulesets/{ruleset}/two-letter-card", query_string=q)
        if card.status_code == 200 and f'<html lang="{lang}"' in card.text:
            pages[f"card {ruleset}"] = card.text
            pages[f"card {ruleset} a5"] = director.get(
                f"/rulesets/{ruleset}/two-letter-card", query_string={**q, "size": "a5"}
            ).text
    pages["pair"] = anyone.get("/judge/pair", query_string=q).text
    pages["pair wrong"] = anyone.post(
        "/judge/pair", query_string=q, data={"code": "AAAA-BBBB"}
    ).text
    pages["error csrf"] = director.post(
        "/director/pin-lockouts/clear", query_string=q, data={"csrf": "stale"}, headers=HTML
    ).text
    pages["error filter"] = director.get(
        "/director/rulings", query_string={**q, "verdict": "maybe"}, headers=HTML
    ).text
    pages["error unknown path"] = director.get(
        "/director/no-such-page", query_string=q, headers=HTML
    ).text
    pages["error method"] = director.delete("/director/", query_string=q, headers=HTML).text
    pages["error device"] = director.post(
        "/director/devices/999/revoke", query_string=q, data={"csrf": csrf}, headers=HTML
    ).text
    return pages


@pytest.fixture(scope="module")
def every_page(site):
    return {lang: rendered(site, lang) for lang in LANGUAGES}


def test_every_html_route_is_rendered(site, every_page):
    """The enumeration below covers the URL map: a new page route fails here until it is."""
    app = site[0]
    covered = {
        "landing.landing", "judge.index", "judge.kiosk", "auth.login_form", "auth.login",
        "auth.logout", "auth.home", "auth.new_pairing", "auth.revoke_device",
        "auth.check_game_form", "auth.check_game_page", "auth.clear_pin_lockouts",
        "auth.pair_form", "auth.pair", "audit.rulings_page", "auth.accounts", "auth.create_key",
        "auth.revoke_key", "auth.add_director", "card.two_letter_card",
    }  # fmt: skip
    assert html_routes(app) == covered
    # The states are there: a paired and a revoked tablet, an app key, rulings, a board.
    home = every_page["da"]["home"]
    assert 'data-state="active"' in home and 'data-state="revoked"' in home
    assert '<table id="keys">' in home and 'id="pairing-code"' in every_page["da"]["pairing shown"]
    assert every_page["da"]["rulings"].count("<tr>") > len(site[2])
    assert all('class="board"' in every_page["da"][f"check {r}"] for r in KIOSK_RECORDS)
    for lang in LANGUAGES:  # a new key shown once, a revoked one and a new director listed
        accounts = every_page[lang]
        assert (
            f"K-{lang}" in accounts["key made"]
            and 'data-state="revoked"' in accounts["key revoked"]
        )
        assert f"bo{lang}" in accounts["director added"]
    assert any(name.startswith("card ") for name in every_page["nl"])
    for lang, pages in every_page.items():
        for name, html in pages.items():
            assert html.lstrip().startswith("<!doctype html>"), (lang, name, html[:200])
            assert f'<html lang="{lang}"' in html, (lang, name)


def leaks_on(every_page, lang: str, checked: bool) -> dict[str, list[str]]:
    english = {text for html in every_page["en"].values() for text in visible(html)}
    return {
        name: found
        for name, html in every_page[lang].items()
        if name.startswith("check ") == checked and (found := english_on(html, lang, english))
    }


@pytest.mark.parametrize("lang", OTHERS)
def test_no_page_falls_back_to_english(every_page, lang):
    assert leaks_on(every_page, lang, checked=False) == {}


@pytest.mark.parametrize("lang", OTHERS)
def test_a_checked_record_says_nothing_in_english(every_page, lang):
    assert leaks_on(every_page, lang, checked=True) == {}


def test_the_scan_finds_english(every_page):
    """The scan itself: English put into a Danish page is found, each way it can come."""
    english = {text for html in every_page["en"].values() for text in visible(html)}
    for planted in (
        "<p>The challenger loses their turn.</p>",  # a text of the English page
        "<p>Nogle ord: Wrong name or password</p>",  # a catalogue fragment
        '<span class="badge">open stand-in list</span>',  # a term
        '<svg><text x="1">3W</text></svg>',  # a board label
        '<button aria-label="Delete letter">x</button>',  # an attribute read out
    ):
        assert english_on(f"<body>{planted}</body>", "da", english), planted


# --- every message ------------------------------------------------------------------------


def test_every_catalogue_has_every_key_in_the_same_order():
    keys_en = list(catalogue("en"))
    for lang in OTHERS:
        assert list(catalogue(lang)) == keys_en, lang


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_is_in_its_language(lang):
    """A catalogue string left as its English is a slip unless it says no word (a pattern, a
    code) or is one of the few said the same on purpose."""
    same_on_purpose = {
        "da": {"dir_home_tablet", "dir_kind_jury", "dir_caller_app", "layout_qwerty", "app_name"},
        "sv": {"dir_kind_jury", "dir_caller_app", "layout_qwerty"},
        "nl": {
            "dir_home_tablet", "dir_kind_jury", "dir_caller_app", "dir_mode_open",
            "dir_pair_code", "layout_qwerty", "board_3w", "board_2w", "board_3l", "board_2l",
        },
    }  # fmt: skip
    en, own = catalogue("en"), catalogue(lang)
    same = {
        key
        for key, value in en.items()
        if own[key] == value
        and len(words(re.sub(r"\{\w+\}", "", json.dumps(value, ensure_ascii=False)))) > 1
        and key not in same_on_purpose[lang]
    }
    assert same == set()


# Plural entries whose count is not itself shown (it picks the verb: "Ann holds", "Ann and
# Bo hold").
COUNT_NOT_SHOWN = {"rack_over_set"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_are_cldrs(lang):
    """A string with a count gives exactly the forms CLDR's rule for the language picks among,
    each using its count, and the same keys are plural in every language."""
    categories = Locale.parse(lang).plural_form.tags | {"other"}  # CLDR's, and `other`
    for key, value in catalogue(lang).items():
        if isinstance(catalogue("en")[key], dict) or isinstance(value, dict):
            assert isinstance(value, dict), key
            assert set(value) - {COUNT} == categories, key
            if key in COUNT_NOT_SHOWN:
                continue
            for category in categories:
                assert "{" + value[COUNT] + "}" in value[category], (key, category)


@pytest.mark.parametrize(
    ("lang", "n", "said"),
    [
        ("nl", 1, "Deze speler mag in dit spel nog 1 woord opvragen."),
        ("nl", 2, "Deze speler mag in dit spel nog 2 woorden opvragen."),
        ("nl", 0, "Deze speler mag in dit spel nog 0 woorden opvragen."),
        ("en", 1, "This player may put 1 more word to the jury in this game."),
        ("sv", 1, "Spelaren får lägga fram 1 ord till för juryn i detta parti."),
    ],
)
def test_a_count_takes_its_plural_form(lang, n, said):
    assert fill(strings(lang)["jury_remaining"], n=n) == said


def test_a_point_is_one_point():
    assert fill(strings("nl")["dir_move_points"], n=1) == "1 punt"
    assert fill(strings("nl")["dir_move_points"], n=18) == "18 punten"
    assert fill(strings("en")["dir_move_points"], n=1) == "1 point"
    assert isinstance(strings("sv")["dir_move_points"], Plural)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_lockout_is_said_in_minutes(lang):
    from adjudicator.pages.strings import wait_text

    assert wait_text(lang, 900) == fill(strings(lang)["unit_minutes"], n=15)
    assert wait_text(lang, 61) == fill(strings(lang)["unit_minutes"], n=2)
    assert wait_text(lang, 60) == fill(strings(lang)["unit_minutes"], n=1)
    assert wait_text(lang, 30) == fill(strings(lang)["unit_seconds"], n=30)
    assert "900" not in wait_text(lang, 900)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_consequence_is_said_in_every_language(site, lang):
    """Each ruleset's every ruling, as the rulings page says it, in each page language: the
    ruleset's own words where it has that language, else the catalogue's for its kind."""
    from adjudicator.audit.reading import consequence_text

    app, t = site[0], strings(lang)
    with app.app_context():
        for ruleset in rulesets().values():
            for valid in (True, False):
                for free in (False, True):
                    for n in (1, 2):
                        consequence = ruleset.consequence(valid, n, free)
                        said = consequence_text(consequence, lang, t)
                        assert said and (lang == "en" or said not in ENGLISH_SAID), (
                            ruleset.id,
                            valid,
                        )
    for kind in CONSEQUENCE_KINDS:
        assert f"consequence_{kind}" in strings(lang)


ENGLISH_SAID = {
    t for r in load_rulesets(None).values() for t in (
        r.challenge.valid_text.get("en"), r.challenge.invalid_text.get("en"),
    )
}  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_error_pages_say_every_problem_in_the_pages_language(site, lang):
    """An error page shows its status, the problem's code and field (codes), and a message of
    the catalogue: never the service's English detail."""
    from adjudicator.pages.render import error_page
    from adjudicator.web.errors import ApiError

    app = site[0]
    english = set(FRAGMENTS)
    for problem in Problem:
        with app.test_request_context(f"/director/?lang={lang}"):
            detail = f"an English detail about {problem.value}"
            exc = ApiError(problem, detail, "field", status=None if problem.status else 400)
            html = error_page(exc).get_data(as_text=True)
        assert "an English detail" not in html, problem
        shown = " ".join(visible(html))
        assert not any(fragment in shown for fragment in english if lang != "en"), problem


# --- one term per concept ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_term_per_concept(lang):
    """The glossary: a catalogue string naming a concept by a banned synonym fails, naming the
    key, the concept and the word."""
    found = [
        (key, concept, m[0])
        for key, value in catalogue(lang).items()
        for text in texts_of(value)
        for concept, banned in GLOSSARY[lang].items()
        if (m := re.search(banned, text, re.I))
    ]
    assert found == []


def test_the_glossary_catches_a_synonym():
    assert re.search(GLOSSARY["da"]["kendelse (ruling)"], "Afgørelsen gælder hele lægningen", re.I)
    assert re.search(GLOSSARY["nl"]["spel (game)"], "Een partij controleren", re.I)
    assert not re.search(GLOSSARY["nl"]["spel (game)"], "Spel controleren", re.I)


# --- the game rules say their sentences through the catalogue ---------------------------------

PACKAGE = Path(__file__).parents[1]
REMARK_LISTS = {"errors", "deviations", "notes", "info"}  # a turn's remarks, shown on a page


def said_or_name(node: ast.expr) -> bool:
    """A `Said(...)` call, a generator of them, or a name/attribute/conditional holding one (a
    value built above, checked where it is built)."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in ("Said", "consequence")
    if isinstance(node, ast.GeneratorExp | ast.ListComp):
        return said_or_name(node.elt)
    if isinstance(node, ast.IfExp):
        return said_or_name(node.body) and said_or_name(node.orelse)
    return isinstance(node, ast.Name | ast.Attribute)


def english_sentences() -> list[str]:
    """Every remark, placement error or rule verdict the game rules build from a bare string
    or f-string: English a page could not say in its language."""
    found = []
    files = [*sorted((PACKAGE / "game").glob("*.py")), PACKAGE / "engine" / "placement.py"]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func, said = node.func, None
            if isinstance(func, ast.Attribute) and func.attr in ("append", "extend"):
                target = func.value
                if isinstance(target, ast.Attribute) and target.attr in REMARK_LISTS:
                    said = node.args[0]
            elif isinstance(func, ast.Name) and func.id == "PlacementError":
                said = node.args[1]
            elif isinstance(func, ast.Name) and func.id == "Verdict":
                said = node.args[2]
            if said is not None and not said_or_name(said):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_every_remark_of_the_game_rules_is_a_catalogue_sentence():
    assert english_sentences() == []


def test_every_catalogue_sentence_of_the_game_rules_exists():
    """Each `Said("key")` the code names is a key of every catalogue."""
    keys = set(catalogue("en"))
    named = set()
    for path in PACKAGE.rglob("*.py"):
        if "tests" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Said":
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant):
                    named.add(first.value)
                elif isinstance(first, ast.JoinedStr):  # f"prefix_{x}": the prefix's keys
                    prefix = first.values[0]
                    assert isinstance(prefix, ast.Constant), (path, node.lineno)
                    assert any(k.startswith(prefix.value) for k in keys), (path, node.lineno)
    assert named - keys == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sentence_is_said_in_each_language(lang):
    from adjudicator.messages import Said, Texts, said_in

    over = Said(
        "record_overdrawn",
        rack="AEKRSTUV",
        n=8,
        player="ann",
        expected=7,
        bag=86,
        source="000 §4.3b",
        rule=Texts({"da": "Dansk regel.", "en": "English rule."}),
    )
    said = said_in(lang, over)
    assert said.startswith(said_in(lang, Said("record_overdrawn_without_rule", rack="AEKRSTUV",
                                               n=8, player="ann", expected=7, bag=86,
                                               source="000 §4.3b")).removesuffix(" (000 §4.3b)"))  # fmt: skip
    assert ("Dansk regel." in said) == (lang == "da") and ("English rule." in said) == (
        lang == "en"
    )
    assert str(over) == said_in("en", over)  # the API's and the CLI's English
    nested = Said("record_game_over", how=Said("ending_passes", n=1))
    assert said_in(lang, nested) == fill(
        strings(lang)["record_game_over"], how=fill(strings(lang)["ending_passes"], n=1)
    )
