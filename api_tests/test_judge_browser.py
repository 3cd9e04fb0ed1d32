"""The judge's tablet in a real browser (Debian's Chromium via Playwright) against gunicorn.

Never `playwright install`: these tests drive the system Chromium only. Without it they skip,
saying how to install it; with REQUIRE_BROWSER=1 (CI) they fail instead. Time-dependent tests
use Playwright's clock, so the page keeps its production timers (10 s, 0.5 s, 15 s).
Screenshots of every screen, landscape and portrait, go to test-output/screenshots/.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from api_tests.conftest import ROOT, Server, start_server
from lexicon.languages import load_profile

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # reported by _need_browser: a skip, or a failure under REQUIRE_BROWSER=1
    expect = sync_playwright = None

CHROMIUM = Path(os.environ.get("JUDGE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
PIN = "0468"  # a leading zero: the PIN must survive the config's JSON parsing as text
BOGUS = "QXZVQXZ"
LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}


def _need_browser():
    why = None
    if sync_playwright is None:
        why = "the playwright package is missing: `make install`"
    elif not CHROMIUM.exists():
        why = f"no Chromium at {CHROMIUM}: install it with `apt-get install chromium`"
    if why:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    _need_browser()
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def judge_server(tmp_path_factory) -> Iterator[Server]:
    srv = start_server(tmp_path_factory.mktemp("judge"), ADJUDICATOR_JUDGE_PIN=PIN)
    yield srv
    srv.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=LANDSCAPE, has_touch=True)
    pg = context.new_page()
    pg.set_default_timeout(5000)
    pg.clock.install()  # time flows naturally until a test fast-forwards it
    yield pg
    context.close()


def open_kiosk(page, server: Server, ruleset_id: str) -> int:
    """Open the kiosk; the history's length then, which nothing on the page may grow."""
    page.goto(f"{server.url}/judge/{ruleset_id}")
    expect(page.locator("#screen-count")).to_be_visible()
    return page.evaluate("history.length")


def enter_words(page, words: list[str]) -> None:
    page.click(f"[data-count='{len(words)}']")
    expect(page.locator("#screen-enter")).to_be_visible()
    for word in words:
        page.keyboard.type(word.lower())  # a physical keyboard; upper-cased as typed
        page.keyboard.press("Enter")


def judge(page, words: list[str]) -> None:
    enter_words(page, words)
    page.click("#judge")
    expect(page.locator("#screen-result")).to_be_visible()


def result_words(page) -> list[str]:
    return page.locator(".result-words li").all_inner_texts()


def dismiss(page) -> None:
    page.clock.fast_forward(600)
    page.click("#screen-result")
    expect(page.locator("#screen-count")).to_be_visible()


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    orientation = "landscape" if size["width"] > size["height"] else "portrait"
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{orientation}.png"))


def test_whole_flow_ssf_1999_play_policy(page, judge_server):
    depth = open_kiosk(page, judge_server, "ssf-1999")
    assert page.locator("html").get_attribute("lang") == "sv"
    expect(page.locator("#count-title")).to_have_text("Hur många ord utmanar du?")
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
    expect(lexicon.locator(".badge")).to_have_text("öppen ersättningslista")
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
        snapshots.append(page.evaluate("document.documentElement.outerHTML"))
        dismiss(page)
    assert snapshots[0] == snapshots[1] == snapshots[2]
    assert BOGUS in snapshots[0] and "OGILTIGT" in snapshots[0]
    # no per-word class or attribute at all, only the text of each word
    assert re.findall(r"<li>([^<]*)</li>", snapshots[0]) == sorted(["HEJ", "ORD", BOGUS])


def test_result_and_idle_input_clear_themselves(page, judge_server):
    depth = open_kiosk(page, judge_server, "dsf-2015")
    judge(page, ["hej", "ord"])
    page.clock.fast_forward(200)
    page.click("#screen-result")  # the second tap of a double tap: too soon to clear
    expect(page.locator("#screen-result")).to_be_visible()
    page.clock.fast_forward(9300)  # 9.5 s in all: still showing
    expect(page.locator("#screen-result")).to_be_visible()
    page.clock.fast_forward(700)
    expect(page.locator("#screen-count")).to_be_visible()
    assert "HEJ" not in page.content()  # nothing of it stays in the DOM
    assert "GYLDIG" not in page.inner_html("main")  # (the strings themselves are in the config)

    enter_words(page, ["kat"])
    assert page.input_value("#word-0") == "KAT"
    page.clock.fast_forward(14_000)
    expect(page.locator("#screen-enter")).to_be_visible()
    page.keyboard.type("s")  # input restarts the idle timer
    page.clock.fast_forward(14_000)
    expect(page.locator("#screen-enter")).to_be_visible()
    page.clock.fast_forward(1_500)
    expect(page.locator("#screen-count")).to_be_visible()
    assert "KATS" not in page.content() and page.locator("#words input").count() == 0
    assert page.evaluate("history.length") == depth


def test_keyboard_alone(page, judge_server):
    open_kiosk(page, judge_server, "sbnl-punten")
    page.keyboard.press("2")  # the number of words
    expect(page.locator("#screen-enter")).to_be_visible()
    page.keyboard.type("hallo")
    page.keyboard.press("Enter")
    page.keyboard.type("woord")
    page.keyboard.press("Enter")  # the last word's Enter moves to the judge button...
    assert page.evaluate("document.activeElement.id") == "judge"
    page.keyboard.press("Enter")  # ...and a second Enter judges
    expect(page.locator(".verdict-word")).to_have_text("GELDIG")
    page.keyboard.press("Enter")  # a repeat at once does not clear it
    expect(page.locator("#screen-result")).to_be_visible()
    page.clock.fast_forward(600)
    page.keyboard.press("Space")
    expect(page.locator("#screen-count")).to_be_visible()
    page.keyboard.press("1")
    page.keyboard.type("x")
    page.keyboard.press("Escape")  # start over
    expect(page.locator("#screen-count")).to_be_visible()
    assert page.locator("#words input").count() == 0


@pytest.mark.parametrize(
    ("ruleset_id", "language", "extra"),
    [
        ("dsf-2015", "da", "É"),
        ("ssf-1999", "sv", "É"),
        ("sbnl-punten", "nl", ""),
        ("naspa", "en", ""),
    ],
)
def test_on_screen_keyboard_letters_per_language(page, judge_server, ruleset_id, language, extra):
    open_kiosk(page, judge_server, ruleset_id)
    keys = page.locator("#keyboard [data-letter]").all_inner_texts()
    assert keys == list(load_profile(language).alphabet) + list(extra)
    nordic = {"da": {"Æ", "Ø", "Å", "É"}, "sv": {"Å", "Ä", "Ö", "É"}}.get(language, set())
    assert nordic <= set(keys)
    enter_words(page, ["x"])
    boxes = [page.locator(f"[data-letter='{k}']").bounding_box() for k in keys]
    assert all(b["height"] >= 48 and b["width"] >= 48 for b in boxes)  # touch targets
    page.click("#word-0")
    page.keyboard.press("Backspace")
    for key in keys[-3:]:
        page.click(f"[data-letter='{key}']")
    assert page.input_value("#word-0") == "".join(keys[-3:])
    page.keyboard.type("a1")  # digits, spaces and hyphens are refused as typed, and said so
    expect(page.locator("#enter-message")).to_contain_text("1")
    page.keyboard.type(" -b")
    assert page.input_value("#word-0") == "".join(keys[-3:]) + "AB"
    page.click("[data-action='backspace']")
    assert page.input_value("#word-0") == "".join(keys[-3:]) + "A"


def test_pin_lock(page, judge_server):
    depth = open_kiosk(page, judge_server, "ssf-1999")
    assert PIN not in page.content()
    page.click("#director")
    expect(page.locator("#screen-pin")).to_be_visible()
    page.keyboard.type("9999")
    page.keyboard.press("Enter")
    expect(page.locator("#pin-message")).to_have_text("Fel PIN.")
    assert page.input_value("#pin") == ""
    for digit in PIN:
        page.click(f"[data-digit='{digit}']")
    page.click("#pin-submit")
    expect(page.locator("#screen-admin")).to_be_visible()
    page.click("#admin-rulesets [data-ruleset='dsf-2015']")
    page.wait_for_url("**/judge/dsf-2015")
    expect(page.locator("#count-title")).to_have_text("Hvor mange ord udfordrer du?")
    assert page.evaluate("history.length") == depth  # no way back without the PIN

    page.click("#director")
    page.keyboard.type(PIN)
    page.keyboard.press("Enter")
    expect(page.locator("#screen-admin")).to_be_visible()
    page.click("#admin-leave")
    page.wait_for_url("**/judge/")
    assert page.evaluate("history.length") == depth


def test_unlocked_menu_locks_again_when_idle(page, judge_server):
    open_kiosk(page, judge_server, "naspa")
    page.click("#director")
    page.keyboard.type(PIN)
    page.keyboard.press("Enter")
    expect(page.locator("#screen-admin")).to_be_visible()
    page.clock.fast_forward(15_500)
    expect(page.locator("#screen-count")).to_be_visible()
    assert page.locator("#admin-rulesets button").count() == 0


def test_no_pin_configured_keeps_the_kiosk_locked(page, server):
    open_kiosk(page, server, "wespa")
    page.click("#director")
    page.keyboard.type("1234")
    page.keyboard.press("Enter")
    expect(page.locator("#pin-message")).to_contain_text("No PIN is configured")


def test_no_answer_when_the_service_stops(page, tmp_path):
    srv = start_server(tmp_path)
    try:
        open_kiosk(page, srv, "ssf-1999")
        enter_words(page, ["hej", "ord"])
    finally:
        srv.stop()
    page.click("#judge")
    expect(page.locator("#screen-error")).to_be_visible()
    expect(page.locator("#error-title")).to_have_text("Inget svar från tjänsten")
    body = page.inner_text("body")
    assert "GILTIGT" not in body and "OGILTIGT" not in body
    assert page.locator("#screen-result").get_attribute("data-ruling") is None
    assert page.locator("#result-body").inner_html() == ""
    page.click("#error-retry")  # still no service: still no verdict
    expect(page.locator("#screen-error")).to_be_visible()
    page.clock.fast_forward(15_500)
    expect(page.locator("#screen-count")).to_be_visible()


@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_screenshots_of_every_screen(browser, judge_server, viewport):
    context = browser.new_context(viewport=viewport, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(5000)
    try:
        url = judge_server.url
        page.goto(f"{url}/judge/")
        shot(page, "00-index")
        page.goto(f"{url}/judge/no-such-ruleset")
        shot(page, "01-not-found")
        open_kiosk(page, judge_server, "dsf-2015")
        shot(page, "02-count")
        enter_words(page, ["hej", "café", "or"])
        shot(page, "03-enter")
        page.click("#judge")
        expect(page.locator("#screen-result")).to_be_visible()
        shot(page, "04-result-word-policy")
        page.wait_for_timeout(600)
        page.click("#screen-result")

        held = []
        page.route("**/challenge", lambda route: held.append(route))
        enter_words(page, ["hej", "ord"])
        page.click("#judge")
        expect(page.locator("#screen-judging")).to_be_visible()
        shot(page, "05-judging")
        held[0].continue_()
        page.unroute("**/challenge")
        expect(page.locator("#screen-result")).to_be_visible()
        page.wait_for_timeout(600)
        page.click("#screen-result")

        page.route("**/challenge", lambda route: route.abort("connectionrefused"))
        enter_words(page, ["hej", "ord"])
        page.click("#judge")
        expect(page.locator("#screen-error")).to_be_visible()
        shot(page, "06-no-answer")
        page.unroute("**/challenge")
        page.click("#error-reset")

        open_kiosk(page, judge_server, "ssf-1999")
        judge(page, ["hej", BOGUS])
        shot(page, "07-result-play-policy-invalid")
        page.wait_for_timeout(600)
        page.click("#screen-result")
        judge(page, ["hej", "ord"])
        shot(page, "08-result-play-policy-valid")
        page.wait_for_timeout(600)
        page.click("#screen-result")

        page.click("#director")
        page.keyboard.type("12")
        shot(page, "09-pin")
        page.keyboard.press("Control+A")
        page.keyboard.type(PIN)
        page.keyboard.press("Enter")
        expect(page.locator("#screen-admin")).to_be_visible()
        shot(page, "10-admin")
    finally:
        context.close()
