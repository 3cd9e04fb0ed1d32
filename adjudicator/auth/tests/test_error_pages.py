"""Errors on the directors' pages and the tablet's pairing page reach a browser as a page in its
language (adjudicator.web.errors.error_pages), with the problem document's status and headers; a
client that does not ask for HTML, and every API path, still gets the problem document."""

from __future__ import annotations

import sqlite3

import pytest

from adjudicator.pages.page_language import LANGUAGES
from adjudicator.pages.strings import strings
from adjudicator.store import OUTAGE_RETRY_AFTER_SECONDS

from .conftest import add_director, form_csrf
from .test_pages_i18n import english_leaks, visible

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture
def app(make_app):
    app = make_app()
    add_director(app)
    yield app
    app.extensions["store"].dispose()


@pytest.fixture
def database(tmp_path):
    return tmp_path / "store.db"  # make_app's store


def rename(database, table: str, to: str) -> None:
    with sqlite3.connect(database) as db:
        db.execute(f"ALTER TABLE {table} RENAME TO {to}")


def assert_page(response, status: int) -> str:
    assert response.status_code == status
    assert response.mimetype == "text/html"
    assert response.headers["Cache-Control"] == "no-store"
    assert "Accept" in response.vary
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    return response.get_data(as_text=True)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_outage_under_a_directors_page_is_a_page_in_their_language(director, database, lang):
    rename(database, "devices", "devices_away")
    page = director.get(f"/director/?lang={lang}", headers=BROWSER)
    html = assert_page(page, 503)
    assert page.headers["Retry-After"] == str(OUTAGE_RETRY_AFTER_SECONDS)
    assert strings(lang)["dir_error_store"] in visible(html)
    assert 'href="/director/' in html
    assert "devices" not in html and "no such table" not in html  # the reason is the log's
    if lang != "en":
        assert english_leaks(html, lang) == []
    # The same request from a program: the problem document, as everywhere.
    program = director.get(f"/director/?lang={lang}")
    assert program.status_code == 503 and program.mimetype == "application/problem+json"
    assert program.json["code"] == "store_unavailable" and "Accept" in program.vary


def test_a_stale_form_is_a_page_saying_to_reload(director):
    refused = director.post("/director/logout", data={"csrf": "stale"}, headers=BROWSER)
    html = assert_page(refused, 403)
    assert strings("en")["dir_error_csrf"] in visible(html)
    assert director.get("/director/", headers=BROWSER).status_code == 200  # still logged in


def test_another_refusal_names_its_status_code_and_field_never_the_english_detail(director):
    page = director.get("/director/rulings?verdict=maybe&lang=da", headers=BROWSER)
    html = assert_page(page, 400)
    assert "Anmodningen blev afvist (400)." in visible(html)
    assert "<code>out_of_range</code> · <code>verdict</code>" in html
    assert "must be valid or invalid" not in html  # the API's English detail
    tag = director.get("/director/rulings?%3Cb%3E=1", headers=BROWSER)
    html = assert_page(tag, 400)
    assert "<b>" not in html and "&lt;b&gt;" in html


def test_a_path_or_method_nothing_serves_under_director_is_a_page(director):
    """Routing found nothing: still a page in the visitor's language for a browser, and the
    problem document for a program."""
    for wrong in (
        director.delete("/director/?lang=nl", headers=BROWSER),
        director.get("/director/x?lang=nl", headers=BROWSER),
    ):
        assert wrong.mimetype == "text/html" and '<html lang="nl">' in wrong.text
        assert "Accept" in wrong.vary
    assert "Op dit adres staat niets." in director.get("/director/x?lang=nl", headers=BROWSER).text
    program = director.get("/director/x")
    assert program.status_code == 404 and program.mimetype == "application/problem+json"


def test_api_paths_keep_the_problem_document_for_a_browser(app, director, database):
    refused = director.get("/api/v1/audit/rulings?verdict=maybe", headers=BROWSER)
    assert refused.status_code == 400 and refused.mimetype == "application/problem+json"
    assert "Accept" not in refused.vary
    rename(database, "rulings", "rulings_away")
    ruling = app.test_client().post(  # open mode: anonymous
        "/api/v1/rulesets/ssf-1999/challenge", json={"words": ["HEJ"]}, headers=BROWSER
    )
    assert ruling.status_code == 503 and ruling.mimetype == "application/problem+json"


def test_an_outage_while_pairing_leads_back_to_pairing(app, database):
    rename(database, "auth_failures", "auth_failures_away")
    tablet = app.test_client()
    page = tablet.post(
        "/judge/pair?lang=nl",
        data={"code": "ABCD-EFGH"},
        headers={**BROWSER, "Origin": "http://localhost"},
    )
    html = assert_page(page, 503)
    assert strings("nl")["dir_error_store"] in visible(html)
    assert strings("nl")["dir_error_back_pair"] in visible(html)
    assert 'href="/judge/pair?lang=nl"' in html


def test_a_form_page_still_works_after_the_store_returns(director, database):
    rename(database, "devices", "devices_away")
    assert director.get("/director/", headers=BROWSER).status_code == 503
    rename(database, "devices_away", "devices")
    html = director.get("/director/", headers=BROWSER).get_data(as_text=True)
    form_csrf(html)  # the devices screen again, with its forms


def test_a_failure_is_a_page_and_a_failing_page_still_leaves_as_the_document(director, monkeypatch):
    from adjudicator.auth import devices
    from adjudicator.pages import render

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(devices, "listed", broken)
    html = assert_page(director.get("/director/", headers=BROWSER), 500)
    assert strings("en")["dir_error_failed"] in visible(html) and "a bug" not in html
    monkeypatch.setattr(render, "page", broken)  # the error page itself fails
    failed = director.get("/director/", headers=BROWSER)
    assert failed.status_code == 500 and failed.mimetype == "application/problem+json"
    assert failed.json["code"] == "internal_error"
