"""The sections of the five source documents, declared once inside the project.

The documents themselves are not part of the repository; docs/rules.md §1.1 lists them by
number with their headings, and DSF 2015 (000) numbers its sections with lettered paragraphs.
A test checks every citation in the ruleset and language-profile files against this table, so
that a `source` can only name a section the document has.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# 000: DSF 2015, section number → its lettered paragraphs ("" for a heading with none).
DSF_2015: dict[str, str] = {
    "1": "a",
    "2": "",
    "2.1": "a",
    "2.2": "ab",
    "2.3": "abcd",
    "2.4": "a",
    "3": "",
    "3.1": "a",
    "3.2": "ab",
    "3.3": "abcd",
    "4": "",
    "4.1": "a",
    "4.2": "abc",
    "4.3": "ab",
    "4.4": "abc",
    "4.4.1": "abc",
    "4.5": "a",
    "4.5.1": "abcdef",
    "4.5.2": "a",
    "4.5.3": "a",
    "4.6": "abcdef",
    "4.7": "abc",
    "4.8": "abc",
    "5": "abc",
    "5.1": "ab",
}

# The others are cited by heading (docs/rules.md §1.1); 001 has none and is cited whole.
HEADINGS: dict[str, tuple[str, ...]] = {
    "001": (),
    "002": (
        "Grunder för dessa regler",
        "Att lägga hela ord",
        "Särskilda tävlingsregler",
        "Godkända ord",
        "Tilläggslistan",
    ),
    "003": (
        "Algemeen",
        "Begin van het spel",
        "Verloop van het spel",
        "Strafpuntenregel",
        "Ruilregel",
        "Puntentelling",
        "Einde van het spel",
    ),
    "004": (
        "Oversigt",
        "Forberedelse",
        "Sådan spiller man",
        "Pointgivning",
        "Spillets afslutning",
        "Almindelige varianter",
    ),
}
DOCUMENTS = {"000", *HEADINGS}

_NUMBER = re.compile(r"(?<![\w.§])(00\d)(?![\w.])")
_SECTION = re.compile(r"\s*§(\d+(?:\.\d+)*)([a-z](?:[-–][a-z])?)?")
_MORE = re.compile(r",\s*§(\d+(?:\.\d+)*)([a-z](?:[-–][a-z])?)?")
_CAPITAL = re.compile(r" +(?=[A-ZÅÄÖÆØ])")
_END = re.compile(r"[;,:()\"\n]")  # where a heading cited after a number ends


def citations(text: str) -> Iterator[tuple[str, str]]:
    """(document, what is cited after it) for each `00N` citation in `text`; the second is ""
    for a citation of the whole document."""
    for found in _NUMBER.finditer(text):
        number, rest = found.group(1), text[found.end() :]
        section = _SECTION.match(rest)
        if section:
            yield number, "§" + section.group(1) + (section.group(2) or "")
            rest = rest[section.end() :]
            while more := _MORE.match(rest):
                yield number, "§" + more.group(1) + (more.group(2) or "")
                rest = rest[more.end() :]
        elif heading := _CAPITAL.match(rest):
            yield number, _END.split(rest[heading.end() :], maxsplit=1)[0].strip()
        else:
            yield number, ""


def problem(number: str, cited: str) -> str | None:
    """Why a citation names no section of its document; None when it does."""
    if number not in DOCUMENTS:
        return f"{number} is not a source document"
    if not cited:
        return None
    if cited.startswith("§"):
        if number != "000":
            return f"{number} has no numbered sections"
        match = re.fullmatch(r"§(\d+(?:\.\d+)*)([a-z])?(?:[-–]([a-z]))?", cited)
        assert match, cited
        paragraphs = DSF_2015.get(match.group(1))
        if paragraphs is None:
            return f"000 has no section {match.group(1)}"
        letters = [x for x in match.group(2, 3) if x]
        if any(x not in paragraphs for x in letters):
            return f"000 §{match.group(1)} has paragraphs {paragraphs or 'none'}, not {cited}"
        return None
    if not any(
        cited == h or (cited.startswith(h) and not cited[len(h)].isalnum())
        for h in HEADINGS[number]
    ):
        return f"{number} has no heading that begins {cited[:30]!r}"
    return None
