"""The documentation site opened from files, as README says (`build/site/index.html`), in
Chromium: links reach pages (they were directory URLs, which showed "Index of"), search finds
words (it needs a worker, which a file page may not start without the vendored shim), and
Swagger UI draws the API (a file page may not fetch `openapi.json`: the document is inline).
Nothing is fetched from the network: every request the pages make is a file or data URL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from api_tests.conftest import ROOT

pytestmark = pytest.mark.slow  # a whole site build and a browser


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [str(Path(sys.executable).with_name("mkdocs")), "build", "--strict", "--quiet",
         "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture
def file_page(browser, site):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    remote: list[str] = []
    page.on(
        "request",
        lambda r: None if r.url.startswith(("file:", "data:", "blob:")) else remote.append(r.url),
    )
    yield page
    context.close()
    assert remote == [], remote


def test_links_open_pages_from_files(file_page, site):
    file_page.goto((site / "index.html").as_uri())
    file_page.locator("nav a", has_text="HTTP API").first.click()
    assert file_page.url.endswith("reference/http-api.html")
    assert file_page.locator("h1").inner_text().strip().rstrip("¶") == "HTTP API"
    assert "Index of" not in file_page.content()


def test_search_works_from_files(file_page, site):
    file_page.goto((site / "index.html").as_uri())
    query = file_page.locator("input[data-md-component='search-query']")
    query.click()
    query.press_sequentially("Idempotency", delay=30)  # keystrokes, as a reader types
    results = file_page.locator(".md-search-result__item")
    results.first.wait_for()
    assert results.count() > 0


def test_swagger_ui_draws_the_api_from_files(file_page, site):
    file_page.goto((site / "reference" / "openapi.html").as_uri())
    frame = file_page.frame_locator("iframe").first
    frame.locator(
        ".opblock-summary-path", has_text="/rulesets/{ruleset_id}/challenge"
    ).first.wait_for()
