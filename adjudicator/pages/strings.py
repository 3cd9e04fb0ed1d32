"""The pages' strings: the i18n files (`adjudicator/i18n/<lang>.json`, the kiosk's and the
directors' pages' alike), read once per language, and `fill` for their `{name}`s."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from markupsafe import Markup, escape

from adjudicator.pages.page_language import LANGUAGES, request_language


@cache
def strings(language: str) -> dict[str, str]:
    path = resources.files("adjudicator") / "i18n" / f"{language}.json"
    return json.loads(path.read_text("utf-8"))


def language_choices() -> list[tuple[str, str]]:
    """The language switch's entries: each code with its name in that language."""
    return [(code, strings(code)["language_name"]) for code in LANGUAGES]


PLACEHOLDER = re.compile(r"\{(\w+)\}")


def fill(text: str, **values: object) -> str:
    """A string of the i18n files with its `{name}`s filled in one pass, so that a value which
    itself holds braces (a tablet named "{s}") is never filled again."""
    return PLACEHOLDER.sub(lambda m: str(values[m[1]]) if m[1] in values else m[0], text)


def fill_markup(text: str, **values: object) -> Markup:
    """`fill` for a template: the text and plain values escaped, Markup values (a `<code>` the
    template built) kept, so markup never has to live in the i18n files."""
    return Markup(
        PLACEHOLDER.sub(
            lambda m: str(escape(values[m[1]])) if m[1] in values else m[0], str(escape(text))
        )
    )


def say(key: str, **values: object) -> str:
    """A message these pages show, in the visitor's language."""
    return fill(strings(request_language())[key], **values)
