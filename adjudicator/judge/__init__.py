"""The judge's tablet: a kiosk page locked to one ruleset, and the PIN check that unlocks it.

The page is plain HTML, CSS and ES modules served from this package (no CDN, no build step:
tournaments run on an offline LAN). Everything the page needs from the server is embedded in it
as one JSON block (`config.page_config`): the ruleset, the UI strings in the ruleset's language,
the keyboard layouts, the characters a word may contain, the limits and the timers. The PIN never
leaves the server.

Modules: `config` (what the page is told), `layouts` (on-screen keyboards), `views` (the kiosk
and set-up routes), `landing` (`/`: what runs here, kiosks and their QR codes), `pin` (the
director's PIN), `card` (the tables' two-letter card).
"""

from __future__ import annotations

from flask import Flask

from adjudicator.judge import card, landing
from adjudicator.judge.views import bp
from adjudicator.settings import current_settings


def init_app(app: Flask) -> None:
    pin = current_settings(app).judge_pin
    if pin and len(pin) < 4:
        app.logger.warning("the judge PIN is shorter than 4 characters")
    for blueprint in (bp, landing.bp, card.bp):
        app.register_blueprint(blueprint)
