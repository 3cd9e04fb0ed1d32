"""Who is asking: directors, paired judge devices and app keys, and the open or
tournament mode that decides whether an anonymous caller may have a ruling.

`init_app` reads the settings, puts the proxy fix in front when the service sits behind one,
installs the one before-request guard and registers the directors' and pairing pages (the
*Check a game* page, which reads a record by games/verify's one path, joins them from the JSON
API above: `adjudicator.api.check_page`).
"""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from adjudicator.auth import guard, passwords
from adjudicator.settings import current_settings


def init_app(app: Flask) -> None:
    config = current_settings(app)
    if config.trusted_proxies:
        # Behind nginx: the client's address (lockouts) and https (Secure cookies) come from
        # X-Forwarded-For and X-Forwarded-Proto, believed from this many proxies only.
        n = config.trusted_proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n)
    app.before_request(guard.check_request)
    passwords.dummy_hash()  # the unknown name's, made before gunicorn forks (passwords.py)
    from adjudicator.auth import account_pages, views  # noqa: F401 (its routes join views.bp)

    views.init_app(app)
