"""Helpers for the judge's tablet in a browser: Debian's Chromium, the kiosk's common steps.

The fixtures (`browser`, `page`, `browser_context`, `judge_server`) live in conftest.py.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

from api_tests.conftest import ROOT, Server, start_server

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # reported by need_browser: a skip, or a failure under REQUIRE_BROWSER=1
    expect = sync_playwright = None

__all__ = ["expect", "start_server", "sync_playwright"]

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
AXE = ROOT / "api_tests" / "vendor" / "axe-core" / "axe.min.js"
PIN = "0468"  # a leading zero: the PIN must survive the config's JSON parsing as text
BOGUS = "QXZVQXZ"
LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
ORIENTATIONS = [LANDSCAPE, PORTRAIT]
# Two words each bundled stand-in list has, per language.
VALID_WORDS = {
    "da": ["hej", "ord"],
    "sv": ["hej", "ord"],
    "nl": ["hallo", "woord"],
    "en": ["hello", "word"],
}


def need_browser() -> None:
    why = None
    if sync_playwright is None:
        why = "the playwright package is missing: `make install`"
    elif not CHROMIUM.exists():
        why = f"no Chromium at {CHROMIUM}: install it with `apt-get install chromium`"
    if why:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)


def open_kiosk(page, server: Server, ruleset_id: str) -> int:
    """Open the kiosk; the history's length then, which nothing on the page may grow."""
    page.goto(f"{server.url}/judge/{ruleset_id}")
    expect(page.locator("body[data-ready]")).to_have_count(1)
    expect(page.locator("#screen-enter")).to_be_visible()
    return page.evaluate("history.length")


def enter_words(page, words: list[str]) -> None:
    """Type the words on a physical keyboard, a space between them (upper-cased as typed)."""
    page.focus("#capture")
    for i, word in enumerate(words):
        if i:
            page.keyboard.press("Space")
        page.keyboard.type(word.lower())


def judge(page, words: list[str]) -> None:
    enter_words(page, words)
    page.click("#judge")
    expect(page.locator("#screen-result")).to_be_visible()


def result_words(page) -> list[str]:
    """The judged words, once the verdict is on screen (the answer takes a moment to arrive)."""
    expect(page.locator("#screen-result")).to_be_visible()
    return page.locator(".result-words li .w").all_inner_texts()


def dismiss(page) -> None:
    page.clock.fast_forward(600)
    page.click("#screen-result")
    expect(page.locator("#screen-enter")).to_be_visible()


def overlaps(a: dict, b: dict) -> float:
    """The area two bounding boxes share."""
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


def orientation(page) -> str:
    size = page.viewport_size
    return "landscape" if size["width"] > size["height"] else "portrait"


def shot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}-{orientation(page)}.png"
    page.screenshot(path=str(path))
    return path


@cache
def axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def serious_violations(page) -> list[tuple]:
    """axe-core's serious and critical WCAG 2.1 A/AA and best-practice violations on the page
    (injected by evaluate, which the pages' CSP does not apply to)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    results = page.evaluate(
        "axe.run(document, {resultTypes: ['violations'], runOnly: {type: 'tag',"
        " values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})"
    )
    assert results["passes"], "axe ran no rule"
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ]
