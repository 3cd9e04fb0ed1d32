"""The director's pairing screen: the address a tablet is told (the page's text and the QR code)
is built as `/` builds its kiosks' (adjudicator.web.netaddrs.tablet_bases): the published URL, else
the address the director used, unless that is the laptop's loopback, where no tablet can go."""

from __future__ import annotations

import re

import pytest
import segno

from adjudicator.auth.tests.conftest import add_director, form_csrf, login
from adjudicator.pages.strings import strings
from adjudicator.web import netaddrs


def pairing_screen(app, base_url: str) -> tuple[str, str, str]:
    """As director anna on `base_url`: a pairing code made; the screen, its code and its QR."""
    add_director(app)
    client = app.test_client()
    assert login(client, base_url=base_url).status_code == 303
    csrf = form_csrf(client.get("/director/?lang=en", base_url=base_url).get_data(as_text=True))
    html = client.post(
        "/director/pairings?lang=en",
        data={"csrf": csrf, "name": "Table 1", "ruleset": "ssf-1999"},
        base_url=base_url,
    ).get_data(as_text=True)
    code = re.search(r'id="pairing-code">([^<]+)<', html).group(1).replace("-", "")
    qr = re.search(r'<img class="qr" src="([^"]+)"', html).group(1)
    return html, code, qr


def qr_of(url: str) -> str:
    """The QR code the screen draws for `url` (the same segno call, so equal means same text)."""
    return segno.make(url, error="m").svg_data_uri(scale=6, border=2)


def told(html: str) -> str:
    """The pairing address the screen's text names."""
    return re.search(r"<code>([^<]+/judge/pair)</code>", html).group(1)


def test_on_the_laptop_itself_the_tablet_is_told_the_network_address(make_app, monkeypatch):
    monkeypatch.setattr(netaddrs, "interface_addresses", lambda: ["10.1.2.3", "192.168.0.7"])
    app = make_app(MODE="tournament", BIND="0.0.0.0:8000")
    html, code, qr = pairing_screen(app, "http://127.0.0.1:8000")
    assert told(html) == "http://10.1.2.3:8000/judge/pair"
    assert qr == qr_of(f"http://10.1.2.3:8000/judge/pair#code={code}")
    assert "127.0.0.1" not in html and "localhost" not in html


@pytest.mark.parametrize("own", ["http://127.0.0.1:8000", "http://192.168.10.5:8000"])
def test_a_published_url_is_what_the_tablet_is_told(make_app, own):
    app = make_app(MODE="tournament", BIND="127.0.0.1:8000", PUBLIC_URL="https://judge.example/")
    html, code, qr = pairing_screen(app, own)
    assert told(html) == "https://judge.example/judge/pair"
    assert qr == qr_of(f"https://judge.example/judge/pair#code={code}")
    assert 'role="alert"' not in html  # behind a proxy, the loopback bind is the right one


def test_from_another_machine_the_tablet_is_told_the_address_the_director_used(make_app):
    app = make_app(MODE="tournament", BIND="0.0.0.0:8000")
    html, code, qr = pairing_screen(app, "http://192.168.10.5:8000")
    assert told(html) == "http://192.168.10.5:8000/judge/pair"
    assert qr == qr_of(f"http://192.168.10.5:8000/judge/pair#code={code}")


def test_a_loopback_bind_is_said_to_be_unreachable_beside_the_code(make_app):
    app = make_app(MODE="tournament", BIND="127.0.0.1:8123")
    html, _, _ = pairing_screen(app, "http://127.0.0.1:8123")
    warning = strings("en")["landing_loopback"].replace("{bind}", "127.0.0.1:8123")
    warning = warning.replace("{venue_bind}", "0.0.0.0:8123")
    assert f'role="alert" id="pairing-unreachable">{warning}<' in html


# --- the form's ruleset, the revoke confirmation, the list that follows the tablets -----------


def director_client(app):
    add_director(app)
    client = app.test_client()
    assert login(client).status_code == 303
    return client


def test_the_ruleset_is_chosen_never_any_by_default(make_app):
    """A pairing for every ruleset is a choice the director makes, not what a hurried click
    gives: the form starts on "choose…" (required), and a pairing without a ruleset is refused."""
    director = director_client(make_app(MODE="tournament"))
    html = director.get("/director/?lang=en").get_data(as_text=True)
    select = re.search(r'<select name="ruleset"[^>]*>(.*?)</select>', html, re.S)
    assert select and "required" in select.group(0).split(">")[0]
    options = re.findall(r'<option value="([^"]*)"([^>]*)>', select.group(1))
    assert options[0] == ("", " selected disabled")
    assert ("*", "") in options and all("selected" not in a for v, a in options[1:])
    csrf = form_csrf(html)
    for data in ({}, {"ruleset": ""}):
        refused = director.post(
            "/director/pairings?lang=en", data={"csrf": csrf, "name": "Table 1", **data}
        )
        assert refused.status_code == 400
        assert strings("en")["dir_home_choose_ruleset"].replace("’", "'") in refused.text.replace(
            "&#39;", "'"
        )
        assert 'id="pairing-code"' not in refused.text
    chosen = director.post(
        "/director/pairings", data={"csrf": csrf, "name": "Table 1", "ruleset": "*"}
    )
    assert chosen.status_code == 200 and 'id="pairing-code"' in chosen.text


def test_revoking_asks_first(make_app):
    """ "Revoke" opens a question naming the tablet; only its "Yes, revoke" posts."""
    app = make_app(MODE="tournament")
    director = director_client(app)
    csrf = form_csrf(director.get("/director/").get_data(as_text=True))
    code = re.search(
        r'id="pairing-code">([^<]+)<',
        director.post(
            "/director/pairings", data={"csrf": csrf, "name": "Bord <7>", "ruleset": "ssf-1999"}
        ).text,
    ).group(1)
    assert app.test_client().post("/judge/pair", data={"code": code}).status_code == 303
    html = director.get("/director/?lang=en").get_data(as_text=True)
    row = re.search(r'<tr data-device="1".*?</tr>', html, re.S).group(0)
    details = re.search(
        r'<details class="confirm">\s*<summary[^>]*>Revoke</summary>(.*?)</details>', row, re.S
    )
    assert details, row
    question = "Revoke “Bord &lt;7&gt;”? It stops judging at once and must be paired again."
    assert question in details.group(1)
    assert re.search(r'<form method="post" action="/director/devices/1/revoke', details.group(1))
    assert ">Yes, revoke</button>" in details.group(1)


def test_the_devices_list_has_a_small_state_for_the_screen_to_poll(make_app):
    """What the screen polls to refresh its list when a tablet pairs: directors only, never
    cached, and changing exactly when the list does."""
    app = make_app(MODE="tournament")
    anonymous = app.test_client().get(
        "/director/devices/state", headers={"Accept": "application/json"}
    )
    assert anonymous.status_code in (302, 303, 401)
    director = director_client(app)
    first = director.get("/director/devices/state")
    assert first.status_code == 200 and first.mimetype == "application/json"
    assert first.headers["Cache-Control"] == "no-store"
    home = director.get("/director/").get_data(as_text=True)
    assert f'data-devices-state="{first.json["state"]}"' in home
    assert director.get("/director/devices/state").json == first.json
    csrf = form_csrf(home)
    code = re.search(
        r'id="pairing-code">([^<]+)<',
        director.post(
            "/director/pairings", data={"csrf": csrf, "name": "T1", "ruleset": "ssf-1999"}
        ).text,
    ).group(1)
    assert director.get("/director/devices/state").json == first.json  # a code is no tablet yet
    assert app.test_client().post("/judge/pair", data={"code": code}).status_code == 303
    paired = director.get("/director/devices/state").json
    assert paired != first.json
    assert director.post("/director/devices/1/revoke", data={"csrf": csrf}).status_code == 303
    assert director.get("/director/devices/state").json not in (first.json, paired)
