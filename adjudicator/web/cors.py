"""CORS for browser apps on other origins: an allow-list from configuration, off by default.

`ADJUDICATOR_CORS_ORIGINS` lists the origins (`https://app.example,https://club.example`, or a
JSON list; `*` allows any origin), checked with the other settings (adjudicator.settings). An
allowed origin gets `Access-Control-Allow-Origin` on every API answer, errors included, so the
app can read a problem document; a preflight (`OPTIONS` with `Access-Control-Request-Method`) is
answered with the route's methods and the headers the API reads. Credentials (cookies) are
never allowed across origins. Other origins get no CORS headers and the browser keeps its
same-origin rule.
"""

from __future__ import annotations

from flask import Flask, Response, request

from adjudicator.settings import current_settings
from adjudicator.web import API_PREFIX

ALLOWED_HEADERS = "Content-Type, Authorization, If-None-Match, Idempotency-Key"
EXPOSED_HEADERS = "ETag, Retry-After, Allow"
PREFLIGHT_MAX_AGE = 600  # seconds a browser may reuse a preflight answer


def _add_cors_headers(response: Response) -> Response:
    origins = current_settings().cors_origins
    if not origins or not request.path.startswith(API_PREFIX + "/"):
        return response
    response.vary.add("Origin")  # caches must keep one answer per origin
    origin = request.headers.get("Origin")
    if not origin or ("*" not in origins and origin not in origins):
        return response
    response.headers["Access-Control-Allow-Origin"] = "*" if "*" in origins else origin
    if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
        response.headers["Access-Control-Allow-Methods"] = response.headers.get("Allow", "")
        response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
        response.headers["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
    else:
        response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
    return response


def init_app(app: Flask) -> None:
    app.after_request(_add_cors_headers)
