"""The catalogue's texts by language (`adjudicator/i18n/<lang>.json`), and a sentence the
domain says kept as its key and values (`Said`), so that it is English where it is read as
text (the API's JSON, the command line's report) and the page's language on a page.

A text with a count is an object of CLDR plural forms naming its count,
`{"count": "n", "one": "{n} point", "other": "{n} points"}`: the form is picked by the
language's CLDR plural rule (Babel). A foundation, so that the game rules can say a sentence
without knowing pages; `adjudicator.pages.strings` builds the pages' strings on it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache, partial, reduce
from importlib import resources
from typing import Any

from babel import Locale

COUNT = "count"  # a plural entry's key naming its count's placeholder
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def catalogue(language: str) -> dict[str, Any]:
    """The language's catalogue as written: each key's text, or its plural forms."""
    path = resources.files("adjudicator") / "i18n" / f"{language}.json"
    return json.loads(path.read_text("utf-8"))


@cache
def plural_category(language: str, n: int) -> str:
    """CLDR's plural category of `n` in `language` (`one`, `other`, ...), as Babel has it."""
    return Locale.parse(language).plural_form(n)


def form(language: str, forms: dict[str, str], n: object) -> str:
    """The plural form a count of `n` takes in `language` (a number, or its digits as a
    header gives them; anything else takes `other`)."""
    if isinstance(n, str) and n.isdigit():
        n = int(n)
    category = plural_category(language, n) if isinstance(n, int) else "other"
    return forms.get(category, forms["other"])


def filled(text: str, values: dict[str, object]) -> str:
    """`text` with its `{name}`s filled in one pass, so that a value which itself holds braces
    (a tablet named "{s}") is never filled again."""
    return PLACEHOLDER.sub(lambda m: str(values[m[1]]) if m[1] in values else m[0], text)


class Said(str):
    """A sentence of the catalogue: a str in English, carrying its `key` and `values` so that a
    page can say it in its own language (`said_in`). A value may itself be `Said`."""

    key: str
    values: dict[str, object]

    def __new__(cls, key: str, **values: object) -> Said:
        self = super().__new__(cls, say_in("en", key, values))
        self.key, self.values = key, values
        return self

    def __reduce__(self):  # copies and pickles keep the key and values
        return (partial(Said, self.key, **self.values), ())


def joined(key: str, items: Iterable[object]) -> object:
    """`items` said as one sentence, pairwise by the catalogue's `key` (`{a} and {b}`); one
    item is itself."""
    return reduce(lambda a, b: Said(key, a=a, b=b), items)


class Texts(dict):
    """A ruleset's own words by language (`{"da": ..., "en": ...}`), quoted in a sentence: a
    sentence quoting them under `{name}` has a form `<key>_without_<name>` for a language the
    ruleset does not give, so that no page quotes another language's words."""


def say_in(language: str, key: str, values: dict[str, object]) -> str:
    """The catalogue's `key` in `language`, its values filled (a `Said` value in that language
    too), in the form its count takes when it has plural forms."""
    for name, value in values.items():
        if isinstance(value, Texts) and language not in value:
            key = f"{key}_without_{name}"
    values = {
        k: v[language] if isinstance(v, Texts) and language in v else said_in(language, v)
        for k, v in values.items()
    }
    entry = catalogue(language)[key]
    if isinstance(entry, dict):
        entry = form(language, entry, values.get(entry[COUNT]))
    return filled(entry, values)


def said_in(language: str, text: object) -> Any:
    """`text` in `language` when it is `Said`; anything else as it is."""
    return say_in(language, text.key, text.values) if isinstance(text, Said) else text
