"""Which of the pages' four languages a request is in, and how a chosen one is carried on.

Only `flask.request` here, so the auth guard and every page can import it without importing
each other.
"""

from __future__ import annotations

from flask import request

LANGUAGES = ("da", "sv", "nl", "en")


def request_language() -> str:
    """`?lang=` when it names one of the four, else the browser's Accept-Language, else English."""
    return kept_language().get("lang") or request.accept_languages.best_match(LANGUAGES) or "en"


def kept_language() -> dict[str, str]:
    """`{"lang": code}` when this request chose its language by `?lang=`, else nothing: what
    the pages' links, forms and redirects carry on, so that a choice made with the switch holds
    from page to page (Accept-Language comes with every request by itself)."""
    asked = request.args.get("lang", "")
    return {"lang": asked} if asked in LANGUAGES else {}
