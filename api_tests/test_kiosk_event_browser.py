"""The judge's tablet at a real event (issue 29): half-typed words survive a minute's checking,
the jury's player and game survive each query, an unpaired or revoked tablet says so before
anyone types, and the entry screen says what the verdict will rest on. Debian's Chromium at
1024×768 and 768×1024 with touch; axe-core finds no serious or critical violation."""

from __future__ import annotations

import re

import pytest
import requests

from adjudicator.bounds import MAX_CHALLENGE_WORDS
from adjudicator.pages.strings import fill, strings
from api_tests.browser import (
    ORIENTATIONS,
    PIN,
    enter_words,
    expect,
    judge,
    open_kiosk,
    serious_violations,
    start_server,
)
from api_tests.conftest import pairing_code, store_cli

pytestmark = pytest.mark.slow  # a server (and a browser): left out of `make test-quick`

PASSWORD = "correct horse battery"
IDS = ["landscape", "portrait"]


def tap_keys(page, letters: str) -> None:
    """Letters tapped on the on-screen keyboard (a touch, not a click)."""
    for letter in letters:
        page.locator(f"#keys [data-letter='{letter}']").tap()


@pytest.mark.parametrize("viewport", ORIENTATIONS, ids=IDS)
def test_idle_words_last_a_minute_with_a_countdown_any_touch_restarts(
    browser_context, judge_server, viewport
):
    page = browser_context(viewport)
    open_kiosk(page, judge_server, "dsf-2015")
    countdown = page.locator("#idle-countdown")
    expect(countdown).to_be_hidden()
    page.clock.pause_at((page.evaluate("Date.now()") + 2000) / 1000)
    tap_keys(page, "KAT")
    words = page.locator("#words .word-text")
    expect(words.first).to_have_text("KAT")
    page.clock.fast_forward(49_000)  # checking five words against the board takes a while
    expect(words.first).to_have_text("KAT")
    expect(countdown).to_be_hidden()
    page.clock.fast_forward(2_000)  # the last ten seconds: a countdown says what will happen
    expect(countdown).to_be_visible()
    expect(countdown).to_contain_text(re.compile(r"\b(9|10)\b"))
    page.clock.resume()  # axe-core waits on timers of its own
    assert serious_violations(page) == []
    page.locator("#enter-title").tap()  # any touch restarts it
    expect(countdown).to_be_hidden()
    page.clock.pause_at((page.evaluate("Date.now()") + 1000) / 1000)
    page.clock.fast_forward(55_000)
    expect(words.first).to_have_text("KAT")
    page.keyboard.press("Shift")  # and any key
    page.clock.fast_forward(57_000)
    expect(words.first).to_have_text("KAT")
    page.clock.fast_forward(4_000)
    expect(words.first).to_have_text("")
    expect(countdown).to_be_hidden()


@pytest.mark.parametrize("viewport", ORIENTATIONS, ids=IDS)
def test_jury_keeps_player_and_game_and_keys_type_into_the_focused_field(
    browser_context, judge_server, viewport
):
    nl = strings("nl")
    page = browser_context(viewport)
    open_kiosk(page, judge_server, "sbnl-punten")
    # open mode, sbnl-punten's limit is for tournaments: said before anything is sent
    note = page.locator("#jury-count")
    expect(note).to_have_text(nl["jury_uncounted_event"])
    page.locator("#jury-player").tap()
    tap_keys(page, "ANNA")
    assert page.input_value("#jury-player") == "ANNA"
    expect(page.locator("#words .word-text").first).to_have_text("")
    page.locator("#jury-game").tap()
    tap_keys(page, "RT")
    assert page.input_value("#jury-game") == "RT"
    page.locator("#words .word-text").first.tap()
    tap_keys(page, "HALLO")
    expect(page.locator("#words .word-text").first).to_have_text("HALLO")
    assert page.input_value("#jury-player") == "ANNA"
    assert serious_violations(page) == []
    page.locator("#judge").tap()
    expect(page.locator(".verdict-word")).to_have_text(nl["jury_valid"])
    page.clock.fast_forward(600)
    page.locator("#screen-result").tap()
    expect(page.locator("#screen-enter")).to_be_visible()
    # the next query is the same player's in the same game: kept, the words cleared
    assert page.input_value("#jury-player") == "ANNA"
    assert page.input_value("#jury-game") == "RT"
    expect(page.locator("#words .word-text").first).to_have_text("")
    page.locator("#start-over").tap()
    assert page.input_value("#jury-player") == "" and page.input_value("#jury-game") == ""


def test_a_query_that_will_not_be_counted_says_so_before_it_is_sent(page, tmp_path):
    nl = strings("nl")
    url = f"sqlite:///{tmp_path / 'adjudicator.db'}"
    srv = start_server(tmp_path, ADJUDICATOR_DATABASE_URL=url, ADJUDICATOR_JURY_LIMIT="on")
    try:
        open_kiosk(page, srv, "sbnl-punten")
        note = page.locator("#jury-count")
        expect(note).to_have_text(nl["jury_uncounted_labels"])  # open mode, no labels yet
        page.fill("#jury-player", "Anna")
        expect(note).to_have_text(nl["jury_uncounted_labels"])
        page.fill("#jury-game", "r3-t1")
        # the words left, from the service, before the query (issue 36.5)
        expect(note).to_have_text(nl["jury_counted"] + " " + fill(nl["jury_words_left"], n=10))
    finally:
        srv.stop()


def test_at_most_the_rulesets_words_a_ninth_is_not_joined_onto_the_eighth(page, judge_server):
    assert MAX_CHALLENGE_WORDS == 8
    open_kiosk(page, judge_server, "wespa")
    enter_words(page, ["word"] * 7 + ["last"])
    page.keyboard.press("Space")
    page.keyboard.type("extra")
    words = page.locator("#words .word-text")
    expect(words).to_have_count(8)
    expect(words.nth(7)).to_have_text("LAST")
    expect(page.locator("#enter-message")).to_have_text("At most 8 words at a time.")


def test_every_refused_character_is_explained(page, judge_server):
    en = strings("en")
    open_kiosk(page, judge_server, "wespa")
    page.focus("#capture")
    page.keyboard.type("a1b-c")
    message = page.locator("#enter-message")
    expect(message).to_contain_text(fill(en["refused_digit"], char="1"))
    expect(message).to_contain_text(fill(en["refused_hyphen"], char="-"))


@pytest.mark.parametrize("viewport", ORIENTATIONS, ids=IDS)
def test_the_word_list_shows_before_the_verdict_and_the_ruling_id_reads_at_arms_length(
    browser_context, judge_server, viewport
):
    page = browser_context(viewport)
    open_kiosk(page, judge_server, "ssf-1999")
    lexicon = page.locator("#enter-lexicon")
    expect(lexicon).to_contain_text("Den stora svenska ordlistan")
    expect(lexicon).to_contain_text("1.4.5-3")
    judge(page, ["hej", "ord"])
    size = page.locator(".ruling-id").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 32
    verdict = page.locator(".verdict-word").evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert verdict >= 96  # GILTIGT across the tablet, in either orientation
    box = page.locator(".ruling-id").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 1
    assert box["y"] + box["height"] <= viewport["height"] + 1
    assert serious_violations(page) == []


# --- tournament mode: pairing -----------------------------------------------------------------


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    database = f"sqlite:///{tmp_path_factory.mktemp('kiosk-store') / 'adjudicator.db'}"
    add = store_cli(database, "directors", "add", "anna", "--password-stdin", stdin=PASSWORD)
    assert add.returncode == 0, add.stderr
    srv = start_server(
        tmp_path_factory.mktemp("kiosk-event"), ADJUDICATOR_DATABASE_URL=database,
        ADJUDICATOR_MODE="tournament", ADJUDICATOR_JUDGE_PIN=PIN,
    )  # fmt: skip
    yield srv
    srv.stop()


def director(server) -> requests.Session:
    session = requests.Session()
    response = session.post(
        f"{server.url}/director/login", data={"name": "anna", "password": PASSWORD}, timeout=10
    )
    assert response.ok
    return session


@pytest.mark.parametrize("viewport", ORIENTATIONS, ids=IDS)
@pytest.mark.parametrize(("ruleset_id", "language"), [("dsf-2015", "da"), ("ssf-1999", "sv")])
def test_an_unpaired_tablet_says_so_when_it_loads(
    browser_context, tournament, viewport, ruleset_id, language
):
    page = browser_context(viewport)
    open_kiosk(page, tournament, ruleset_id)
    banner = page.locator("#pairing")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(strings(language)["kiosk_not_paired"])
    link = banner.locator("a")
    assert link.get_attribute("href").startswith("/judge/pair")
    page.focus("#capture")
    page.keyboard.type("hej")
    expect(page.locator("#judge")).to_be_disabled()
    assert serious_violations(page) == []


def test_a_paired_tablet_shows_its_table_and_a_revoked_one_stops_without_retry(page, tournament):
    sv = strings("sv")
    session = director(tournament)
    code, csrf = pairing_code(tournament, session, "Bord 3")
    page.goto(f"{tournament.url}/judge/pair#code={code}")
    expect(page).to_have_url(f"{tournament.url}/judge/ssf-1999")
    open_kiosk(page, tournament, "ssf-1999")
    expect(page.locator("#table-name")).to_have_text("Bord 3")
    expect(page.locator("#pairing")).to_be_hidden()

    screen = session.get(f"{tournament.url}/director/", timeout=10).text
    device = re.search(r'data-device="(\d+)" data-state="active"', screen).group(1)
    revoked = session.post(
        f"{tournament.url}/director/devices/{device}/revoke", data={"csrf": csrf}, timeout=10
    )
    assert revoked.ok
    enter_words(page, ["hej", "ord"])  # revoked while the page was open: told on the answer
    page.click("#judge")
    expect(page.locator("#screen-error")).to_be_visible()
    expect(page.locator("#error-body")).to_have_text(sv["not_paired"])
    expect(page.locator("#error-retry")).to_be_hidden()
    expect(page.locator("#error-pair")).to_be_visible()
    page.click("#error-reset")
    expect(page.locator("#pairing")).to_be_visible()
    expect(page.locator("#table-name")).to_have_text("")


def test_an_invisible_character_in_the_player_is_named_on_the_tablet(page, tmp_path):
    """Issue 35: `Anna` + U+FE0F is refused by the service (label_disallowed_character); the
    tablet goes back to the words, kept, and names the character in the page's language."""
    nl = strings("nl")
    url = f"sqlite:///{tmp_path / 'adjudicator.db'}"
    srv = start_server(tmp_path, ADJUDICATOR_DATABASE_URL=url, ADJUDICATOR_JURY_LIMIT="on")
    try:
        open_kiosk(page, srv, "sbnl-punten")
        page.fill("#jury-player", "Anna\ufe0f")
        page.fill("#jury-game", "r3-t1")
        enter_words(page, ["woord"])
        page.click("#judge")
        message = page.locator("#enter-message")
        named = fill(nl["jury_label_character"], char="U+FE0F VARIATION SELECTOR-16")
        expect(message).to_have_text(named)
        expect(page.locator("#words .word-text").first).to_have_text("WOORD")
    finally:
        srv.stop()
