"""The jury's tablet and the kiosk's keys (issue 36, items 5 and 8), in Debian's Chromium with
touch: the words a player has left, read from the service before each query, and a query of more
refused on the tablet; the player's whole name in portrait; the keys each language declares
(Dutch Ĳ and É); every word with a bad character named; the word shown as it was judged; the
tries a PIN has left. Screenshots at 1280×800, 800×1280, 1366×768 and 1024×768; axe-core finds no serious
or critical violation."""

from __future__ import annotations

import pytest
import requests

from adjudicator.pages.strings import fill, strings
from api_tests.browser import PIN, enter_words, expect, open_kiosk, serious_violations, shot
from api_tests.conftest import start_server

pytestmark = pytest.mark.slow  # a server and a browser: left out of `make test-quick`

WIDE = {"width": 1280, "height": 800}
TALL = {"width": 800, "height": 1280}
LAPTOP = {"width": 1366, "height": 768}
SMALL = {"width": 1024, "height": 768}  # an older 10-inch tablet, landscape
SIZES = [WIDE, TALL, LAPTOP, SMALL]
SIZE_IDS = ["1280x800", "800x1280", "1366x768", "1024x768"]
JURY = "/api/v1/rulesets/sbnl-punten/challenge"


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    """An event that counts the jury's words, with a PIN."""
    folder = tmp_path_factory.mktemp("jury-kiosk")
    srv = start_server(
        folder,
        ADJUDICATOR_DATABASE_URL=f"sqlite:///{folder / 'adjudicator.db'}",
        ADJUDICATOR_JURY_LIMIT="on",
        ADJUDICATOR_JUDGE_PIN=PIN,
    )
    yield srv
    srv.stop()


def spend(server, game: str, player: str, words: int) -> int:
    """Put `words` words to the jury for the player outside the page; the words left."""
    body = {"words": ["woord"] * words, "game": game, "player": player}
    answer = requests.post(server.url + JURY, json=body, timeout=10)
    assert answer.ok, answer.text
    return answer.json()["queries_remaining"]


@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_the_words_left_show_before_each_query_and_more_is_refused_on_the_tablet(
    browser_context, counted, viewport
):
    nl = strings("nl")
    page = browser_context(viewport)
    game = f"r3-{viewport['width']}"
    assert spend(counted, game, "Anna de Vries", 8) == 2
    open_kiosk(page, counted, "sbnl-punten")
    page.fill("#jury-player", "Anna de Vries")
    page.fill("#jury-game", game)
    note = page.locator("#jury-count")
    expect(note).to_contain_text(fill(nl["jury_words_left"], n=2))
    # the whole name shows, in portrait too (it was cut to "Anna")
    player = page.locator("#jury-player")
    assert player.evaluate("e => e.scrollWidth <= e.clientWidth"), "the name is cut off"
    # and the game beside it (at 1024×768 both were: the title took the row)
    assert page.locator("#jury-game").evaluate("e => e.scrollWidth <= e.clientWidth"), "the game"
    enter_words(page, ["hallo", "woord", "boom"])
    message = page.locator("#enter-message")
    over = fill(nl["jury_over_left"], player="Anna de Vries", game=game, left=2, words=3)
    expect(message).to_have_text(over)
    expect(page.locator("#judge")).to_be_disabled()
    shot(page, f"jury-over-left-{viewport['width']}x{viewport['height']}")
    page.locator("[data-remove='2']").tap()
    expect(page.locator("#judge")).to_be_enabled()
    page.locator("#judge").tap()
    expect(page.locator("#screen-result")).to_be_visible()
    expect(page.locator(".jury-remaining")).to_have_text(fill(nl["jury_remaining"], n=0))
    page.clock.fast_forward(600)
    page.locator("#screen-result").tap()
    expect(page.locator("#screen-enter")).to_be_visible()
    expect(note).to_contain_text(fill(nl["jury_words_left"], n=0))
    none_left = fill(nl["jury_none_left"], player="Anna de Vries", game=game)
    expect(message).to_have_text(none_left)  # before anything is typed
    enter_words(page, ["boom"])
    expect(page.locator("#judge")).to_be_disabled()
    expect(message).to_have_text(none_left)
    shot(page, f"jury-none-left-{viewport['width']}x{viewport['height']}")
    assert serious_violations(page) == []
    # another player in the same game has all ten
    page.fill("#jury-player", "Bo")
    expect(note).to_contain_text(fill(nl["jury_words_left"], n=10))
    expect(page.locator("#judge")).to_be_enabled()
    page.locator("#judge").tap()
    expect(page.locator(".jury-remaining")).to_have_text(fill(nl["jury_remaining"], n=9))
    assert spend(counted, game, "Bo", 4) == 5  # meanwhile, from another tablet
    page.clock.fast_forward(600)
    page.locator("#screen-result").tap()
    expect(note).to_contain_text(fill(nl["jury_words_left"], n=5))  # read afresh


@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_the_dutch_keyboard_has_ij_and_e_acute_and_shows_what_was_judged(
    browser_context, counted, viewport
):
    page = browser_context(viewport)
    open_kiosk(page, counted, "sbnl-punten")
    for letter in ("Ĳ", "É", "Ë"):
        expect(page.locator(f"#keys [data-letter='{letter}']")).to_be_visible()
    page.fill("#jury-player", "Cor")
    page.fill("#jury-game", f"keys-{viewport['width']}")
    page.focus("#capture")
    for letter in ("Ĳ", "S"):
        page.locator(f"#keys [data-letter='{letter}']").tap()
    expect(page.locator("#words .word-text").first).to_have_text("ĲS")
    shot(page, f"keyboard-nl-{viewport['width']}x{viewport['height']}")
    page.locator("#judge").tap()
    expect(page.locator("#screen-result")).to_be_visible()
    # the form the service judged and logged, not the one typed
    expect(page.locator(".result-words li .w")).to_have_text(["IJS"])
    assert serious_violations(page) == []


def test_the_verdict_shows_the_word_as_judged_ide_not_ide_acute(page, counted):
    open_kiosk(page, counted, "dsf-2015")
    expect(page.locator("#keys [data-letter='É']")).to_be_visible()
    page.focus("#capture")
    for letter in "IDÉ":
        page.locator(f"#keys [data-letter='{letter}']").tap()
    page.locator("#judge").tap()
    expect(page.locator("#screen-result")).to_be_visible()
    expect(page.locator(".result-words li .w")).to_have_text(["IDE"])


def test_every_word_with_a_bad_character_is_named(page, counted):
    en = strings("en")
    open_kiosk(page, counted, "wespa")
    enter_words(page, ["ok", "a1b", "fine", "c-d"])
    message = page.locator("#enter-message")
    second = fill(en["word_problem"], n=2, reason=fill(en["refused_digit"], char="1"))
    fourth = fill(en["word_problem"], n=4, reason=fill(en["refused_hyphen"], char="-"))
    expect(message).to_have_text(second + " " + fourth)
    expect(page.locator("#judge")).to_be_disabled()


@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_the_pin_screen_says_how_many_tries_are_left(browser_context, counted, viewport):
    sv = strings("sv")
    page = browser_context(viewport)
    open_kiosk(page, counted, "ssf-1999")
    page.locator("#director").tap()
    expect(page.locator("#screen-pin")).to_be_visible()
    page.fill("#pin", "1111")
    page.locator("#pin-submit").tap()
    message = page.locator("#pin-message")
    expect(message).to_have_text(fill(sv["pin_tries_left"], n=4))
    page.fill("#pin", "2222")
    page.locator("#pin-submit").tap()
    expect(message).to_have_text(fill(sv["pin_tries_left"], n=3))
    shot(page, f"pin-tries-{viewport['width']}x{viewport['height']}")
    assert serious_violations(page) == []
    page.fill("#pin", PIN)
    page.locator("#pin-submit").tap()
    expect(page.locator("#screen-admin")).to_be_visible()  # a right PIN clears the count
