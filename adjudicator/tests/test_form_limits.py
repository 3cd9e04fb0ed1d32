"""A form field's limit is the service's: no template writes a number of its own in `maxlength`
or `minlength` (the jury kiosk's fields took 40 characters where a ruling's label takes 64; the
pages' fields now take their numbers from the declarations the views check against)."""

from __future__ import annotations

import re
from pathlib import Path

import adjudicator
from adjudicator.auth.views import FORM_LIMITS
from adjudicator.bounds import MAX_PIN_CHARS
from adjudicator.store.labelforms import LABEL_MAX

PACKAGE = Path(adjudicator.__file__).parent
LIMIT = re.compile(r"""\b(maxlength|minlength)=["']?([^"'\s>]+)""")


def test_no_template_writes_a_length_limit_of_its_own():
    literal = [
        f"{path.relative_to(PACKAGE)}: {attr}={value}"
        for path in sorted(PACKAGE.rglob("*.html"))
        for attr, value in LIMIT.findall(path.read_text("utf-8"))
        if not value.startswith("{{")
    ]
    assert literal == []


def test_the_pages_limits_are_the_ones_the_views_check(client):
    """The kiosk's jury fields take a label's length; the PIN its bound; the directors' forms
    their table's numbers."""
    kiosk = client.get("/judge/sbnl-punten").get_data(as_text=True)
    for field in ("jury-player", "jury-game"):
        assert re.search(rf'id="{field}"[^>]*maxlength="{LABEL_MAX}"', kiosk), field
    assert re.search(rf'maxlength="{MAX_PIN_CHARS}" aria-label', kiosk)
    login = client.get("/director/login").get_data(as_text=True)
    assert f'maxlength="{FORM_LIMITS["name"]}"' in login
    assert f'maxlength="{FORM_LIMITS["password"]}"' in login
    pair = client.get("/judge/pair").get_data(as_text=True)
    assert f'maxlength="{FORM_LIMITS["code"]}"' in pair
