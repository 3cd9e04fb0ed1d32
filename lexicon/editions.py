"""Editions with a date: which of a list's builds is in force on a given day.

A word list comes in editions (Retskrivningsordbogen plus Dansk Sprognævn's yearly update, 000
§2.1; SAOL and its supplement, 002; "de geldende uitgaven", 003). Each build may name the date it
is in force from (`in_force_from` in its manifest); one without a date is in force since always.
On a day, the edition in force is the one with the latest date not after it; two with the same
date: the one listed last. An edition whose date has not come is installed but not used. The
service (`adjudicator.catalogue`) and `lexicon diff --in-force-among` both choose with this one
rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from lexicon.artifact import Lexicon

ALWAYS = date.min  # the date of an edition that names none


def since(lexicon: Lexicon) -> date:
    """The day `lexicon` is in force from (`ALWAYS` for a build without a date)."""
    return lexicon.in_force_from or ALWAYS


def in_force(editions: Sequence[Lexicon], day: date) -> Lexicon | None:
    """The edition in force on `day`: the latest date not after it (ties: the one listed
    last); None when every edition's date is still to come."""
    chosen = None
    for edition in editions:
        if since(edition) <= day and (chosen is None or since(edition) >= since(chosen)):
            chosen = edition
    return chosen


def previous(editions: Sequence[Lexicon], current: Lexicon) -> Lexicon | None:
    """The edition in force before `current` took over: the latest dated before it; None when
    `current` is the oldest."""
    earlier = [e for e in editions if e is not current and since(e) < since(current)]
    if not earlier:
        return None
    return in_force(earlier, since(current))


def upcoming(editions: Sequence[Lexicon], day: date) -> list[Lexicon]:
    """The editions installed whose date is still to come on `day`, soonest first."""
    return sorted((e for e in editions if since(e) > day), key=since)
