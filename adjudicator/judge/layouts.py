"""On-screen keyboards: the QWERTY layout players of each language know, and A–Z.

Which keys a language gets is its declaration's (`lexicon_sources/languages/<code>.toml`): every
letter of its alphabet (its tiles and blank-only letters), then the letters its words are
written with that have no tile (`keys`: Dutch Ĳ, É and Ë; Danish and Swedish É), which the
service folds (IDÉ → IDE). Only where the national keyboard puts a letter is kept here: a
letter it has no key for goes at the end of the bottom row, as do the `keys`.

`check_layouts` proves at start-up that each layout has every letter of the language's alphabet
exactly once and nothing the server's normaliser would refuse, so a key can never type a
character the service rejects.
"""

from __future__ import annotations

from collections.abc import Callable

from lexicon.languages import LanguageProfile

QWERTY = ("QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM")

# Where each language's national keyboard puts the letters it has keys for; the rest of the
# alphabet (Swedish Ü, Æ) and the declared `keys` follow on the bottom row.
NATIONAL = {
    "da": ("QWERTYUIOPÅ", "ASDFGHJKLÆØ", "ZXCVBNM"),
    "sv": ("QWERTYUIOPÅ", "ASDFGHJKLÖÄ", "ZXCVBNM"),
}


def key_letters(profile: LanguageProfile, accepted: Callable[[str], bool]) -> str:
    """The letters beyond the alphabet that get a key: the declaration's `keys`, those the
    service's query check takes (a lexicon compiled with another profile may fold fewer)."""
    return "".join(c for c in profile.keys if c not in profile.alphabet and accepted(c))


def national(language: str, alphabet: str, extra: str) -> tuple[str, ...]:
    """The national rows, then on the bottom row every letter they lack and the extra keys."""
    rows = NATIONAL.get(language, QWERTY)
    placed = "".join(rows)
    rest = "".join(c for c in alphabet if c not in placed) + extra
    return (*rows[:-1], rows[-1] + rest)


def alphabetical(alphabet: str, extra: str) -> tuple[str, ...]:
    """The alphabet in order (plus the extra keys), in three rows as even as can be."""
    letters = alphabet + extra
    per_row = -(-len(letters) // 3)
    return tuple(letters[i : i + per_row] for i in range(0, len(letters), per_row))


def check_layouts(
    language: str, alphabet: str, accepted: Callable[[str], bool], extra: str = ""
) -> list[dict]:
    """The page's layouts, the national one first (the default); or ValueError naming the
    language, layout and letter at fault."""
    found = [
        {"id": "qwerty", "rows": [list(r) for r in national(language, alphabet, extra)]},
        {"id": "abc", "rows": [list(r) for r in alphabetical(alphabet, extra)]},
    ]
    for layout in found:
        keys = [k for row in layout["rows"] for k in row]
        missing = [c for c in alphabet if c not in keys]
        doubled = {k for k in keys if keys.count(k) > 1}
        refused = [k for k in keys if not accepted(k)]
        for what, letters in (("lacks", missing), ("repeats", doubled), ("refuses", refused)):
            if letters:
                raise ValueError(
                    f"keyboard {layout['id']!r} for {language!r} {what} {''.join(sorted(letters))}"
                )
    return found
