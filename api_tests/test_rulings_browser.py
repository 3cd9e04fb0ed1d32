"""The directors' rulings page in a real browser (Chromium) on a laptop's screen, 1366×768, as at
an event (issue 29, item 5): a busy log shows at least 15 rulings without scrolling, a search
finds a word whatever its case and a ruling id typed as the tablet groups it, times are in the
event's zone, the table is the tablet's name, and axe-core finds nothing serious."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from adjudicator.auth.guard import CSRF_HEADER
from api_tests.browser import expect, serious_violations, shot
from api_tests.conftest import (
    director_login,
    director_page_login,
    pair_tablet,
    start_tournament,
)

pytestmark = pytest.mark.slow  # a browser and a server: left out of `make test-quick`

PASSWORD = "correct horse battery"
ZONE = "Europe/Copenhagen"
LAPTOP = {"width": 1366, "height": 768}
TABLET = "Bord 7"
LOGGED = 30
DANISH = ["hest", "ord", "kat", "hus", "bil", "sol"]


@pytest.fixture(scope="module")
def tournament_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rulings-page")
    srv = start_tournament(
        folder,
        PASSWORD,
        ADJUDICATOR_TIME_ZONE=ZONE,
        ADJUDICATOR_TRUSTED_PROXIES="1",  # pair_tablet's venue address
        ADJUDICATOR_RATE_RULINGS_PER_MINUTE="1000",
    )
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def logged(tournament_server) -> dict:
    """~30 rulings from one paired tablet, one of them on BLÅBÆR: that one's answer."""
    server = tournament_server
    director = director_login(server, "anna", PASSWORD, {CSRF_HEADER: "test"})
    tablet = pair_tablet(server, director, TABLET, "dsf-2015")
    tablet.headers.update({"X-Requested-With": "judge"})
    blueberry = None
    for i in range(LOGGED):
        words = ["BLÅBÆR"] if i == 7 else [DANISH[i % len(DANISH)], DANISH[(i + 1) % len(DANISH)]]
        answer = tablet.post(
            server.api("/rulesets/dsf-2015/challenge"), json={"words": words}, timeout=10
        )
        assert answer.status_code == 200, answer.text
        if i == 7:
            blueberry = answer.json()
    return blueberry


def login(page, server) -> None:
    director_page_login(page, server, PASSWORD)


def rows_in_view(page) -> int:
    """The ruling rows wholly on screen, the page not scrolled."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#rulings tbody tr')].filter(r => {
             const b = r.getBoundingClientRect();
             return b.height > 0 && b.top >= 0 && b.bottom <= window.innerHeight;
           }).length"""
    )


def shown_ids(page) -> list[str]:
    return page.locator("#rulings tbody tr td:nth-child(3) code").all_inner_texts()


def test_the_rulings_page_at_an_event(browser_context, tournament_server, logged):
    server = tournament_server
    page = browser_context(LAPTOP)
    login(page, server)
    page.goto(f"{server.url}/director/rulings?lang=en")
    rows = page.locator("#rulings tbody tr")
    expect(rows).to_have_count(LOGGED)
    shot(page, "40-director-rulings-laptop")
    assert page.evaluate("window.scrollY") == 0
    assert rows_in_view(page) >= 15
    assert serious_violations(page) == []

    # Times in the event's zone: the hour shown is Copenhagen's, not UTC's.
    first = page.locator("#rulings tbody tr time").first
    stamp = datetime.fromisoformat(first.get_attribute("datetime").removesuffix("Z"))
    at = stamp.replace(tzinfo=UTC)
    there = at.astimezone(ZoneInfo(ZONE))
    # CLDR's medium form in the page's locale (en_GB), through the one formatter (pages.times)
    assert first.inner_text() == f"{there.day} {there:%b %Y}, {there:%H:%M:%S}"
    assert there.hour != at.hour
    expect(page.locator("#rulings thead th").nth(1)).to_have_text(f"Time ({ZONE})")  # not UTC

    # The table column is the tablet's name (the request named no table).
    assert TABLET in page.locator("#rulings tbody tr td.where").first.inner_text()

    # The word as typed in lower case finds the ruling logged in capitals.
    page.fill('input[name="q"]', "blåbær")
    page.click('form[role="search"] button[type="submit"]')
    expect(rows).to_have_count(1)
    assert shown_ids(page) == [logged["ruling_id"]]
    assert serious_violations(page) == []

    # The ruling id as the tablet shows it: groups of four, in capitals, with spaces.
    rid = logged["ruling_id"]
    typed = " ".join(rid[i : i + 4] for i in range(0, len(rid), 4)).upper()
    page.fill('input[name="q"]', typed)
    page.click('form[role="search"] button[type="submit"]')
    expect(rows).to_have_count(1)
    assert shown_ids(page) == [rid]


def test_the_download_is_what_the_filter_shows(browser_context, tournament_server, logged):
    """Issue 36, item 3: on the Danish page, the search for BLÅBÆR, downloaded as CSV and as
    xlsx, holds that ruling and only it, as a Danish spreadsheet reads it: `;` between the
    fields (sniffed), Danish headings and verdicts, the tablet's name as the table, the time
    on the event's clock with its offset."""
    import csv
    import io
    import json
    from pathlib import Path

    da = json.loads(
        (Path(__file__).resolve().parents[1] / "adjudicator/i18n/da.json").read_text("utf-8")
    )
    page = browser_context(LAPTOP)
    login(page, tournament_server)
    page.goto(f"{tournament_server.url}/director/rulings?lang=da")
    page.fill('input[name="q"]', "blåbær")
    page.click('form[role="search"] button[type="submit"]')
    expect(page.locator("#rulings tbody tr")).to_have_count(1)
    expect(page.locator("#downloads")).to_be_visible()
    assert serious_violations(page) == []
    shot(page, "41-director-rulings-download")

    with page.expect_download() as csv_download:
        page.click("#download-csv")
    text = Path(csv_download.value.path()).read_bytes().decode("utf-8-sig")
    assert csv_download.value.suggested_filename.endswith(".csv")
    dialect = csv.Sniffer().sniff(text.split("\r\n", 1)[0])
    assert dialect.delimiter == ";"
    heading, *rows = list(csv.reader(io.StringIO(text, newline=""), dialect))
    assert len(rows) == 1  # what the filter shows, not the whole log
    row = dict(zip(heading, rows[0], strict=True))
    assert row[da["export_col_ruling_id"]] == logged["ruling_id"]
    assert row[da["export_col_table"]] == TABLET
    assert row[da["export_col_verdict"]] in (da["dir_verdict_valid"], da["dir_verdict_invalid"])
    assert row[da["export_col_utc_offset"]] in ("UTC+01:00", "UTC+02:00")  # Copenhagen's

    openpyxl = pytest.importorskip("openpyxl")
    with page.expect_download() as xlsx_download:
        page.click("#download-xlsx")
    book = openpyxl.load_workbook(io.BytesIO(Path(xlsx_download.value.path()).read_bytes()))
    heading, *rows = list(book.active.iter_rows(values_only=True))
    assert len(rows) == 1 and heading[0] == da["export_col_seq"]
    cells = dict(zip(heading, rows[0], strict=True))
    assert cells[da["export_col_ruling_id"]] == logged["ruling_id"]
    assert isinstance(cells[da["export_col_time"]], datetime)


@pytest.mark.parametrize("lang", ["sv", "nl"])
def test_the_download_links_on_a_tablet_held_upright(
    browser_context, tournament_server, logged, lang
):
    """The download links in Swedish and Dutch at 800×1280 (touch): on screen, in the page's
    language, and axe-core finds nothing serious."""
    from adjudicator.pages.strings import strings

    t = strings(lang)
    page = browser_context({"width": 800, "height": 1280})
    login(page, tournament_server)
    page.goto(f"{tournament_server.url}/director/rulings?lang={lang}")
    expect(page.locator("#download-csv")).to_have_text(t["dir_rulings_download_csv"])
    expect(page.locator("#download-xlsx")).to_be_in_viewport()
    assert serious_violations(page) == []
    shot(page, f"42-director-rulings-download-{lang}")
