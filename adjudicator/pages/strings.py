"""The pages' strings: the i18n files (`adjudicator/i18n/<lang>.json`, the kiosk's and the
directors' pages' alike), read once per language, and `fill` for their `{name}`s.

A string that holds a count is an object of CLDR plural forms and the name of its count:
`{"count": "n", "one": "{n} point", "other": "{n} points"}`. `fill` picks the form by the
language's CLDR plural rule (Babel); the tablet's script picks it the same way with the
browser's `Intl.PluralRules` (static/judge/config.js), from the same forms.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from markupsafe import Markup, escape

from adjudicator.messages import COUNT, catalogue, filled, form
from adjudicator.pages.page_language import LANGUAGES, request_language


class Plural(dict):
    """A catalogue entry with plural forms (a dict, so it goes to the kiosk's JSON as written),
    knowing its language: `form(n)` is the form a count of `n` takes there."""

    def __init__(self, language: str, forms: dict[str, str]):
        super().__init__(forms)
        self.language = language

    def form(self, n: object) -> str:
        return form(self.language, self, n)


@cache
def strings(language: str) -> dict[str, Any]:
    """The language's catalogue: each key's text, or its plural forms (`Plural`)."""
    return {
        key: Plural(language, value) if isinstance(value, dict) else value
        for key, value in catalogue(language).items()
    }


def language_choices() -> list[tuple[str, str]]:
    """The language switch's entries: each code with its name in that language."""
    return [(code, strings(code)["language_name"]) for code in LANGUAGES]


def chosen(text: str | Plural, values: dict[str, object]) -> str:
    """`text` itself, or the form of a plural entry its count in `values` takes."""
    return text.form(values.get(text[COUNT])) if isinstance(text, Plural) else text


def fill(text: str | Plural, **values: object) -> str:
    """A string of the i18n files with its `{name}`s filled in one pass, so that a value which
    itself holds braces (a tablet named "{s}") is never filled again; a plural entry in the
    form its count takes."""
    return filled(chosen(text, values), values)


def fill_markup(text: str | Plural, **values: object) -> Markup:
    """`fill` for a template: the text and plain values escaped, Markup values (a `<code>` the
    template built) kept, so markup never has to live in the i18n files."""
    escaped = {name: escape(value) for name, value in values.items()}
    return Markup(filled(str(escape(chosen(text, values))), escaped))


def say(key: str, **values: object) -> str:
    """A message these pages show, in the visitor's language."""
    return fill(strings(request_language())[key], **values)


def wait_text(language: str, seconds: int) -> str:
    """How long to wait, as a person reads it: whole minutes (rounded up) from a minute on,
    seconds below it ("15 minutes", never "900 seconds")."""
    t = strings(language)
    if seconds >= 60:
        return fill(t["unit_minutes"], n=math.ceil(seconds / 60))
    return fill(t["unit_seconds"], n=max(1, seconds))
