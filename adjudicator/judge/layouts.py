"""On-screen keyboards: the QWERTY layout players of each language know, and A–Z.

Rows are data; `check_layouts` proves at start-up that each layout has every letter of the
language's alphabet exactly once and nothing the server's normaliser would refuse, so a key can
never type a character the service rejects.
"""

from __future__ import annotations

from collections.abc import Callable

QWERTY = ("QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM")

# The letters each language's national keyboard puts on keys of their own, where it puts them;
# letters the alphabet has but the keyboard does not (Swedish Ü, Æ) and É (a key in the old
# layout: IDÉ, ALLÉ) go at the end of the bottom row.
NATIONAL = {
    "da": ("QWERTYUIOPÅ", "ASDFGHJKLÆØ", "ZXCVBNMÉ"),
    "sv": ("QWERTYUIOPÅ", "ASDFGHJKLÖÄ", "ZXCVBNMÉÜÆ"),
    "nl": QWERTY,
    "en": QWERTY,
}
# Letters that are not tiles but appear in the language's words and are worth a key of their
# own (they fold to a tile letter on the server: IDÉ → IDE).
EXTRA_KEYS = {"da": "É", "sv": "É"}


def alphabetical(alphabet: str, language: str) -> tuple[str, ...]:
    """The alphabet in order (plus the extra keys), in three rows as even as can be."""
    letters = alphabet + "".join(c for c in EXTRA_KEYS.get(language, "") if c not in alphabet)
    per_row = -(-len(letters) // 3)
    return tuple(letters[i : i + per_row] for i in range(0, len(letters), per_row))


def layouts(language: str, alphabet: str) -> list[dict]:
    """The page's layouts, the national one first (the default)."""
    return [
        {"id": "qwerty", "rows": [list(r) for r in NATIONAL.get(language, QWERTY)]},
        {"id": "abc", "rows": [list(r) for r in alphabetical(alphabet, language)]},
    ]


def check_layouts(language: str, alphabet: str, accepted: Callable[[str], bool]) -> list[dict]:
    """The layouts, or ValueError naming the language, layout and letter at fault."""
    found = layouts(language, alphabet)
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
