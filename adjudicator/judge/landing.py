"""`/`: what runs here and how to reach it, for the director setting up the tablets.

In the four languages (Accept-Language, or `?lang=`), with a kiosk per ruleset and a QR code of
each kiosk's address, drawn on the server. The address is `ADJUDICATOR_PUBLIC_URL` when the
operator published one, else the one the visitor used, unless that is loopback (the director on the laptop itself): then it is the machine's network addresses, or
a warning that the service is bound to loopback only and no tablet can reach it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, render_template, request

from adjudicator.auth.guard import public_blueprint
from adjudicator.judge.config import asset_version, strings
from adjudicator.judge.headers import security_headers
from adjudicator.judge.pages import listed_rulesets
from adjudicator.languages import LANGUAGES, request_language
from adjudicator.netaddrs import is_loopback, loopback_only, parse_bind, tablet_urls
from adjudicator.qr import qr_svg

# What runs here and where the kiosks are: no word, so public in every mode.
bp = public_blueprint(Blueprint("landing", __name__))
bp.after_request(security_headers)


def tablet_bases() -> tuple[list[str], str | None]:
    """Base URLs for the tablets, and the loopback-only bind to warn about (or None)."""
    public = current_app.config.get("PUBLIC_URL")  # the operator's published address wins
    if public:
        return [str(public).rstrip("/") + "/"], None
    own = request.host_url
    if not is_loopback(urlsplit(own).hostname or ""):
        return [own], None  # the address this visitor reached: the tablets can too
    bind = current_app.config.get("BIND")  # ADJUDICATOR_BIND, as gunicorn reads it
    if not bind:
        return [own], None
    bound = parse_bind(str(bind))
    if loopback_only(bound):
        return [own], ", ".join(f"{h}:{p}" for h, p in bound)
    return tablet_urls(bound) or [own], None


@bp.get("/")
def landing():
    lang = request_language()
    bases, loopback = tablet_bases()
    base = bases[0].rstrip("/")
    kiosks = []
    for r in listed_rulesets():
        url = f"{base}/judge/{r['id']}"
        kiosks.append({**r, "url": url, "qr": qr_svg(url)})
    return render_template(
        "landing.html",
        t=strings(lang),
        lang=lang,
        languages=[(code, strings(code)["language_name"]) for code in LANGUAGES],
        bases=bases,
        loopback=loopback,
        kiosks=kiosks,
        setup_url=f"{base}/judge/",
        tournament=current_app.config.get("MODE") == "tournament",
        version=asset_version(),
    )
