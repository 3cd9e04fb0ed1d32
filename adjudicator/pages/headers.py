"""Security headers of every human-facing page (kiosk, set-up, landing, the directors' pages)
and their assets: one list, and a variant for the pages that post forms."""

from __future__ import annotations

from functools import partial

from flask import Response

PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'"
    ),
    "Cache-Control": "no-store",
    "Pragma": "no-cache",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}


def security_headers(response: Response, headers: dict[str, str] = PAGE_HEADERS) -> Response:
    """`response` with each of `headers` it does not set itself (an `after_request` function)."""
    for name, value in headers.items():
        response.headers.setdefault(name, value)
    return response


# The directors', pairing and audit pages' headers: the same, except that they post their
# forms to this site.
CSP = "Content-Security-Policy"
FORM_PAGE_HEADERS = {
    **PAGE_HEADERS,
    CSP: PAGE_HEADERS[CSP].replace("form-action 'none'", "form-action 'self'"),
    "Referrer-Policy": "same-origin",  # so that a form's Origin names this site, not "null"
}

form_page_headers = partial(security_headers, headers=FORM_PAGE_HEADERS)
