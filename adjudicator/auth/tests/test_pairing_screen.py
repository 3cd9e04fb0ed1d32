"""The director's pairing screen: the address a tablet is told (the page's text and the QR code)
is built as `/` builds its kiosks' (adjudicator.netaddrs.tablet_bases): the published URL, else
the address the director used, unless that is the laptop's loopback, where no tablet can go."""

from __future__ import annotations

import re

import pytest
import segno

from adjudicator import netaddrs
from adjudicator.auth.tests.conftest import add_director, form_csrf, login
from adjudicator.judge.config import strings


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
    app = make_app(MODE="tournament", BIND="127.0.0.1:8000")
    html, _, _ = pairing_screen(app, "http://127.0.0.1:8000")
    warning = strings("en")["landing_loopback"].replace("{bind}", "127.0.0.1:8000")
    assert f'role="alert" id="pairing-unreachable">{warning}<' in html
