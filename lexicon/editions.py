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
from pathlib import Path
from typing import NamedTuple, TypeVar

from lexicon.artifact import (
    IN_FORCE_FROM,
    Lexicon,
    in_force_date,
    read_manifest,
    resolve_manifest,
)

ALWAYS = date.min  # the date of an edition that names none


E = TypeVar("E", "Installed", Lexicon)  # an edition: a manifest read, or a build loaded


class Installed(NamedTuple):
    """An edition as its manifest names it: enough to choose one (a command line loads only
    the edition it chose, not every trie of the list)."""

    manifest: Path
    id: str
    in_force_from: date | None

    @classmethod
    def read(cls, path: Path | str) -> Installed:
        manifest = resolve_manifest(path)  # a build named by its .json or its .marisa
        found = read_manifest(manifest)
        return cls(manifest, found["id"], in_force_date(found.get(IN_FORCE_FROM)))


def since(lexicon: Installed | Lexicon) -> date:
    """The day `lexicon` is in force from (`ALWAYS` for a build without a date)."""
    return lexicon.in_force_from or ALWAYS


def in_force(editions: Sequence[E], day: date) -> E | None:
    """The edition in force on `day`: the latest date not after it (ties: the one listed
    last); None when every edition's date is still to come."""
    # reversed: of editions with the same date, max keeps the first it meets, the one listed last
    return max((e for e in reversed(editions) if since(e) <= day), key=since, default=None)


def previous(editions: Sequence[Lexicon], current: Lexicon) -> Lexicon | None:
    """The edition in force before `current` took over: the latest dated before it; None when
    `current` is the oldest."""
    earlier = [e for e in editions if since(e) < since(current)]
    return in_force(earlier, since(current))
