"""`/`: what runs here and how to reach it, for the director setting up the tablets.

In the four languages (Accept-Language, or `?lang=`), with a kiosk per ruleset and a QR code of
each kiosk's address, drawn on the server. The address is `ADJUDICATOR_PUBLIC_URL` when the
operator published one, else the one the visitor used, unless that is loopback (the director on
the laptop itself): then it is the machine's network addresses, or a warning that the service is
bound to loopback only and no tablet can reach it (adjudicator.web.netaddrs.tablet_bases, which the
director's pairing code uses too). The QR codes are inline SVG drawn by segno: no external
service, no image request.
"""

from __future__ import annotations

from functools import lru_cache

import segno
from flask import Blueprint

from adjudicator.judge.views import judge_page, listed_rulesets
from adjudicator.pages.headers import security_headers
from adjudicator.settings import current_settings
from adjudicator.web.access import public_blueprint
from adjudicator.web.netaddrs import configured_venue_bind, tablet_bases

# What runs here and where the kiosks are: no word, so public in every mode.
bp = public_blueprint(Blueprint("landing", __name__))
bp.after_request(security_headers)


@lru_cache(maxsize=256)
def qr_svg(text: str) -> str:
    """An SVG element (no XML declaration, sized by CSS) encoding `text`, hidden from screen
    readers: the page names the URL next to it."""
    svg = segno.make(text, error="m").svg_inline(
        scale=1, border=2, dark="#000", light="#fff", omitsize=True
    )
    return svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1)


@bp.get("/")
def landing():
    bases, loopback = tablet_bases()
    base = bases[0].rstrip("/")
    kiosks = []
    for r in listed_rulesets():
        url = f"{base}/judge/{r['id']}"
        kiosks.append({**r, "url": url, "qr": qr_svg(url)})
    return judge_page(
        "landing.html",
        bases=bases,
        loopback=loopback,
        venue_bind=configured_venue_bind(),
        kiosks=kiosks,
        setup_url=f"{base}/judge/",
        tournament=current_settings().tournament,
    )
