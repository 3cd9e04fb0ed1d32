"""Every screen of the judge's tablet, both orientations, all four languages: a screenshot,
axe-core (zero serious or critical violations), and no string of another language.

axe-core is vendored (api_tests/vendor/axe-core/, MPL-2.0) and injected through Playwright's
evaluate, which the pages' CSP does not apply to. Screenshots: test-output/screenshots/.
"""

from __future__ import annotations

import re

import pytest
import requests

from adjudicator.judge.config import kiosk_strings
from adjudicator.pages.strings import strings
from api_tests.browser import (
    BOGUS,
    ORIENTATIONS,
    PIN,
    VALID_WORDS,
    dismiss,
    enter_words,
    expect,
    open_kiosk,
    serious_violations,
    shot,
)

# Slow (every screen in Chromium with axe-core, two minutes): `make test-quick` leaves these out.
pytestmark = pytest.mark.slow

KIOSKS = {"da": "dsf-2015", "sv": "ssf-1999", "nl": "sbnl-punten", "en": "wespa"}
IDS = ["landscape", "portrait"]


def foreign_strings(lang: str) -> set[str]:
    """UI strings of the other languages that this language says differently (the director's
    pages' own, `dir_…`, never show here: "tournament" would match a ruleset's name)."""
    own = {v for v in strings(lang).values() if isinstance(v, str)}
    found = set()
    for other in KIOSKS:
        if other != lang:
            found |= {
                v
                for k, v in kiosk_strings(other).items()
                if isinstance(v, str)  # plural forms: test_page_language checks them
                and v not in own
                and len(v) > 4
                and "{" not in v
                and k != "language_name"
                and not k.startswith("dir_")
            }
    return found


def check(page, name: str, lang: str) -> None:
    """Screenshot, axe, and every visible string in `lang`."""
    page.wait_for_timeout(50)  # let the focus ring and layout settle for the picture
    shot(page, name)
    bad = serious_violations(page)
    assert not bad, (name, bad)
    visible = page.evaluate("document.body.innerText")
    leaked = sorted(
        s for s in foreign_strings(lang) if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", visible)
    )
    assert not leaked, (name, leaked)


@pytest.mark.parametrize("viewport", ORIENTATIONS, ids=IDS)
@pytest.mark.parametrize("lang", list(KIOSKS))
def test_landing_setup_and_missing_pages(browser_context, judge_server, viewport, lang):
    page = browser_context(viewport)
    page.goto(f"{judge_server.url}/?lang={lang}")
    served = requests.get(f"{judge_server.url}/api/v1/rulesets", timeout=10).json()["rulesets"]
    expect(page.locator(".kiosk .qr svg")).to_have_count(len(served))  # a QR code per ruleset
    check(page, f"00-landing-{lang}", lang)
    page.goto(f"{judge_server.url}/judge/?lang={lang}")
    check(page, f"01-setup-{lang}", lang)
    page.goto(f"{judge_server.url}/judge/no-such-ruleset?lang={lang}")
    check(page, f"02-not-found-{lang}", lang)


@pytest.mark.parametrize("viewport", ORIENTATIONS, ids=IDS)
@pytest.mark.parametrize("lang", list(KIOSKS))
def test_every_kiosk_screen(browser_context, judge_server, viewport, lang):
    page = browser_context(viewport)
    ruleset = KIOSKS[lang]
    good, other = VALID_WORDS[lang]
    open_kiosk(page, judge_server, ruleset)
    check(page, f"10-enter-empty-{lang}", lang)
    if lang == "nl":
        page.fill("#jury-player", "12")
        page.fill("#jury-game", "3")
        page.focus("#capture")
    enter_words(page, [good, "h1s", other])
    check(page, f"11-enter-refused-{lang}", lang)
    page.keyboard.press("Escape")
    long_word = {"da": "ÆBLEGRØDSKÅLENE", "sv": "ARBETSLÖSHETENS"}.get(lang, "ONDERWIJSKUNDIG")
    enter_words(page, [good, other] + [long_word] * 6)
    check(page, f"12-enter-eight-words-{lang}", lang)
    page.click("#layout-switch")
    check(page, f"13-enter-alphabetical-{lang}", lang)
    page.click("#layout-switch")
    page.keyboard.press("Escape")

    held = []
    page.route("**/challenge", lambda route: held.append(route))
    enter_words(page, [good, other])
    page.click("#judge")
    expect(page.locator("#screen-judging")).to_be_visible()
    check(page, f"14-judging-{lang}", lang)
    held[0].continue_()
    page.unroute("**/challenge")
    expect(page.locator("#screen-result")).to_have_attribute("data-ruling", "valid")
    check(page, f"15-verdict-valid-{lang}", lang)
    dismiss(page)

    enter_words(page, [good, BOGUS, other] + [long_word] * 5)
    page.click("#judge")
    expect(page.locator("#screen-result")).to_have_attribute("data-ruling", "invalid")
    check(page, f"16-verdict-invalid-eight-words-{lang}", lang)
    dismiss(page)

    page.route("**/challenge", lambda route: route.abort("connectionrefused"))
    enter_words(page, [good, other])
    page.click("#judge")
    expect(page.locator("#screen-error")).to_be_visible()
    check(page, f"17-no-answer-{lang}", lang)
    page.unroute("**/challenge")
    page.click("#error-reset")

    page.click("#director")
    page.keyboard.type("12")
    check(page, f"18-director-pin-{lang}", lang)
    page.fill("#pin", "")
    page.keyboard.type("9999")
    page.keyboard.press("Enter")
    # the tries left before the lock (issue 36.8), however many this server has counted
    tries_left = re.escape(strings(lang)["pin_tries_left"]).replace(r"\{n\}", r"\d+")
    expect(page.locator("#pin-message")).to_have_text(re.compile(tries_left))
    check(page, f"19-director-wrong-pin-{lang}", lang)
    page.keyboard.type(PIN)
    page.keyboard.press("Enter")
    expect(page.locator("#screen-admin")).to_be_visible()
    check(page, f"20-director-unlocked-{lang}", lang)


def test_keyboard_only_director(page, judge_server):
    """From the word field: Shift+Tab to the director button, the PIN, a ruleset, all by keys."""
    depth = open_kiosk(page, judge_server, "dsf-2015")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "director"
    page.keyboard.press("Enter")
    expect(page.locator("#screen-pin")).to_be_visible()
    assert page.evaluate("document.activeElement.id") == "pin"
    page.keyboard.type(PIN)
    page.keyboard.press("Enter")
    expect(page.locator("#screen-admin")).to_be_visible()
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.ruleset") == "ssf-1999":
            break
    page.keyboard.press("Enter")
    page.wait_for_url("**/judge/ssf-1999")
    expect(page.locator("#enter-title")).to_have_text("Skriv de utmanade orden")
    assert page.evaluate("history.length") == depth
