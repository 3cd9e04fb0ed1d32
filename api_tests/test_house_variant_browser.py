"""004 Almindelige varianter, "Mange hjem tillader egennavne", on the kiosk in Chromium against
gunicorn serving the bundled lexicons: the tablet set to the house variant rules a proper name
valid and says it is a house variant; set to a Danish tournament ruleset, the same name is
invalid (docs/rules.md §4.6)."""

from __future__ import annotations

import pytest

from api_tests.browser import dismiss, expect, judge, open_kiosk

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
