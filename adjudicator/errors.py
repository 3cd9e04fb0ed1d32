"""One exception type and one handler: every error leaves as RFC 9457 `application/problem+json`.

A problem carries the standard members (`type`, `title`, `status`, `detail`) and ours: `code`,
the machine-readable reason a client branches on, and `field`, the request field at fault. The
`type` is a tag URI (RFC 4151, as RFC 9457 §3.1.1 suggests for types that need not resolve) made
from the code, so the two never disagree. Errors Werkzeug raises (404, 405, 413, ...) leave in the
same shape with our own wording, never its HTML or boilerplate.
"""

from __future__ import annotations

from http import HTTPStatus

import orjson
from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

PROBLEM_MIMETYPE = "application/problem+json"
PROBLEM_TYPE_PREFIX = "tag:scrabble-adjudicator,2026:problem:"


class ApiError(Exception):
    """An error a client can act on: HTTP status, machine-readable code, the field at fault."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers or {}  # e.g. Retry-After on a 429, WWW-Authenticate on a 401

    def to_dict(self) -> dict:
        """The problem document (RFC 9457) with the `code` and `field` extension members."""
        body = {
            "type": PROBLEM_TYPE_PREFIX + self.code,
            "title": _title(self.status),
            "status": self.status,
            "detail": self.message,
            "code": self.code,
        }
        if self.field is not None:
            body["field"] = self.field
        return body

    def response(self) -> Response:
        response = Response(orjson.dumps(self.to_dict()), self.status, mimetype=PROBLEM_MIMETYPE)
        response.headers["Cache-Control"] = "no-store"  # an error is about this request only
        response.headers.update(self.headers)
        return response


def _title(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


# Codes for the errors Werkzeug raises itself (routing, body limits, malformed framing).
HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    416: "range_not_satisfiable",  # a Range header on the judge page's static files
}
OTHER_HTTP_CODE = "http_error"  # any status Werkzeug may raise that has no code above
INTERNAL_CODE = "internal_error"


def _http_detail(exc: HTTPException, status: int) -> str:
    """Our own sentence for each Werkzeug error; its descriptions are HTML-ish boilerplate."""
    where = f"{request.method} {request.path}"
    if status == 404:
        return f"nothing is served at {request.path}"
    if status == 405:
        allowed = ", ".join(sorted(set(exc.valid_methods or ()) - {"HEAD", "OPTIONS"}))
        return f"{request.method} is not allowed on {request.path}; use {allowed}"
    if status == 413:
        limit = request.max_content_length  # this endpoint's limit, not only the default
        return f"the request body is larger than {limit} bytes"
    if status == 400:
        return f"the request could not be read ({where})"
    return f"{_title(status).lower()} ({where})"


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def handle_api_error(exc: ApiError):
        return exc.response()

    @app.errorhandler(HTTPException)
    def handle_http_exception(exc: HTTPException):
        status = exc.code or 500
        code = HTTP_CODES.get(status, OTHER_HTTP_CODE)
        response = ApiError(status, code, _http_detail(exc, status)).response()
        if status == 405 and exc.valid_methods:
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.after_request
    def stable_allow(response):
        # Werkzeug lists allowed methods from a set, whose order changes from one process to
        # the next; an answer should be a function of the request alone.
        allow = response.headers.get("Allow")
        if allow:
            response.headers["Allow"] = ", ".join(sorted(m.strip() for m in allow.split(",")))
        return response

    @app.errorhandler(Exception)
    def handle_unexpected(exc: Exception):
        app.logger.exception("unhandled error")
        message = "the service failed; the error has been logged"
        return ApiError(500, INTERNAL_CODE, message).response()
