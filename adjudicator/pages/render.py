"""A page in the visitor's language: `page` renders a template with the language switch, and
`error_page` is an error as a page (the directors', pairing and audit pages share them)."""

from __future__ import annotations

from typing import Any

from flask import Response, make_response, render_template, request, url_for

from adjudicator.pages.page_language import kept_language, request_language
from adjudicator.pages.strings import language_choices, say, strings
from adjudicator.problems import Problem
from adjudicator.web.errors import ApiError


def page(
    template: str,
    status: int = 200,
    *,
    switch: str | None = None,
    switch_args: dict[str, str] | None = None,
    **context: Any,
) -> Response:
    """`template` in the visitor's language (`t`, `lang`, `languages`), and its switch leading
    to the endpoint `switch` with `switch_args` in the chosen language. Without `switch` the
    switch is a relative `?lang=` (the judge's pages); that would not do for a page answering a
    form's POST (the pairing code, an error), which stands at a URL that takes POST only."""
    lang = request_language()
    language = {
        "t": strings(lang),
        "lang": lang,
        "languages": language_choices(),
        "keep": kept_language(),
    }
    if switch is not None:
        language["switch_href"] = lambda code: url_for(switch, **(switch_args or {}), lang=code)
    return make_response(render_template(template, **language | context), status)


# What a director (or a judge pairing a tablet) can do about the errors these pages meet; any
# other error is named by its status, with its problem code and field beneath (codes, never the
# service's English detail: the page speaks the visitor's language only).
ERROR_SAYINGS = {
    Problem.STORE_UNAVAILABLE: "dir_error_store",
    Problem.CSRF_FAILED: "dir_error_csrf",
    Problem.INTERNAL_ERROR: "dir_error_failed",
    Problem.NOT_FOUND: "dir_error_not_found",
    Problem.METHOD_NOT_ALLOWED: "dir_error_method",
    Problem.LABEL_DISALLOWED_CHARACTER: "dir_error_label_character",  # the rulings search
}


PAIRING_ENDPOINTS = frozenset({"auth.pair_form", "auth.pair"})


def error_page(exc: ApiError) -> Response:
    """`exc` as a page in the visitor's language, leading back to where they came from."""
    key = ERROR_SAYINGS.get(exc.code)
    back, label = (
        ("auth.pair_form", "dir_error_back_pair")
        if request.endpoint in PAIRING_ENDPOINTS
        else ("auth.home", "dir_error_back")
    )
    return page(  # its status and headers: errors.respond
        "error_page.html",
        switch=back,
        heading=say("dir_error_heading"),
        message=say(key, **exc.extra) if key else say("dir_error_other", status=str(exc.status)),
        refused=exc.status,
        code=None if key else exc.code,
        field=None if key else exc.field,
        back=url_for(back, **kept_language()),
        back_label=say(label),
    )
