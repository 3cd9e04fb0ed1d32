"""One exception type and one handler: every error leaves as JSON with a code and a field."""

from __future__ import annotations

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException


class ApiError(Exception):
    """An error a client can act on: HTTP status, machine-readable code, the field at fault."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field

    def to_dict(self) -> dict:
        body = {"code": self.code, "message": self.message}
        if self.field is not None:
            body["field"] = self.field
        return {"error": body}


_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
}


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def handle_api_error(exc: ApiError):
        return jsonify(exc.to_dict()), exc.status

    @app.errorhandler(HTTPException)
    def handle_http_exception(exc: HTTPException):
        status = exc.code or 500
        code = _HTTP_CODES.get(status, "http_error")
        message = exc.description or exc.name
        if status == 413:
            limit = request.max_content_length  # this endpoint's limit, not only the default
            message = f"the request body is larger than {limit} bytes"
        response = jsonify(ApiError(status, code, message).to_dict())
        response.status_code = status
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
        body = ApiError(500, "internal_error", "the service failed; the error has been logged")
        return jsonify(body.to_dict()), 500
