"""The directors' "Check a game" page in a real browser (Chromium): a record uploaded, the board
at any turn by the slider, the arrow keys and the links from the deviations, always the board
games/board draws for that turn; within the pages' CSP, and no serious axe-core violation."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from adjudicator.auth.guard import CSRF_HEADER
from adjudicator.pages.strings import strings
from api_tests.browser import expect, overlaps, serious_violations, shot
from api_tests.conftest import director_login, director_page_login, start_tournament

pytestmark = pytest.mark.slow  # a browser and a server: left out of `make test-quick`

PASSWORD = "correct horse battery"
RECORD = Path(__file__).resolve().parents[1] / "adjudicator/engine/tests/records/fivepoint.gcg"
SVG_G = "{http://www.w3.org/2000/svg}g"


@pytest.fixture(scope="module")
def tournament_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("check-game")
    srv = start_tournament(folder, PASSWORD)
    yield srv
    srv.stop()


def api_board(server, turn: int) -> tuple[set[str], set[str]]:
    """The tiles games/board draws after `turn`, and those it outlines (a director's session)."""
    session = director_login(server, "anna", PASSWORD, {CSRF_HEADER: "test"})
    gcg = RECORD.read_bytes().decode("latin-1")  # the record declares no encoding
    response = session.post(
        server.api("/rulesets/naspa/games/board"), json={"gcg": gcg, "turn": turn}, timeout=10
    )
    assert response.status_code == 200, response.text
    tiles = list(ET.fromstring(response.content).iter(SVG_G))
    squares = {g.get("data-square") for g in tiles}
    return squares, {g.get("data-square") for g in tiles if "last" in g.get("class").split()}


def page_board(page) -> tuple[set[str], set[str]]:
    shown = page.locator('#game svg g.tile[visibility="visible"]')
    squares = set(shown.evaluate_all("gs => gs.map(g => g.dataset.square)"))
    last = page.locator("#game svg g.tile.last")
    return squares, set(last.evaluate_all("gs => gs.map(g => g.dataset.square)"))


def turn_shown(page) -> int:
    return int(page.input_value("#turn-slider"))


def test_the_board_at_any_turn(page, tournament_server):
    en = strings("en")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    director_page_login(page, tournament_server, PASSWORD, "en")
    page.click("#check-link")
    expect(page.locator("h1")).to_have_text(en["dir_check_title"])
    assert serious_violations(page) == []

    page.select_option("#check-ruleset", "naspa")
    page.set_input_files("#check-file", str(RECORD))
    page.click('#check-form button[type="submit"]')
    expect(page.locator("#game")).to_be_visible()
    n = int(page.get_attribute("#turn-slider", "max"))
    assert n == page.locator("#turns tbody tr").count() > 20
    assert turn_shown(page) == n and page_board(page) == api_board(tournament_server, n)
    expect(page.locator(f"#turn-{n}")).to_have_attribute("aria-current", "step")

    # The arrow keys, from anywhere on the page but a field.
    page.locator("h1").click()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert turn_shown(page) == n - 2
    assert page_board(page) == api_board(tournament_server, n - 2)
    caption = page.get_attribute(f"#turn-{n - 2}", "data-caption")
    expect(page.locator("#turn-caption")).to_have_text(caption)
    expect(page.locator("#turn-number")).to_have_text(str(n - 2))
    page.keyboard.press("Home")
    assert turn_shown(page) == 0 and page_board(page) == (set(), set())
    expect(page.locator("#turn-caption")).to_have_text(en["dir_check_start"])
    page.keyboard.press("ArrowRight")
    assert turn_shown(page) == 1 and page_board(page) == api_board(tournament_server, 1)

    # The slider itself, by its own keys, and the buttons beside it.
    page.focus("#turn-slider")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert turn_shown(page) == 5 and page_board(page) == api_board(tournament_server, 5)
    page.click("#turn-next")
    page.click("#turn-prev")
    page.click("#turn-prev")
    assert turn_shown(page) == 4 and page_board(page) == api_board(tournament_server, 4)

    # Each rule deviation links to its turn: its board, its row marked.
    links = page.locator("#deviation-list a[data-turn]")
    assert links.count() >= 1
    k = int(links.first.get_attribute("data-turn"))
    links.first.click()
    assert turn_shown(page) == k and page_board(page) == api_board(tournament_server, k)
    expect(page.locator(f"#turn-{k}")).to_have_attribute("aria-current", "step")
    expect(page.locator(f"#turn-{k}")).to_have_class(re.compile(r"\bdeviates current\b"))

    assert serious_violations(page) == []
    assert errors == []  # no CSP refusal, no script error
    page.keyboard.press("End")
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.evaluate("document.getElementById('game').scrollIntoView(); window.scrollBy(0, -12)")
    shot(page, "32-director-check-a-game")  # docs/check-a-game.png is one of these


def test_a_refusal_stays_on_the_page_in_its_language(page, tournament_server):
    da = strings("da")
    director_page_login(page, tournament_server, PASSWORD, "da")
    page.goto(f"{tournament_server.url}/director/games?lang=da")
    page.fill("#check-record", "#player1 A A\n>B: ABC 8H ABC +10 10\n")
    page.click('#check-form button[type="submit"]')
    expect(page.locator("h1")).to_have_text(da["dir_check_title"])
    expect(page.locator("#check-error")).to_contain_text("Referatet kunne ikke kontrolleres")
    expect(page.locator("#check-record")).to_have_value("#player1 A A\n>B: ABC 8H ABC +10 10\n")
    assert serious_violations(page) == []


def test_an_illegal_play_is_a_deviation_in_the_pages_language(page, tournament_server):
    """A play touching no tile (docs/rules.md §5; DSF 2015 §4.2, SBNL Puntenscrabble "Verloop
    van het spel"): counted, listed in the deviations panel in Danish, linked to its turn, and
    not ruled "gyldig"."""
    da = strings("da")
    director_page_login(page, tournament_server, PASSWORD, "da")
    page.goto(f"{tournament_server.url}/director/games?lang=da")
    page.select_option("#check-ruleset", "dsf-2015")
    record = (
        "#player1 ann Ann\n#player2 bob Bob\n"
        ">ann: AEKRSTU 8G KAT +12 12\n>bob: AEHIJMN 1A HEJ +10 10\n"
    )
    page.fill("#check-record", record)
    page.click('#check-form button[type="submit"]')
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#no-deviations")).to_have_count(0)
    item = page.locator("#deviation-list li")
    expect(item).to_have_count(1)
    expect(item).to_contain_text(da["dir_check_placement_not_touching"])
    expect(page.locator("#turn-2")).to_have_class(re.compile(r"\bdeviates\b"))
    expect(page.locator("#turn-2")).not_to_contain_text(da["dir_verdict_valid"])
    item.locator("a").click()
    assert turn_shown(page) == 2


def _inside(box: dict, viewport: dict) -> bool:
    """Whether the bounding box lies wholly on the screen."""
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= viewport["width"] + 0.5
        and box["y"] + box["height"] <= viewport["height"] + 0.5
    )


def _shown_rows(page, region: dict) -> bool:
    """Whether the current turn's row lies in the table's region, top to bottom (it may scroll
    sideways within it)."""
    row = page.locator("#turns tr.current").bounding_box()
    return (
        region["y"] <= row["y"] and row["y"] + row["height"] <= region["y"] + region["height"] + 0.5
    )


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1366, "height": 768}, {"width": 1280, "height": 800}],
    ids=["1366x768", "1280x800"],
)
def test_board_slider_and_turn_table_fit_on_a_laptop_screen_together(
    browser_context, tournament_server, viewport
):
    """Issue 36.7: at 1366×768 the board started below the fold and the slider under it. Once
    a game is checked, the whole board, the slider and the turn table (showing rows, scrolling
    within itself) are on the screen at once, with no scrolling, and the turn shown stays in
    the table's view."""
    page = browser_context(viewport)
    director_page_login(page, tournament_server, PASSWORD, "nl")
    page.click("#check-link")
    page.select_option("#check-ruleset", "naspa")
    page.set_input_files("#check-file", str(RECORD))
    page.click('#check-form button[type="submit"]')
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_load_state("load")  # the layout with its stylesheet, not before it loads
    board = page.locator("#game .board-view svg").bounding_box()
    slider = page.locator("#turn-slider").bounding_box()
    table = page.locator("#game .table-scroll").bounding_box()
    for name, box in (("board", board), ("slider", slider), ("table", table)):
        assert _inside(box, viewport), (name, box, viewport)
    assert board["width"] >= 400 and table["height"] >= 200  # each of a useful size
    assert overlaps(board, table) == 0 and overlaps(slider, table) == 0
    # the last turn is shown first, its row in view; then the first's, the board still there
    shot(page, f"check-a-game-{viewport['width']}x{viewport['height']}")
    assert _shown_rows(page, table)
    page.locator("#game h2").click()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#turns tbody tr").first).to_have_class(re.compile(r"\bcurrent\b"))
    assert _shown_rows(page, table)
    assert _inside(page.locator("#game .board-view svg").bounding_box(), viewport)
    assert serious_violations(page) == []
