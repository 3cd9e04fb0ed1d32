"""The judge's tablet in a real browser (Debian's Chromium via Playwright) against gunicorn.

Never `playwright install`: these tests drive the system Chromium only. Without it they skip,
saying how to install it; with REQUIRE_BROWSER=1 (CI) they fail instead. Time-dependent tests
use Playwright's clock, so the page keeps its production timers (10 s, 0.5 s, 60 s). Every test
that depends on the screen runs at 1024×768 and 768×1024 with touch. Screenshots go to
test-output/screenshots/ (api_tests/test_judge_screens.py takes one of every screen).
"""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
import requests

from api_tests.browser import (
    BOGUS,
    ORIENTATIONS,
    PIN,
    VALID_WORDS,
    dismiss,
    enter_words,
    expect,
    judge,
    open_kiosk,
    overlaps,
    result_words,
    start_server,
)
from api_tests.conftest import store_cli

# Slow (Chromium against gunicorn, two minutes): `make test-quick` leaves these out.
pytestmark = pytest.mark.slow

KIOSKS = [("dsf-2015", "da"), ("ssf-1999", "sv"), ("sbnl-punten", "nl"), ("wespa", "en")]


def test_whole_flow_ssf_1999_play_policy(page, judge_server):
    depth = open_kiosk(page, judge_server, "ssf-1999")
    assert page.locator("html").get_attribute("lang") == "sv"
    expect(page.locator("#enter-title")).to_have_text("Skriv de utmanade orden")
    judge(page, ["hej", "ord"])
    result = page.locator("#screen-result")
    expect(result.locator(".verdict-word")).to_have_text("GILTIGT")
    assert result.get_attribute("data-ruling") == "valid"
    assert result.locator(".verdict-icon").count() == 1  # readable without colour
    assert result_words(page) == ["HEJ", "ORD"]
    expect(result.locator(".consequence")).to_contain_text("Den som utmanade får 10 poängs avdrag.")
    lexicon = result.locator(".lexicon")
    expect(lexicon).to_contain_text("Den stora svenska ordlistan")
    expect(lexicon).to_contain_text("version 1.4.5-3")
    # the edition's checksum under the verdict (002: the players know which printing ruled)
    expect(lexicon).to_contain_text(re.compile(r"SHA-256 [0-9a-f]{12}…"))
    expect(lexicon.locator(".badge")).to_have_text("öppen ersättningslista")
    expect(result.locator(".ruling-id")).to_have_text(re.compile(r"^Utslag( [0-9a-f]{4}){8}$"))
    assert page.locator("#result-body").get_attribute("aria-live") == "assertive"
    dismiss(page)

    judge(page, ["hej", BOGUS])
    expect(result.locator(".verdict-word")).to_have_text("OGILTIGT")
    assert result.get_attribute("data-ruling") == "invalid"
    expect(result.locator(".consequence")).to_contain_text("Brickorna tas tillbaka")
    assert sorted(result_words(page)) == sorted(["HEJ", BOGUS])
    assert result.locator(".mark, .word-valid, .word-invalid").count() == 0
    dismiss(page)
    assert page.evaluate("history.length") == depth


def test_whole_flow_dsf_2015_word_policy(page, judge_server):
    open_kiosk(page, judge_server, "dsf-2015")
    assert page.locator("html").get_attribute("lang") == "da"
    judge(page, ["hej", "ord"])
    expect(page.locator(".verdict-word")).to_have_text("GYLDIG")
    expect(page.locator(".consequence")).to_contain_text("Udfordreren mister sin tur.")
    expect(page.locator(".lexicon .badge")).to_have_text("åben erstatningsliste")
    dismiss(page)

    judge(page, [BOGUS, "hej"])
    expect(page.locator(".verdict-word")).to_have_text("UGYLDIG")
    items = page.locator(".result-words li")
    assert items.count() == 2  # the word policy keeps the order typed and marks each word
    assert items.nth(0).get_attribute("class") == "word-invalid"
    assert items.nth(1).get_attribute("class") == "word-valid"
    assert "✗" in items.nth(0).inner_text() and "✓" in items.nth(1).inner_text()
    expect(page.locator(".consequence")).to_contain_text("Lægningen tages tilbage")


def test_the_invalid_word_is_not_identifiable_under_play_policy(page, judge_server):
    open_kiosk(page, judge_server, "ssf-1999")
    snapshots = []
    for words in ([BOGUS, "hej", "ord"], ["hej", "ord", BOGUS], ["ord", BOGUS, "hej"]):
        judge(page, words)
        html = page.evaluate("document.documentElement.outerHTML")
        # the ruling id is random for every ruling, whatever its words
        snapshots.append(re.sub(r"Utslag( [0-9a-f]{4}){8}", "Utslag ID", html))
        dismiss(page)
    assert snapshots[0] == snapshots[1] == snapshots[2]
    assert BOGUS in snapshots[0] and "OGILTIGT" in snapshots[0]
    # no per-word class or attribute at all, only the text of each word
    assert re.findall(r'<span class="w">([^<]*)</span>', snapshots[0]) == sorted(
        ["HEJ", "ORD", BOGUS]
    )


def test_result_and_idle_input_clear_themselves(page, judge_server):
    depth = open_kiosk(page, judge_server, "dsf-2015")
    enter_words(page, ["hej", "ord"])
    # from here only fast_forward moves time (2 s ahead: never "the past" on a busy machine)
    page.clock.pause_at((page.evaluate("Date.now()") + 2000) / 1000)
    page.click("#judge")
    expect(page.locator("#screen-result")).to_be_visible()
    page.clock.fast_forward(200)
    page.click("#screen-result")  # the second tap of a double tap: too soon to clear
    expect(page.locator("#screen-result")).to_be_visible()
    page.clock.fast_forward(9300)  # 9.5 s in all: still showing
    expect(page.locator("#screen-result")).to_be_visible()
    page.clock.fast_forward(700)
    expect(page.locator("#screen-enter")).to_be_visible()
    assert "HEJ" not in page.content()  # nothing of it stays in the DOM
    assert "GYLDIG" not in page.inner_html("main")  # (the strings themselves are in the config)

    enter_words(page, ["kat"])
    expect(page.locator("#words .word-text").first).to_have_text("KAT")
    page.clock.fast_forward(59_000)
    expect(page.locator("#words .word-text").first).to_have_text("KAT")
    page.keyboard.type("s")  # input restarts the idle timer
    page.clock.fast_forward(59_000)
    expect(page.locator("#words .word-text").first).to_have_text("KATS")
    page.clock.fast_forward(1_500)
    expect(page.locator("#words .word-text")).to_have_count(1)
    expect(page.locator("#words .word-text").first).to_have_text("")
    assert "KATS" not in page.content()
    assert page.evaluate("history.length") == depth


@pytest.mark.parametrize(("ruleset_id", "language"), KIOSKS)
def test_keyboard_alone(page, judge_server, ruleset_id, language):
    """A physical keyboard, no pointer: type, space, Enter to JUDGE, Enter, any key, Escape."""
    open_kiosk(page, judge_server, ruleset_id)
    first, second = VALID_WORDS[language]
    page.keyboard.type(first)
    page.keyboard.press("Space")
    page.keyboard.type(second)
    page.keyboard.press("Enter")  # to the judge button...
    assert page.evaluate("document.activeElement.id") == "judge"
    page.keyboard.press("Enter")  # ...and a second Enter judges
    expect(page.locator("#screen-result")).to_have_attribute("data-ruling", "valid")
    page.keyboard.press("Enter")  # a repeat at once does not clear it
    expect(page.locator("#screen-result")).to_be_visible()
    page.clock.fast_forward(600)
    page.keyboard.press("Space")
    expect(page.locator("#screen-enter")).to_be_visible()
    assert page.evaluate("document.activeElement.id") == "capture"
    page.keyboard.type("x")
    page.keyboard.press("Escape")  # start over
    expect(page.locator("#words .word-text").first).to_have_text("")
    # Tab reaches the controls in order, each with a visible focus ring
    page.keyboard.type("ab")
    current_word = page.locator("#words .word.current .word-text")
    assert current_word.evaluate("e => getComputedStyle(e).outlineStyle") != "none"  # typing here
    seen = []
    for _ in range(4):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("document.activeElement.id || document.activeElement.className"))
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none", seen[-1]
    assert seen == ["word-remove", "layout-switch", "start-over", "judge"]
    assert current_word.evaluate("e => getComputedStyle(e).outlineStyle") == "none"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "start-over"
    page.keyboard.press("Enter")  # "start over" from the keyboard
    expect(page.locator("#words .word-text").first).to_have_text("")


@pytest.mark.parametrize(("ruleset_id", "language"), KIOSKS)
def test_refused_characters_stay_visible_marked_and_block_judge(
    page, judge_server, ruleset_id, language
):
    open_kiosk(page, judge_server, ruleset_id)
    # a letter the language's query check refuses (English transliterates most others)
    foreign = {"da": "ł", "sv": "ø", "nl": "ø", "en": "ə"}[language]
    page.keyboard.type("h1s")  # a physical keyboard
    page.keyboard.press("Space")
    page.keyboard.type(f"s{foreign}t")  # not on a US keyboard: arrives as text input
    words = page.locator("#words .word-text")
    expect(words.nth(0)).to_have_text("H1S")
    # A refused letter stays as typed (the service's capitals are for its own letters only), so
    # the page names the character the service would name.
    expect(words.nth(1)).to_have_text(f"S{foreign}T")
    expect(words.nth(0).locator("mark.bad")).to_have_text("1")
    expect(words.nth(1).locator("mark.bad")).to_have_text(foreign)
    message = page.locator("#enter-message")
    expect(message).to_contain_text("1")
    strings = page.evaluate(
        "JSON.parse(document.getElementById('judge-config').textContent).strings"
    )
    expect(message).to_contain_text(strings["refused_digit"].split("{char}")[1].strip(" ."))
    expect(page.locator("#judge")).to_be_disabled()
    page.keyboard.press("Enter")  # cannot judge: still disabled, still said
    expect(page.locator("#judge")).to_be_disabled()

    page.click("#words .word-text >> nth=0")  # edit word 1: delete "S", "1", retype "S"
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.type("s")
    expect(words.nth(0)).to_have_text("HS")
    expect(message).to_contain_text(
        strings["refused_foreign"].split("{char}")[1].strip(" .").split(" ")[0]
    )
    expect(page.locator("#judge")).to_be_disabled()
    page.click("[data-remove='1']")  # remove word 2
    expect(words).to_have_count(1)
    expect(page.locator("#judge")).to_be_enabled()
    expect(message).to_have_text("")


@pytest.mark.parametrize("viewport", ORIENTATIONS, ids=["landscape", "portrait"])
@pytest.mark.parametrize(("ruleset_id", "language"), KIOSKS)
def test_three_words_take_their_letters_plus_three_taps(
    browser_context, judge_server, viewport, ruleset_id, language
):
    page = browser_context(viewport)
    open_kiosk(page, judge_server, ruleset_id)
    first, second = VALID_WORDS[language]
    words = [first, second, first]
    taps = 0
    for i, word in enumerate(words):
        for letter in word.upper():
            page.tap(f"#keys [data-letter='{letter}']")
            taps += 1
        if i < len(words) - 1:
            page.tap("#next-word")
            taps += 1
    page.tap("#judge")
    taps += 1
    expect(page.locator("#screen-result")).to_have_attribute("data-ruling", "valid")
    assert taps == sum(len(w) for w in words) + 3
    assert sorted(result_words(page)) == sorted(w.upper() for w in words)


@pytest.mark.parametrize("viewport", ORIENTATIONS, ids=["landscape", "portrait"])
@pytest.mark.parametrize(("ruleset_id", "language"), KIOSKS)
def test_eight_words_of_fifteen_letters_are_all_visible(
    browser_context, judge_server, viewport, ruleset_id, language
):
    page = browser_context(viewport)
    open_kiosk(page, judge_server, ruleset_id)
    long_word = {
        "da": "ÆBLEGRØDSKÅLENE",
        "sv": "ARBETSLÖSHETENS",
        "nl": "ONDERWIJSKUNDIG",
        "en": "INCOMPREHENSIBL",
    }[language]
    enter_words(page, [long_word] * 7 + ["QWERTYUIOPASDFG"])
    boxes = page.locator("#words .word-text")
    expect(boxes).to_have_count(8)
    for i in range(8):
        box = boxes.nth(i)
        fits = box.evaluate(
            "b => { const l = b.querySelector('.letters');"
            " return l.scrollWidth <= b.clientWidth && b.scrollHeight <= b.clientHeight + 1 }"
        )
        assert fits, i
        assert box.inner_text().replace("\n", "") in (long_word, "QWERTYUIOPASDFG")
        size = float(
            box.locator(".letters").evaluate("l => parseFloat(getComputedStyle(l).fontSize)")
        )
        assert size >= 18  # readable by the opponent across the table
    # no scrolling: every word's box lies inside the list's box, which lies inside the screen
    area = page.locator("#words").bounding_box()
    for i in range(8):
        b = boxes.nth(i).bounding_box()
        assert overlaps(b, area) == pytest.approx(b["width"] * b["height"], abs=1), i
    viewport_box = {"x": 0, "y": 0, "width": viewport["width"], "height": viewport["height"]}
    parts = ["#words", "#enter-message", "#keyboard", ".actions", "header.bar"]
    found = [page.locator(p).bounding_box() for p in parts]
    assert all(overlaps(b, viewport_box) == b["width"] * b["height"] for b in found)  # inside
    for a in range(len(found)):
        for b in range(a + 1, len(found)):
            assert overlaps(found[a], found[b]) < 1, (parts[a], parts[b])
    expect(page.locator("#judge")).to_be_enabled()
    page.click("#judge")
    expect(page.locator("#screen-result")).to_be_visible()
    result_parts = [".verdict", ".result-words", ".consequence", ".lexicon", ".ruling-id", ".tap"]
    found = [page.locator(p).bounding_box() for p in result_parts]
    for a in range(len(found)):
        assert overlaps(found[a], viewport_box) == pytest.approx(
            found[a]["width"] * found[a]["height"], abs=1
        )
        for b in range(a + 1, len(found)):
            assert overlaps(found[a], found[b]) < 1, (result_parts[a], result_parts[b])
    badge = page.locator(".lexicon .badge").bounding_box()
    assert overlaps(badge, page.locator(".tap").bounding_box()) < 1
    for li in page.locator(".result-words li").all():
        assert li.evaluate("l => l.scrollWidth <= l.clientWidth + 1")


@pytest.mark.parametrize(("ruleset_id", "language"), KIOSKS)
def test_keyboard_layouts_national_and_alphabetical(page, judge_server, ruleset_id, language):
    open_kiosk(page, judge_server, ruleset_id)
    config = page.evaluate("JSON.parse(document.getElementById('judge-config').textContent)")
    qwerty, abc = config["layouts"]
    rows = [
        line.locator("[data-letter]").all_inner_texts()
        for line in page.locator("#keys .keyline").all()
    ]
    assert rows == qwerty["rows"]
    assert rows[0][:10] == list("QWERTYUIOP")
    national = {"da": ("Å", "ÆØ"), "sv": ("Å", "ÖÄ"), "nl": ("", ""), "en": ("", "")}[language]
    assert "".join(rows[0][10:]) == national[0] and "".join(rows[1][9:]) == national[1]
    keys = page.locator("#keys [data-letter]")
    for k in keys.all():
        b = k.bounding_box()
        assert b["height"] >= 48 and b["width"] >= 48  # touch targets
    page.click("#layout-switch")
    rows = [
        line.locator("[data-letter]").all_inner_texts()
        for line in page.locator("#keys .keyline").all()
    ]
    assert rows == abc["rows"]
    page.reload()  # the choice is remembered on this tablet
    expect(page.locator("#keys")).to_have_attribute("data-layout", "abc")
    for letter in abc["rows"][-1][-2:]:
        page.click(f"#keys [data-letter='{letter}']")
    expect(page.locator("#words .word-text").first).to_have_text("".join(abc["rows"][-1][-2:]))
    page.click("[data-action='backspace']")
    expect(page.locator("#words .word-text").first).to_have_text(abc["rows"][-1][-2])
    page.click("#layout-switch")
    expect(page.locator("#keys")).to_have_attribute("data-layout", "qwerty")


def test_words_can_be_added_removed_and_edited(page, judge_server):
    open_kiosk(page, judge_server, "naspa")
    enter_words(page, ["cat", "dgo", "tile"])
    words = page.locator("#words .word-text")
    expect(words).to_have_count(3)
    page.click("#words .word-text >> nth=1")  # fix a typo in word 2
    for _ in range(2):
        page.click("[data-action='backspace']")
    page.click("#keys [data-letter='O']")
    page.click("#keys [data-letter='G']")
    expect(words.nth(1)).to_have_text("DOG")
    page.click("[data-remove='0']")
    expect(words).to_have_count(2)
    page.click("#next-word")  # from word 1 to word 2
    page.click("#next-word")  # and a new third word
    expect(words).to_have_count(3)
    page.click("#next-word")  # an empty word does not make another
    expect(page.locator("#enter-message")).to_have_text("Type the word first.")
    expect(page.locator("#judge")).to_be_enabled()  # an empty last word is not judged
    page.click("#judge")
    expect(page.locator("#screen-result")).to_be_visible()  # the answer comes asynchronously
    assert sorted(result_words(page)) == ["DOG", "TILE"]


def test_at_most_the_rulesets_words(page, judge_server):
    open_kiosk(page, judge_server, "wespa")
    enter_words(page, ["word"] * 8)
    page.keyboard.press("Space")
    expect(page.locator("#enter-message")).to_have_text("At most 8 words at a time.")
    expect(page.locator("#words .word-text")).to_have_count(8)


def test_a_spelling_the_service_refuses_comes_back_to_the_words(page, judge_server):
    open_kiosk(page, judge_server, "sbnl-punten")
    page.keyboard.type("ĳĳĳĳĳĳĳĳ")  # 8 characters, 16 letters once Ĳ is IJ
    page.keyboard.press("Space")
    page.keyboard.type("kat")
    page.click("#judge")
    expect(page.locator("#screen-enter")).to_be_visible()
    expect(page.locator("#enter-message")).to_have_text("Woord 1 is te lang: hoogstens 15 letters.")
    expect(page.locator("#words .word-text").nth(0)).to_have_text("ĲĲĲĲĲĲĲĲ")
    expect(page.locator("#words .word-text").nth(1)).to_have_text("KAT")


# Typed on a German keyboard or pasted: ß, its capital ẞ, and long s and dotless i, which
# JavaScript's toUpperCase makes S and I. Each with the word the page shows and its culprit.
NO_TILE = [
    ("straße", "STRAßE", "ß"),
    ("STRAẞE", "STRAẞE", "ẞ"),
    ("ß", "ß", "ß"),
    ("ſo", "ſO", "ſ"),
    ("dıg", "DıG", "ı"),
]


@pytest.mark.parametrize(("ruleset_id", "language"), KIOSKS)
def test_the_page_refuses_what_the_api_refuses_naming_the_same_letter(
    page, judge_server, ruleset_id, language
):
    """The service is the one authority on letters: what its challenge endpoint refuses, the
    page refuses before JUDGE, marking and naming the character the endpoint names."""
    open_kiosk(page, judge_server, ruleset_id)
    strings = page.evaluate(
        "JSON.parse(document.getElementById('judge-config').textContent).strings"
    )
    word = page.locator("#words .word-text").first
    for typed, shown, culprit in NO_TILE:
        answer = requests.post(
            judge_server.api(f"/rulesets/{ruleset_id}/challenge"),
            json={"words": [typed]},
            timeout=10,
        )
        problem = answer.json()
        assert answer.status_code == 400, (typed, problem)
        assert problem["code"] == "word_has_foreign_letter", (typed, problem)
        assert repr(culprit) in problem["detail"], (typed, problem)

        page.keyboard.press("Escape")  # start over
        page.focus("#capture")
        page.keyboard.type(typed)
        expect(word).to_have_text(shown)
        expect(word.locator("mark.bad")).to_have_text(culprit)
        reason = strings["refused_foreign"].replace("{char}", culprit)
        said = strings["word_problem"].replace("{n}", "1").replace("{reason}", reason)
        expect(page.locator("#enter-message")).to_have_text(said)
        expect(page.locator("#judge")).to_be_disabled()


def test_pin_lock(page, judge_server):
    depth = open_kiosk(page, judge_server, "ssf-1999")
    assert PIN not in page.content()
    page.click("#director")
    expect(page.locator("#screen-pin")).to_be_visible()
    page.keyboard.type("9999")
    page.keyboard.press("Enter")
    expect(page.locator("#pin-message")).to_have_text(
        "Fel PIN. Försök kvar innan surfplattan spärras: 4."  # the tries left (issue 36.8)
    )
    assert page.input_value("#pin") == ""
    for digit in PIN:
        page.click(f"[data-digit='{digit}']")
    page.click("#pin-submit")
    expect(page.locator("#screen-admin")).to_be_visible()
    page.click("#admin-rulesets [data-ruleset='dsf-2015']")
    page.wait_for_url("**/judge/dsf-2015")
    expect(page.locator("#enter-title")).to_have_text("Skriv de udfordrede ord")
    assert page.evaluate("history.length") == depth  # no way back without the PIN

    page.click("#director")
    page.keyboard.type(PIN)
    page.keyboard.press("Enter")
    expect(page.locator("#screen-admin")).to_be_visible()
    page.click("#admin-leave")
    page.wait_for_url("**/judge/?lang=da")
    expect(page.locator("h1")).to_have_text("Orddommer: vælg regelsæt")  # still Danish
    assert page.evaluate("history.length") == depth


def test_unlocked_menu_locks_again_when_idle(page, judge_server):
    open_kiosk(page, judge_server, "naspa")
    page.click("#director")
    page.keyboard.type(PIN)
    page.keyboard.press("Enter")
    expect(page.locator("#screen-admin")).to_be_visible()
    page.clock.fast_forward(15_500)
    expect(page.locator("#screen-enter")).to_be_visible()
    assert page.locator("#admin-rulesets button").count() == 0


def test_no_pin_configured_keeps_the_kiosk_locked(page, server):
    open_kiosk(page, server, "wespa")
    page.click("#director")
    page.keyboard.type("1234")
    page.keyboard.press("Enter")
    expect(page.locator("#pin-message")).to_contain_text("No PIN is configured")


@pytest.mark.parametrize(("ruleset_id", "language"), KIOSKS)
def test_no_answer_when_the_service_stops(page, tmp_path, ruleset_id, language):
    srv = start_server(tmp_path)
    try:
        open_kiosk(page, srv, ruleset_id)
        enter_words(page, VALID_WORDS[language])
    finally:
        srv.stop()
    strings = page.evaluate(
        "JSON.parse(document.getElementById('judge-config').textContent).strings"
    )
    page.click("#judge")
    expect(page.locator("#screen-error")).to_be_visible()
    expect(page.locator("#error-title")).to_have_text(strings["no_answer_title"])
    expect(page.locator("#error-body")).to_have_text(strings["no_answer_body"])
    body = page.inner_text("body")
    assert strings["valid"] not in body and strings["invalid"] not in body
    assert page.locator("#screen-result").get_attribute("data-ruling") is None
    assert page.locator("#result-body").inner_html() == ""
    page.click("#error-retry")  # still no service: still no verdict
    expect(page.locator("#screen-error")).to_be_visible()
    idle_ms = page.evaluate(
        "JSON.parse(document.getElementById('judge-config').textContent).timers.idle_ms"
    )
    page.clock.fast_forward(idle_ms + 500)  # left alone, the error clears like idle input
    expect(page.locator("#screen-enter")).to_be_visible()


def test_an_answer_lost_after_the_ruling_is_retried_into_the_same_ruling(page, tmp_path):
    """Flaky Wi-Fi: the service ruled and recorded, the answer never reached the tablet. RETRY
    sends the challenge again with its Idempotency-Key, so the page shows the ruling already
    recorded (its id) and the audit log holds it once. Without the key the retry was a second
    ruling, and under sbnl-punten a second query counted against the player."""
    url = f"sqlite:///{tmp_path / 'adjudicator.db'}"
    srv = start_server(tmp_path, ADJUDICATOR_DATABASE_URL=url)
    try:
        open_kiosk(page, srv, "ssf-1999")
        keys = []

        def lose_the_answer(route):
            keys.append(route.request.headers.get("idempotency-key"))
            route.fetch()  # the service rules and records it
            route.abort("connectionreset")

        page.route("**/challenge", lose_the_answer)
        enter_words(page, VALID_WORDS["sv"])
        page.click("#judge")
        expect(page.locator("#screen-error")).to_be_visible()
        page.unroute("**/challenge")
        with page.expect_response("**/challenge") as answered:
            page.click("#error-retry")
        retry = answered.value
        expect(page.locator("#screen-result")).to_be_visible()
        shown = page.inner_text("#result-body .ruling-id")
    finally:
        srv.stop()
    assert retry.request.headers.get("idempotency-key") == keys[0]
    assert re.fullmatch(r"[0-9a-f]{32}", keys[0])
    assert retry.headers.get("idempotent-replayed") == "true"
    done = store_cli(url, "audit", "export", "--format", "json")
    (entry,) = json.loads(done.stdout)
    assert entry["ruling_id"] == retry.json()["ruling_id"]
    assert shown.replace(" ", "").endswith(entry["ruling_id"])


def test_a_ruling_the_log_cannot_take_is_not_given_and_retry_rules_once(page, tmp_path):
    """The store fails under a running service (here the log's table is renamed away behind
    its back): the tablet shows no verdict and says why, in its language; once the store is
    back, RETRY (the same Idempotency-Key) is ruled and recorded once."""
    path = tmp_path / "adjudicator.db"
    url = f"sqlite:///{path}"
    srv = start_server(tmp_path, ADJUDICATOR_DATABASE_URL=url)
    try:
        open_kiosk(page, srv, "dsf-2015")
        strings = page.evaluate(
            "JSON.parse(document.getElementById('judge-config').textContent).strings"
        )
        with sqlite3.connect(path) as db:
            db.execute("ALTER TABLE rulings RENAME TO rulings_away")
        enter_words(page, VALID_WORDS["da"])
        with page.expect_response("**/challenge") as refused:
            page.click("#judge")
        assert refused.value.status == 503
        expect(page.locator("#screen-error")).to_be_visible()
        expect(page.locator("#error-body")).to_have_text(strings["store_unavailable"])
        assert strings["valid"] not in page.inner_text("body")
        assert strings["invalid"] not in page.inner_text("body")
        with sqlite3.connect(path) as db:
            db.execute("ALTER TABLE rulings_away RENAME TO rulings")
        with page.expect_response("**/challenge") as answered:
            page.click("#error-retry")
        expect(page.locator("#screen-result")).to_be_visible()
    finally:
        srv.stop()
    retry = answered.value
    assert retry.status == 200
    assert (
        retry.request.headers["idempotency-key"] == refused.value.request.headers["idempotency-key"]
    )
    done = store_cli(url, "audit", "export", "--format", "json")
    (entry,) = json.loads(done.stdout)
    assert entry["ruling_id"] == retry.json()["ruling_id"]


@pytest.mark.parametrize("viewport", ORIENTATIONS, ids=["landscape", "portrait"])
def test_jury_mode(browser_context, judge_server, viewport):
    page = browser_context(viewport)
    open_kiosk(page, judge_server, "sbnl-punten")
    expect(page.locator("#enter-title")).to_have_text("Woord voorleggen aan de jury")
    expect(page.locator("#enter-hint")).to_contain_text("aan de jury voorleggen ter goedkeuring")
    # open mode (home, club): sbnl-punten's limit is for tournaments, so the page names none
    expect(page.locator(".jury-limit")).to_have_count(0)
    expect(page.locator("#judge")).to_have_text("CONTROLEER")
    page.fill("#jury-player", "Anna de Vries")
    page.fill("#jury-game", "ronde 3, tafel 7")
    page.focus("#capture")
    page.keyboard.type("hallo")
    page.click("#judge")
    expect(page.locator(".verdict-word")).to_have_text("GOEDGEKEURD")
    expect(page.locator(".jury-for")).to_have_text("Speler Anna de Vries · spel ronde 3, tafel 7")
    expect(page.locator(".consequence")).to_contain_text("Het woord mag gelegd worden.")
    dismiss(page)
    # the next query is often the same game's: player and game stay until START OVER
    assert page.input_value("#jury-player") == "Anna de Vries"
    assert page.input_value("#jury-game") == "ronde 3, tafel 7"
    page.click("#start-over")
    assert page.input_value("#jury-player") == "" and page.input_value("#jury-game") == ""

    # The tournament store will count queries; when the answer says what is left, it shows.
    def with_remaining(route):
        response = route.fetch()
        body = response.json()
        body["queries_remaining"] = 4
        route.fulfill(response=response, json=body)

    page.route("**/challenge", with_remaining)
    page.fill("#jury-player", "7")
    page.focus("#capture")
    page.keyboard.type(BOGUS)
    page.click("#judge")
    expect(page.locator(".verdict-word")).to_have_text("AFGEKEURD")
    # 003: the jury answers each word; the query costs nothing, the penalty is if it is placed
    expect(page.locator(".result-words li").nth(0)).to_have_class("word-invalid")
    consequence = page.locator(".consequence")
    expect(consequence).to_contain_text("Leg het woord niet")
    expect(consequence).to_contain_text(
        "De punten van de beurt worden afgetrokken, plus 20 strafpunten."
    )
    expect(page.locator(".jury-remaining")).to_have_text(
        "Deze speler mag in dit spel nog 4 woorden opvragen."
    )
    sent = []
    page.unroute("**/challenge")
    page.on(
        "request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/challenge") else None
    )
    dismiss(page)
    page.fill("#jury-player", "7")
    page.focus("#capture")
    page.keyboard.type("hallo")
    page.click("#judge")
    expect(page.locator(".verdict-word")).to_have_text("GOEDGEKEURD")
    # the endpoint takes player and game: the page sends what the jury filled in; with no game
    # the query is not counted (open mode), so nothing says how many remain
    assert sent == [{"words": ["HALLO"], "player": "7"}]
    expect(page.locator(".jury-remaining")).to_have_count(0)


def test_jury_mode_counts_words_where_the_event_counts(page, tmp_path):
    """An event that counts (`ADJUDICATOR_JURY_LIMIT=on`): a query of three words uses three of
    the player's ten, so the tablet says seven remain (it said nine: the store counted queries),
    and the same player and game spelt another way go on from there."""
    url = f"sqlite:///{tmp_path / 'adjudicator.db'}"
    srv = start_server(tmp_path, ADJUDICATOR_DATABASE_URL=url, ADJUDICATOR_JURY_LIMIT="on")
    try:
        open_kiosk(page, srv, "sbnl-punten")
        expect(page.locator(".jury-limit")).to_have_text(
            "Ten hoogste 10 opgevraagde woorden per speler per spel."
        )
        page.fill("#jury-player", "Anna")
        page.fill("#jury-game", "r3-t12")
        enter_words(page, ["hallo", "woord", "boom"])
        page.click("#judge")
        expect(page.locator(".verdict-word")).to_have_text("GOEDGEKEURD")
        expect(page.locator(".jury-remaining")).to_have_text(
            "Deze speler mag in dit spel nog 7 woorden opvragen."
        )
        dismiss(page)
        page.fill("#jury-player", "ANNA")
        page.fill("#jury-game", "R3-T12")
        enter_words(page, ["hallo"])
        page.click("#judge")
        expect(page.locator(".jury-remaining")).to_have_text(
            "Deze speler mag in dit spel nog 6 woorden opvragen."
        )
    finally:
        srv.stop()


def test_the_verdict_names_the_edition_in_force_with_its_date_and_checksum(page, tmp_path):
    """000 §2.1a (the yearly update, in force from its date) and 002 "Godkända ord" (the players
    know which printing is used): the tablet names the edition in force, on the entry screen
    and under the verdict, with its date and the start of its checksum."""
    from api_tests.conftest import LEXICON_DIR

    lexicons, rulesets = tmp_path / "lexicons", tmp_path / "rulesets"
    lexicons.mkdir()
    rulesets.mkdir()
    for path in LEXICON_DIR.iterdir():
        if path.suffix in (".json", ".marisa") and "update-example" not in path.name:
            (lexicons / path.name).symlink_to(path)
    manifest = json.loads((LEXICON_DIR / "wdanish-update-example.json").read_text("utf-8"))
    manifest["in_force_from"] = "2000-01-01"  # the yearly update, in force since then
    (lexicons / "wdanish-update-example.json").write_text(json.dumps(manifest), "utf-8")
    trie = manifest["marisa"]["file"]
    (lexicons / trie).symlink_to(LEXICON_DIR / trie)
    (rulesets / "lexicons.toml").write_text(
        'dsf-2015 = ["wdanish", "wdanish-update-example"]\n', "utf-8"
    )
    srv = start_server(
        tmp_path, ADJUDICATOR_LEXICON_DIR=str(lexicons), ADJUDICATOR_RULESET_DIR=str(rulesets)
    )
    try:
        open_kiosk(page, srv, "dsf-2015")
        expect(page.locator("#enter-lexicon")).to_contain_text("gældende fra 2000-01-01")
        judge(page, ["klimaangst"])  # added by the update: valid only under the edition
        expect(page.locator(".verdict-word")).to_have_text("GYLDIG")
        lexicon = page.locator("#screen-result .lexicon")
        expect(lexicon).to_contain_text("gældende fra 2000-01-01")
        expect(lexicon).to_contain_text(f"SHA-256 {manifest['marisa']['sha256'][:12]}…")
    finally:
        srv.stop()


def test_a_kiosk_open_across_midnight_names_the_new_edition_after_its_first_ruling(
    page, judge_server
):
    """000 §2.1a: the yearly update is in force from its date, and the service switches at the
    event's midnight without a restart. A kiosk opened the evening before says the old edition on
    its entry screen; its first ruling rests on the new one (here the service's answer is given
    the new edition's identity, as it would be after midnight), and from then on the entry screen
    names the edition the rulings rest on, with its date, keeping the stand-in badge."""
    open_kiosk(page, judge_server, "dsf-2015")
    entry = page.locator("#enter-lexicon")
    expect(entry).not_to_contain_text("gældende fra")

    def after_midnight(route):
        answer = route.fetch()
        body = answer.json()
        body["lexicon"] = body["lexicon"] | {"version": "2027.1", "in_force_from": "2027-01-01"}
        route.fulfill(response=answer, json=body)

    page.route("**/challenge", after_midnight)
    judge(page, ["hej"])
    expect(page.locator("#screen-result .lexicon")).to_contain_text("gældende fra 2027-01-01")
    dismiss(page)
    expect(entry).to_contain_text("version 2027.1 · gældende fra 2027-01-01")
    expect(entry.locator(".badge")).to_have_text("åben erstatningsliste")
