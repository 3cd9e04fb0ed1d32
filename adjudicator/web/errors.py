"""One handler: an error leaves as RFC 9457 `application/problem+json`, whether the web layer
raised it (`ApiError`) or the domain did (a `DomainError`, mapped here, in `as_problem` only).

A problem carries the standard members (`type`, `title`, `status`, `detail`) and ours: `code`,
the machine-readable reason a client branches on, and `field`, the request field at fault. The
`type` is a tag URI (RFC 4151, as RFC 9457 §3.1.1 suggests for types that need not resolve) made
from the code, so the two never disagree. Errors Werkzeug raises (404, 405, 413, ...) leave in the
same shape with our own wording, never its HTML or boilerplate.

The one exception is a person's browser on one of the HTML pages a blueprint registers with
`error_pages` (the directors' pages, the tablet's pairing page): a request from there that
prefers `text/html` gets the same error as a page in its language, with the same status and
headers, so a director never reads a JSON document. Everything else, and every path under the
API, gets the problem document.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from http import HTTPStatus

import orjson
from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException

from adjudicator import store
from adjudicator.game.errors import GameInputError
from adjudicator.problems import PROBLEM_MIMETYPE, DomainError, Problem
from adjudicator.web import API_PREFIX

PAGE_MIMETYPE = "text/html"
# app.extensions: (blueprint names, path prefixes, renderer) per registration
ERROR_PAGES = "error_pages"

PageRenderer = Callable[["ApiError"], Response]


class ApiError(Exception):
    """An error a client can act on: HTTP status, machine-readable code, the field at fault.

    `code` must be a member of `Problem` (a plain string is refused, so a misspelt code fails
    where it is raised); the status is the code's own unless `status` says otherwise.
    """

    def __init__(
        self,
        code: Problem,
        message: str,
        field: str | None = None,
        *,
        status: int | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, object] | None = None,
    ):
        if not isinstance(code, Problem):
            raise TypeError(f"ApiError takes a Problem member as its code, not {code!r}")
        status = code.status if status is None else status
        if status is None:
            raise TypeError(f"{code.value} has no status of its own: give status=")
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers or {}  # e.g. Retry-After on a 429, WWW-Authenticate on a 401
        self.extra = extra or {}  # further members a client acts on (`queries_remaining`)

    def to_dict(self) -> dict:
        """The problem document (RFC 9457) with the `code` and `field` extension members."""
        body = {
            "type": self.code.type,
            "title": _title(self.status),
            "status": self.status,
            "detail": self.message,
            "code": self.code.value,
        }
        if self.field is not None:
            body["field"] = self.field
        return body | self.extra

    def response(self) -> Response:
        return self.dressed(Response(orjson.dumps(self.to_dict()), mimetype=PROBLEM_MIMETYPE))

    def dressed(self, response: Response) -> Response:
        """`response` (this error in any form) with its status and headers."""
        response.status_code = self.status
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
    400: Problem.BAD_REQUEST,
    404: Problem.NOT_FOUND,
    405: Problem.METHOD_NOT_ALLOWED,
    413: Problem.BODY_TOO_LARGE,
    415: Problem.UNSUPPORTED_MEDIA_TYPE,
    416: Problem.RANGE_NOT_SATISFIABLE,  # a Range header on the judge page's static files
}


# The status a domain error is answered with where it is not its code's own: the game rules'
# refusals are 422 where a view's own check of the same kind is a 400 (`Problem.statuses`).
DOMAIN_STATUSES: dict[type[DomainError], int] = {GameInputError: 422}


def as_problem(exc: ApiError | DomainError) -> ApiError:
    """The one mapping from a domain error to the problem it is answered with: its code,
    message, field and members, at its type's status (DOMAIN_STATUSES) or else its code's."""
    if isinstance(exc, ApiError):
        return exc
    status = next((s for t, s in DOMAIN_STATUSES.items() if isinstance(exc, t)), None)
    return ApiError(exc.code, exc.message, exc.field, status=status, extra=exc.extra)


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


def error_pages(
    app: Flask, blueprints: Iterable[str], render: PageRenderer, paths: Iterable[str] = ()
) -> None:
    """Errors on these blueprints' pages (paths outside the API's) are rendered by `render`
    for a browser that prefers HTML, and so are those of a request no route took (a path or
    method nothing serves) under one of `paths` (`/director/`): a page there, not a document."""
    registered = (frozenset(blueprints), tuple(paths), render)
    app.extensions.setdefault(ERROR_PAGES, []).append(registered)


def _page_renderer() -> PageRenderer | None:
    """The renderer for an error on one of the `error_pages`, whether or not this client wants
    the page; None elsewhere."""
    for blueprints, paths, render in current_app.extensions.get(ERROR_PAGES, ()):
        unrouted = request.url_rule is None and request.path.startswith(paths)  # by its path
        if request.blueprint in blueprints or unrouted:
            return None if request.path.startswith(API_PREFIX) else render
    return None


def respond(exc: ApiError) -> Response:
    """The error as this request should get it: a problem document, or a page (`error_pages`)."""
    render = _page_renderer()
    offered = [PROBLEM_MIMETYPE, "application/json", PAGE_MIMETYPE]
    response = None
    if render is not None and request.accept_mimetypes.best_match(offered) == PAGE_MIMETYPE:
        try:
            response = exc.dressed(render(exc))
        except Exception:  # the page failed: the error still leaves, as a document
            current_app.logger.exception("the error page failed; answering with the document")
    if response is None:
        response = exc.response()
    if render is not None:
        response.vary.add("Accept")  # the representation depends on it here
    return response


def init_app(app: Flask) -> None:
    @app.errorhandler(ApiError)
    @app.errorhandler(DomainError)
    def handle_api_error(exc: ApiError | DomainError):
        return respond(as_problem(exc))

    @app.errorhandler(HTTPException)
    def handle_http_exception(exc: HTTPException):
        status = exc.code or 500
        code = HTTP_CODES.get(status, Problem.HTTP_ERROR)
        response = respond(ApiError(code, _http_detail(exc, status), status=status))
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
        if store.is_outage(exc):
            # 503, not 500: nothing is wrong with the request or the service's code, and a retry
            # (with the same Idempotency-Key, so that a ruling committed just before the failure
            # is not made twice) will succeed once the database is back. The log says why.
            app.logger.error("the store cannot be used: %s", store.describe_error(exc))
            return respond(
                ApiError(
                    Problem.STORE_UNAVAILABLE,
                    "the store cannot be used right now, so nothing can be ruled and recorded;"
                    " retry shortly with the same Idempotency-Key",
                    headers={"Retry-After": str(store.OUTAGE_RETRY_AFTER_SECONDS)},
                )
            )
        app.logger.exception("unhandled error")
        message = "the service failed; the error has been logged"
        return respond(ApiError(Problem.INTERNAL_ERROR, message))
