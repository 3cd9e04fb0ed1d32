"""The two-letter card for the tables (003 Verloop van het spel: "een lijstje met
tweeletterwoorden ligt op elke speeltafel"), and who may have it: a list of every two-letter word
discloses words, so a director always, anyone else only where the ruleset's `[card]` says the
card is public (003), or in open mode under the `word` policy."""

from __future__ import annotations

import re
from importlib import resources
from shutil import copy

import pytest

from adjudicator.catalogue import lexicon_for, rulesets
from adjudicator.judge.card import card_served
from adjudicator.rulesets import load_rulesets
from adjudicator.tests.conftest import build_lexicon, build_test_lexicons

from .conftest import add_director, login

CARD = "/rulesets/{}/two-letter-card"
WORDS = ["ab", "ad", "af", "hej", "ok", "år", "ø", "øl", "ærter", "ål", "xy"]


@pytest.fixture
def card_app(make_app, tmp_path):
    """dsf-2015 (`word`) and naspa (`play`) asking for a card that is not public; the Danish
    lexicon with two-letter words in the alphabet's order to check (Æ Ø Å last)."""
    rules = tmp_path / "rules"
    rules.mkdir()
    for ruleset_id in ("dsf-2015", "naspa"):
        bundled = resources.files("adjudicator") / "rulesets" / f"{ruleset_id}.toml"
        text = bundled.read_text("utf-8") + "\n[card]\ntwo_letter = true\n"
        (rules / f"{ruleset_id}.toml").write_text(text, encoding="utf-8")

    def make(**config):
        lexicons = build_lexicon(tmp_path / "da", "wdanish", "da", WORDS)
        others = build_test_lexicons(tmp_path / "others")
        for f in others.iterdir():
            if not f.name.startswith("wdanish"):
                copy(f, lexicons / f.name)
        app = make_app(RULESET_DIR=str(rules), LEXICON_DIR=str(lexicons), **config)
        add_director(app)
        return app

    return make


def words_on(html: str) -> list[str]:
    return re.findall(r"<li>([^<]+)</li>", html)


@pytest.mark.parametrize(
    ("two_letter", "public", "policy", "director", "tournament", "served"),
    [
        (False, True, "word", True, False, False),  # no card asked for: none, for anyone
        (True, False, "play", True, True, True),  # a director always
        (True, True, "play", False, True, True),  # 003: on every table
        (True, False, "play", False, False, False),  # `play`: not even in open mode
        (True, False, "word", False, False, True),  # open mode, `word`: each word is askable
        (True, False, "word", False, True, False),  # tournament mode: directors only
    ],
)
def test_who_is_served_the_card(two_letter, public, policy, director, tournament, served):
    base = load_rulesets()
    r = base["sbnl-punten"].model_copy(
        update={
            "card": base["sbnl-punten"].card.model_copy(
                update={"two_letter": two_letter, "public": public}
            ),
            "disclosure": base["sbnl-punten"].disclosure.model_copy(update={"policy": policy}),
        }
    )
    assert card_served(r, director, tournament) is served


def test_sbnl_card_is_public_in_tournament_mode_003(card_app):
    """003: the list lies on every table, so anyone may fetch it, in tournament mode too."""
    app = card_app(MODE="tournament")
    r = app.test_client().get(CARD.format("sbnl-punten"))
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert '<html lang="nl">' in html and "tweeletterwoorden" in html
    with app.app_context():
        lexicon = lexicon_for(rulesets()["sbnl-punten"])
        expected = sorted(w for w in lexicon.words() if len(w) == 2)
        identity = lexicon.identity()
    assert words_on(html) == expected
    assert identity["title"] in html and identity["sha256"][:12] in html
    assert identity["sha256"][:13] not in html  # a prefix, not the whole checksum
    assert re.search(r"Afgedrukt op \d{4}-\d\d-\d\d", html)


def test_a_card_not_public_is_for_directors_in_tournament_mode(card_app):
    app = card_app(MODE="tournament")
    anonymous = app.test_client().get(CARD.format("dsf-2015"))
    assert anonymous.status_code == 303 and "/director/login" in anonymous.headers["Location"]
    director = app.test_client()
    assert login(director).status_code == 303
    r = director.get(CARD.format("dsf-2015"))
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    # Danish, in the Danish alphabet's order: Æ Ø Å after Z.
    assert words_on(html) == ["AB", "AD", "AF", "OK", "XY", "ØL", "ÅL", "ÅR"]
    assert '<html lang="da">' in html and "De 8 ord på to bogstaver" in html


def test_in_open_mode_a_word_policy_card_is_anyones_a_play_policy_card_is_not(card_app):
    app = card_app()
    client = app.test_client()
    assert client.get(CARD.format("dsf-2015")).status_code == 200
    assert client.get(CARD.format("naspa")).status_code == 303


def test_a_ruleset_without_a_card_and_a_bad_size(card_app):
    client = card_app().test_client()
    r = client.get(CARD.format("wespa"))
    assert r.status_code == 404 and r.json["code"] == "not_found"
    r = client.get(CARD.format("sbnl-punten"), query_string={"size": "b4"})
    assert r.status_code == 400 and r.json["field"] == "size"
    r = client.get(CARD.format("sbnl-punten"), query_string={"paper": "a5"})
    assert r.status_code == 400 and r.json["code"] == "unknown_parameter"


def test_the_director_home_links_each_card(card_app):
    app = card_app(MODE="tournament")
    director = app.test_client()
    login(director)
    html = director.get("/director/").get_data(as_text=True)
    links = re.findall(r'href="(/rulesets/[^"]+/two-letter-card[^"]*)"', html)
    for ruleset_id in ("dsf-2015", "naspa", "sbnl-punten"):
        assert CARD.format(ruleset_id) in links
        assert CARD.format(ruleset_id) + "?size=a5" in links
    assert not any("wespa" in link for link in links)
