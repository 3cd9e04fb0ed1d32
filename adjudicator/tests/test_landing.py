"""`/`: the landing page in the four languages, its kiosk addresses and QR codes; the addresses
the start-up log names."""

from __future__ import annotations

import re

import pytest
import segno

from adjudicator import create_app
from adjudicator.pages.page_language import LANGUAGES
from adjudicator.web import netaddrs

RULESETS = (
    "dsf-2015",
    "ssf-1999",
    "sbnl-punten",
    "dk-home",
    "dk-home-egennavne",
    "naspa",
    "naspa-collins",
    "wespa",
)


def kiosk_urls(html: str) -> list[str]:
    return re.findall(r'<a class="url" href="([^"]+)"', html)


def qr_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules an SVG path from segno draws, read back from its path commands."""
    path = re.search(r'class="qrline"[^>]*d="([^"]+)"', svg).group(1)
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for op, args in re.findall(r"([Mmh])([-\d. ]+)", path):
        nums = [float(n) for n in args.split()]
        if op == "M":
            x, y = nums
        elif op == "m":
            x, y = x + nums[0], y + nums[1]
        else:
            dark |= {(int(y), int(x) + i) for i in range(int(nums[0]))}
            x += nums[0]
    return dark


def expected_modules(url: str, border: int = 2) -> set[tuple[int, int]]:
    matrix = segno.make(url, error="m").matrix
    return {
        (r + border, c + border) for r, row in enumerate(matrix) for c, v in enumerate(row) if v
    }


@pytest.mark.parametrize(
    ("header", "lang", "title"),
    [
        ("da", "da", "Orddommer på dette netværk"),
        ("sv-SE", "sv", "Orddomare på det här nätverket"),
        ("nl", "nl", "Woordrechter op dit netwerk"),
        ("en-GB", "en", "Word judge on this network"),
        ("de", "en", "Word judge on this network"),
    ],
)
def test_the_landing_page_speaks_the_visitors_language(client, header, lang, title):
    response = client.get("/", headers={"Accept-Language": header})
    assert response.status_code == 200 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in html and f"<h1>{title}</h1>" in html
    for code in LANGUAGES:
        assert f'href="?lang={code}"' in html
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    for link in re.findall(r"""(?:src|href)=["']([^"']+)""", html):
        assert link.startswith(("/", "?", "data:", "http://localhost/")), link  # no outside asset
    assert " style=" not in html and "<script" not in html  # nothing inline, nothing to run


def test_a_kiosk_and_its_qr_code_per_ruleset(client):
    html = client.get("/", base_url="http://192.168.10.5:8000").get_data(as_text=True)
    urls = kiosk_urls(html)
    assert urls == [f"http://192.168.10.5:8000/judge/{r}" for r in sorted(RULESETS)]
    svgs = re.findall(
        r'<div class="qr" role="img" aria-label="[^"]*: ([^"]+)">(<svg.*?</svg>)', html
    )
    assert [u for u, _ in svgs] == urls
    for url, svg in svgs:
        assert 'aria-hidden="true"' in svg and "style=" not in svg
        assert qr_modules(svg) == expected_modules(url)  # the code encodes this very address
    assert qr_modules(svgs[0][1]) != qr_modules(svgs[1][1])
    assert "jury" in html.split('data-ruleset="sbnl-punten"')[1].split("</li>")[0]


def test_from_the_laptop_itself_the_page_names_the_network_addresses(lexicon_dir, monkeypatch):
    monkeypatch.setattr(netaddrs, "interface_addresses", lambda: ["10.1.2.3", "192.168.0.7"])
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "BIND": "0.0.0.0:8000"})
    html = app.test_client().get("/", base_url="http://127.0.0.1:8000").get_data(as_text=True)
    assert kiosk_urls(html)[0] == "http://10.1.2.3:8000/judge/dk-home"
    assert 'href="http://192.168.0.7:8000/"' in html and 'role="alert"' not in html


def test_a_loopback_bind_is_said_to_be_unreachable(lexicon_dir):
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "BIND": "127.0.0.1:8000"})
    html = app.test_client().get("/?lang=en").get_data(as_text=True)
    assert 'role="alert"' in html and "listens on 127.0.0.1:8000 only" in html
    assert "ADJUDICATOR_BIND=0.0.0.0:8000" in html


def test_in_tournament_mode_the_page_says_where_tablets_are_paired(lexicon_dir, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "MODE": "tournament",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'store.db'}",
        }
    )
    html = (
        app.test_client().get("/?lang=nl", base_url="http://10.0.0.2:8000").get_data(as_text=True)
    )
    assert "http://10.0.0.2:8000/director/" in html and "http://10.0.0.2:8000/judge/pair" in html
    assert "Toernooimodus" in html


def test_a_published_url_is_the_tablets_address(lexicon_dir):
    app = create_app(
        {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "BIND": "127.0.0.1:8000",
            "PUBLIC_URL": "http://judge.club.example/",
        }
    )
    html = app.test_client().get("/").get_data(as_text=True)
    assert kiosk_urls(html)[0] == "http://judge.club.example/judge/dk-home"
    assert 'role="alert"' not in html  # behind a proxy, the loopback bind is the right one


def test_bind_parsing_and_tablet_urls():
    assert netaddrs.parse_bind("0.0.0.0:8000, [::1]:9000,unix:/run/a.sock") == [
        ("0.0.0.0", 8000),
        ("::1", 9000),
    ]
    assert netaddrs.tablet_urls([("0.0.0.0", 8000)], ["192.168.1.2"]) == [
        "http://192.168.1.2:8000/"
    ]
    assert netaddrs.tablet_urls([("127.0.0.1", 8000), ("10.0.0.4", 80)]) == ["http://10.0.0.4:80/"]
    assert netaddrs.loopback_only([("127.0.0.1", 8000), ("::1", 8000)])
    assert not netaddrs.loopback_only([("127.0.0.1", 8000), ("0.0.0.0", 8001)])
    lines = netaddrs.startup_lines([("0.0.0.0", 8000)], ["192.168.1.2", "10.9.8.7"])
    assert lines == [
        "judge tablets: open http://192.168.1.2:8000/ (kiosks and QR codes at that address)",
        "judge tablets: open http://10.9.8.7:8000/ (kiosks and QR codes at that address)",
    ]
    (warning,) = netaddrs.startup_lines([("127.0.0.1", 8000)])
    assert "listens on http://127.0.0.1:8000/ only" in warning and "0.0.0.0:8000" in warning


def test_the_loopback_warnings_suggest_the_port_in_use(lexicon_dir):
    """Served on 8123, the log and the page suggest 0.0.0.0:8123, not gunicorn's 8000."""
    (warning,) = netaddrs.startup_lines([("127.0.0.1", 8123), ("::1", 9000)])
    assert "ADJUDICATOR_BIND=0.0.0.0:8123 " in warning and "8000" not in warning
    assert "http://[::1]:9000/" in warning  # an IPv6 address in a URL is bracketed
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "BIND": "127.0.0.1:8123"})
    for lang in ("en", "da", "sv", "nl"):
        html = app.test_client().get(f"/?lang={lang}").get_data(as_text=True)
        assert "ADJUDICATOR_BIND=0.0.0.0:8123 " in html and "8000" not in html, lang


def test_interface_addresses_are_real_and_not_loopback():
    for address in netaddrs.interface_addresses():
        assert not netaddrs.is_loopback(address)
        assert re.fullmatch(r"\d+\.\d+\.\d+\.\d+", address)
