"""A Danish event over HTTP against a real gunicorn in tournament mode (issue 36, items 1 and 3):
every ruling is recorded under the service's event (`ADJUDICATOR_EVENT`), the rulings page
shows and filters it, and the page's download is what the filter shows, read back as a Danish
spreadsheet reads it (CSV: the dialect sniffed; xlsx: openpyxl), times on the event's clock with
their offset from UTC. The command line writes the same file."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import requests

from adjudicator.auth.guard import CSRF_HEADER
from api_tests.conftest import ROOT, director_login, pair_tablet, start_server, store_cli

pytestmark = pytest.mark.slow  # a server of its own

PASSWORD = "correct horse battery"
EVENT = "DM 2026"
ZONE = "Europe/Copenhagen"
TABLET = "Bord 2"
CATALOGUE = Path(__file__).resolve().parents[1] / "adjudicator" / "i18n"
DA = json.loads((CATALOGUE / "da.json").read_text("utf-8"))
EN = json.loads((CATALOGUE / "en.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    """The service at the event, a director, a paired tablet, and four rulings: the tablet's
    (no event named), one naming the event in another spelling, an invalid word, a move."""
    folder = tmp_path_factory.mktemp("event-export")
    database = f"sqlite:///{folder / 'adjudicator.db'}"
    add = store_cli(database, "directors", "add", "anna", "--password-stdin", stdin=PASSWORD)
    assert add.returncode == 0, add.stderr
    server = start_server(
        folder,
        ADJUDICATOR_DATABASE_URL=database,
        ADJUDICATOR_MODE="tournament",
        ADJUDICATOR_EVENT=EVENT,
        ADJUDICATOR_TIME_ZONE=ZONE,
        ADJUDICATOR_TRUSTED_PROXIES="1",  # pair_tablet's venue address
    )
    try:
        director = director_login(server, "anna", PASSWORD, {CSRF_HEADER: "test"})
        tablet = pair_tablet(server, director, TABLET, "dsf-2015")
        tablet.headers.update({"X-Requested-With": "judge"})

        def ask(path: str, body: dict) -> requests.Response:
            return tablet.post(server.api(f"/rulesets/dsf-2015/{path}"), json=body, timeout=10)

        answers = [
            ask("challenge", {"words": ["hest", "kat"]}),
            ask("challenge", {"words": ["bil"], "event": " dm  2026", "round": "3"}),
            ask("challenge", {"words": ["qzx"]}),
            ask("moves/validate", {"play": "8H HEST"}),
        ]
        assert [a.status_code for a in answers] == [200] * 4, [a.text for a in answers]
        yield server, director, tablet, database, [a.json() for a in answers]
    finally:
        server.stop()


def rulings(server, director, **query) -> list[dict]:
    found = director.get(server.api("/audit/rulings"), params=query, timeout=10)
    assert found.status_code == 200, found.text
    return found.json()["rulings"]


def test_every_ruling_is_recorded_under_the_event(event):
    server, director, tablet, _, answers = event
    ids = {a["ruling_id"] for a in answers}
    recorded = rulings(server, director, event=EVENT)
    assert {r["ruling_id"] for r in recorded} == ids  # the filter finds every one
    assert {r["event"] for r in recorded} == {EVENT}  # as the setting spells it
    assert rulings(server, director, event="dm 2026") == recorded  # the filter, any spelling

    page = director.get(
        f"{server.url}/director/rulings", params={"event": EVENT, "lang": "da"}, timeout=10
    )
    assert page.status_code == 200
    assert page.text.count(f'<td class="where">{EVENT} · ') == len(ids)  # event · [round ·] table

    # Another event named in a request is refused, never recorded under the wrong one.
    other = tablet.post(
        server.api("/rulesets/dsf-2015/challenge"),
        json={"words": ["sol"], "event": "NM 2027"},
        timeout=10,
    )
    assert other.status_code == 400 and other.json()["field"] == "event"
    assert len(rulings(server, director)) == len(ids)


def sniffed(data: bytes) -> tuple[str, list[list[str]]]:
    """The CSV as a spreadsheet opens it: the BOM says UTF-8, the dialect is guessed."""
    text = data.decode("utf-8-sig")
    dialect = csv.Sniffer().sniff(text.split("\r\n", 1)[0])
    return dialect.delimiter, list(csv.reader(io.StringIO(text, newline=""), dialect))


def on_the_events_clock(created_at: str) -> datetime:
    at = datetime.fromisoformat(created_at.removesuffix("Z")).replace(tzinfo=UTC)
    return at.astimezone(ZoneInfo(ZONE)).replace(microsecond=0)


def test_the_download_is_what_the_filter_shows_in_danish(event):
    server, director, _, _, answers = event
    url = f"{server.url}/director/rulings/export"
    got = director.get(url, params={"event": EVENT, "lang": "da", "format": "csv"}, timeout=10)
    assert got.status_code == 200, got.text
    assert got.headers["Content-Type"].startswith("text/csv")
    assert got.headers["Content-Disposition"].startswith("attachment;")
    assert got.headers["Cache-Control"] == "no-store"
    delimiter, rows = sniffed(got.content)
    assert delimiter == ";"  # Danish: a comma is the decimal sign
    heading, *body = rows
    column = {name: heading.index(DA[f"export_col_{name}"]) for name in ("seq", "time",
              "utc_offset", "event", "table", "round", "verdict", "consequence", "words", "kind")}  # fmt: skip
    recorded = {r["ruling_id"]: r for r in rulings(server, director)}
    assert len(body) == len(answers)
    for row in body:
        [entry] = [r for r in recorded.values() if str(r["seq"]) == row[column["seq"]]]
        assert row[column["event"]] == EVENT
        assert row[column["table"]] == TABLET  # the tablet's name: the request named no table
        there = on_the_events_clock(entry["created_at"])
        offset = row[column["utc_offset"]]
        assert offset == "UTC" + there.isoformat()[-6:]  # UTC+01:00 in December
        stamp = row[column["time"]] + offset.removeprefix("UTC")
        assert datetime.fromisoformat(stamp) == there  # the same instant, on Copenhagen's clock
    by_kind = {row[column["kind"]]: row for row in body}
    move = by_kind[DA["dir_kind_move"]]
    assert move[column["consequence"]].startswith(DA["dir_move_legal"])  # words, not JSON
    verdicts = sorted(row[column["verdict"]] for row in body if row is not move)
    assert verdicts == sorted([DA["dir_verdict_valid"]] * 2 + [DA["dir_verdict_invalid"]])
    assert {row[column["round"]] for row in body} == {"", "3"}
    assert f"QZX ({DA['word_invalid']})" in [row[column["words"]] for row in body]
    assert not any(row[column["consequence"]].startswith("{") for row in body)

    # The filter is the page's: only the invalid one.
    one = director.get(url, params={"verdict": "invalid", "lang": "da"}, timeout=10)
    _, (_, only) = sniffed(one.content)
    assert only[column["words"]] == f"QZX ({DA['word_invalid']})"

    # In English: commas, English words.
    english = director.get(url, params={"lang": "en"}, timeout=10)
    delimiter, (heading, *body) = sniffed(english.content)
    assert delimiter == "," and heading[0] == EN["export_col_seq"] and len(body) == len(answers)


def test_the_xlsx_download_reads_back_as_a_workbook(event):
    openpyxl = pytest.importorskip("openpyxl")
    server, director, _, _, answers = event
    got = director.get(
        f"{server.url}/director/rulings/export",
        params={"event": EVENT, "lang": "da", "format": "xlsx"},
        timeout=10,
    )
    assert got.status_code == 200
    assert got.headers["Content-Type"].startswith("application/vnd.openxmlformats")
    sheet = openpyxl.load_workbook(io.BytesIO(got.content)).active
    heading, *body = list(sheet.iter_rows(values_only=True))
    assert list(heading[:3]) == [DA[f"export_col_{n}"] for n in ("seq", "time", "utc_offset")]
    assert len(body) == len(answers)
    recorded = {r["seq"]: r for r in rulings(server, director)}
    for seq, when, offset, event_name, _round, table, *_ in body:
        there = on_the_events_clock(recorded[seq]["created_at"])
        assert isinstance(when, datetime)  # a date-time cell, not text
        assert when == there.replace(tzinfo=None) and offset == "UTC" + there.isoformat()[-6:]
        assert (event_name, table) == (EVENT, TABLET)


def test_the_download_needs_the_directors_session(event):
    server, _, tablet, _, _ = event
    url = f"{server.url}/director/rulings/export?format=csv"
    anonymous = requests.get(url, allow_redirects=False, timeout=10)
    assert anonymous.status_code == 303 and "/director/login" in anonymous.headers["Location"]
    assert tablet.get(url, allow_redirects=False, timeout=10).status_code in (303, 403)
    assert b"Bord" not in anonymous.content


def test_the_command_line_writes_the_same_file(event, tmp_path):
    server, director, _, database, _ = event
    out = tmp_path / "kendelser.csv"
    env = {
        **os.environ,
        "ADJUDICATOR_TIME_ZONE": ZONE,
        "LANG": "da_DK.UTF-8",
        "LC_ALL": "",
        "LC_MESSAGES": "",
    }
    done = subprocess.run(
        [str(Path(sys.executable).with_name("adjudicator")), "audit", "export", "--out",
         str(out), "--database-url", database],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    page = director.get(
        f"{server.url}/director/rulings/export", params={"lang": "da"}, timeout=10
    ).content
    assert out.read_bytes() == page  # Danish from the terminal's locale, Copenhagen's clock
