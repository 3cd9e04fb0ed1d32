"""004 Almindelige varianter, "Mange hjem tillader egennavne", on the kiosk in Chromium against
gunicorn serving the bundled lexicons: the tablet set to the house variant rules a proper name
valid and says it is a house variant; set to a Danish tournament ruleset, the same name is
invalid (docs/rules.md §4.6)."""

from __future__ import annotations

import json

import pytest

from api_tests.browser import dismiss, enter_words, expect, judge, open_kiosk

# Slow (Chromium against gunicorn): `make test-quick` leaves these out.
pytestmark = pytest.mark.slow

HOUSE = "dk-home-egennavne"


def test_the_kiosk_rules_a_proper_name_valid_only_under_the_house_variant(page, judge_server):
    open_kiosk(page, judge_server, HOUSE)
    expect(page.locator("#house-badge")).to_have_text("husvariant: egennavne tilladt")
    judge(page, ["københavn"])
    expect(page.locator(".verdict-word")).to_have_text("GYLDIG")
    assert page.locator("#screen-result").get_attribute("data-ruling") == "valid"
    dismiss(page)
    for ruleset in ("dsf-2015", "dk-home"):
        open_kiosk(page, judge_server, ruleset)
        expect(page.locator("#house-badge")).to_have_count(0)
        judge(page, ["københavn"])
        expect(page.locator(".verdict-word")).to_have_text("UGYLDIG")
        assert page.locator("#screen-result").get_attribute("data-ruling") == "invalid"
        dismiss(page)


def test_the_kiosk_set_up_page_offers_the_house_variant_in_open_mode(page, judge_server):
    page.goto(f"{judge_server.url}/judge/?lang=da")
    expect(page.locator(f'a[href$="/judge/{HOUSE}"]')).to_have_count(1)


def test_a_tablet_told_the_house_variant_is_refused_says_why_and_offers_no_retry(
    page, judge_server
):
    """A tablet opened on the house variant before the service was restarted for a tournament
    gets `house_ruleset` (403) for its next challenge: it says why, in its language, and offers
    no RETRY (the same request would be refused again). The answer is the problem document the
    service sends (adjudicator/catalogue.py), given to the page as gunicorn would send it."""
    from adjudicator.problems import Problem

    open_kiosk(page, judge_server, HOUSE)
    problem = {
        "type": Problem.HOUSE_RULESET.type,
        "title": "Forbidden",
        "status": 403,
        "code": Problem.HOUSE_RULESET.value,
        "detail": f"ruleset '{HOUSE}' is a house variant",
        "field": "ruleset",
    }
    page.route(
        "**/challenge",
        lambda route: route.fulfill(
            status=403, content_type="application/problem+json", body=json.dumps(problem)
        ),
    )
    enter_words(page, ["københavn"])
    page.click("#judge")
    expect(page.locator("#screen-error")).to_be_visible()
    expect(page.locator("#error-title")).to_have_text("Husvariant, ikke til turneringer")
    expect(page.locator("#error-body")).to_contain_text("Vælg et turneringsregelsæt.")
    expect(page.locator("#error-retry")).to_be_hidden()
