"""The pages' strings: the i18n files (`adjudicator/i18n/<lang>.json`, the kiosk's and the
directors' pages' alike), read once per language, and `fill` for their `{name}`s.

A string that holds a count is an object of CLDR plural forms and the name of its count:
`{"count": "n", "one": "{n} point", "other": "{n} points"}`. `fill` picks the form by the
language's CLDR plural rule (Babel); the tablet's script picks it the same way with the
browser's `Intl.PluralRules` (static/judge/config.js), from the same forms.
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from importlib import resources
from typing import Any

from babel import Locale
from markupsafe import Markup, escape

from adjudicator.pages.page_language import LANGUAGES, request_language

COUNT = "count"  # a plural entry's key naming its count's placeholder


class Plural(dict):
    """A catalogue entry with plural forms (a dict, so it goes to the kiosk's JSON as written),
    knowing its language: `form(n)` is the form a count of `n` takes there."""

    def __init__(self, language: str, forms: dict[str, str]):
        super().__init__(forms)
        self.language = language

    @property
    def count(self) -> str:
        return self[COUNT]

    def form(self, n: object) -> str:
        """The form for a count of `n` (a number, or its digits as a header gives them)."""
        if isinstance(n, str) and n.isdigit():
            n = int(n)
        category = plural_category(self.language, n) if isinstance(n, int) else "other"
        return self.get(category, self["other"])


@cache
def plural_category(language: str, n: int) -> str:
    """CLDR's plural category of `n` in `language` (`one`, `other`, ...), as Babel has it."""
    return Locale.parse(language).plural_form(n)


def plural_categories(language: str) -> frozenset[str]:
    """The categories a plural entry of `language` gives a form for: CLDR's, and `other`."""
    return frozenset(Locale.parse(language).plural_form.tags | {"other"})


@cache
def strings(language: str) -> dict[str, Any]:
    """The language's catalogue: each key's text, or its plural forms (`Plural`)."""
    path = resources.files("adjudicator") / "i18n" / f"{language}.json"
    entries = json.loads(path.read_text("utf-8"))
    return {
        key: Plural(language, value) if isinstance(value, dict) else value
        for key, value in entries.items()
    }


def language_choices() -> list[tuple[str, str]]:
    """The language switch's entries: each code with its name in that language."""
    return [(code, strings(code)["language_name"]) for code in LANGUAGES]


PLACEHOLDER = re.compile(r"\{(\w+)\}")


def chosen(text: str | Plural, values: dict[str, object]) -> str:
    """`text` itself, or the form of a plural entry its count in `values` takes."""
    return text.form(values.get(text.count)) if isinstance(text, Plural) else text


def fill(text: str | Plural, **values: object) -> str:
    """A string of the i18n files with its `{name}`s filled in one pass, so that a value which
    itself holds braces (a tablet named "{s}") is never filled again; a plural entry in the
    form its count takes."""
    text = chosen(text, values)
    return PLACEHOLDER.sub(lambda m: str(values[m[1]]) if m[1] in values else m[0], text)


def fill_markup(text: str | Plural, **values: object) -> Markup:
    """`fill` for a template: the text and plain values escaped, Markup values (a `<code>` the
    template built) kept, so markup never has to live in the i18n files."""
    text = chosen(text, values)
    return Markup(
        PLACEHOLDER.sub(
            lambda m: str(escape(values[m[1]])) if m[1] in values else m[0], str(escape(text))
        )
    )


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
