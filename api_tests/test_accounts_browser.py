"""The director's accounts page in Debian's Chromium (issue 36.10): an app key made (shown once,
then working), revoked (then refused), and a director added who can then log in, all from the
pages, in Dutch; screenshots at 1280×800, 800×1280 (touch) and 1366×768, and axe-core finds no
serious or critical violation."""

from __future__ import annotations

import pytest
import requests

from adjudicator.pages.strings import fill, strings
from api_tests.browser import expect, serious_violations, shot
from api_tests.conftest import director_page_login, start_tournament

pytestmark = pytest.mark.slow  # a server and a browser: left out of `make test-quick`

PASSWORD = "correct horse battery"
SIZES = [
    {"width": 1280, "height": 800},
    {"width": 800, "height": 1280},
    {"width": 1366, "height": 768},
]


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    folder = tmp_path_factory.mktemp("accounts")
    srv = start_tournament(folder, PASSWORD)
    yield srv
    srv.stop()


def log_in(page, server, name: str = "anna", password: str = PASSWORD) -> None:
    director_page_login(page, server, password, "nl", name)
    expect(page.locator("#accounts-link")).to_be_visible()


def challenge(server, key: str) -> int:
    answer = requests.post(
        server.api("/rulesets/ssf-1999/challenge"),
        json={"words": ["ord"]},
        headers={"Authorization": f"Bearer {key}"},
        timeout=10,
    )
    return answer.status_code


@pytest.mark.parametrize("viewport", SIZES, ids=["1280x800", "800x1280", "1366x768"])
def test_keys_and_directors_from_the_pages(browser_context, tournament, viewport):
    nl = strings("nl")
    size = f"{viewport['width']}x{viewport['height']}"
    page = browser_context(viewport)
    log_in(page, tournament)
    page.locator("#accounts-link").click()
    expect(page.locator("h1")).to_have_text(nl["dir_acc_title"])
    assert serious_violations(page) == []

    name = f"scorer-{size}"
    page.fill("#key-name", name)
    page.locator("label.check", has_text="ssf-1999").locator("input").check()
    page.locator('#key-form button[type="submit"]').click()
    expect(page.locator("#new-key-title")).to_have_text(fill(nl["dir_acc_key_made"], name=name))
    key = page.locator("#new-key-value").inner_text()
    assert key.startswith("adj_app_") and challenge(tournament, key) == 200
    shot(page, f"accounts-new-key-{size}")
    assert serious_violations(page) == []
    page.goto(f"{tournament.url}/director/accounts?lang=nl")  # shown once: not again
    assert key not in page.content()

    row = page.locator(f"#keys tr:has(td:text-is('{name}'))")
    row.locator("summary").click()
    row.locator('button[type="submit"]').click()
    expect(page.locator("#accounts-done")).to_have_text(
        fill(nl["dir_acc_done_key_revoked"], name=name)
    )
    assert challenge(tournament, key) == 401

    director = f"bo-{viewport['width']}"
    page.fill("#director-name", director)
    page.fill("#director-password", "a long passphrase")
    page.fill("#director-password-again", "a long passphrase")
    page.locator('#director-form button[type="submit"]').click()
    expect(page.locator("#accounts-done")).to_have_text(
        fill(nl["dir_acc_done_director_added"], name=director)
    )
    expect(page.locator(f"#directors tr[data-director='{director}']")).to_be_visible()
    shot(page, f"accounts-director-added-{size}")
    assert serious_violations(page) == []
    other = page.context.browser.new_context(viewport=viewport)
    try:
        log_in(other.new_page(), tournament, director, "a long passphrase")
    finally:
        other.close()
