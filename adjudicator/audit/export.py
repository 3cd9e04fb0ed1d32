"""The audit log as JSON, entry by entry in chain order, for the director after the event: it
keeps every hashed column exactly, and its hash, so it can be checked against the chain
(`adjudicator audit verify` checks the database itself). The spreadsheet forms (CSV, xlsx) are
`sheet`'s; the cell defusing below is theirs too.

Every row is written, those outside the chain too; a value the schema does not allow (tampering)
is written as stored, and `noting` collects a line naming its row for the caller to report."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any, TextIO

import orjson

from adjudicator.audit.chain import COLUMNS, Stored, describe, timestamp

# A cell a spreadsheet would read as a formula (a player's name typed as `=HYPERLINK(...)` on a
# tablet runs when the director opens the file): such text gets a leading apostrophe, which
# spreadsheets take as "this is text" (OWASP, CSV injection). Spreadsheets fold compatibility
# forms too (a fullwidth `＝` from a Japanese keyboard starts a formula), so what counts is the
# first character's NFKC form: `＝ ＋ － ＠ ﹦ ⁼ ₊ …`, every one Unicode folds to these
# (`formula_like`). The JSON export stays exact.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"


def exported(row: Mapping[str, Any]) -> dict[str, Any]:
    item = {name: row[name] for name in COLUMNS}
    if isinstance(row["created_at"], datetime):  # else as stored: a fault `noting` reports
        item["created_at"] = timestamp(row["created_at"])
    return item


def noting(found: Iterable[Stored], faults: list[str]) -> Iterator[dict[str, Any]]:
    """Each row's values, in order; a line in `faults` for each value not of its column's kind."""
    for each in found:
        faults.extend(f"{describe(each.row)}: {fault}" for fault in each.faults)
        yield each.row


def write_json(rows: Iterable[Mapping[str, Any]], out: TextIO) -> int:
    """A JSON array, one entry per line; the number of entries."""
    count = 0
    out.write("[")
    for count, row in enumerate(rows, start=1):
        out.write(",\n" if count > 1 else "\n")
        out.write(orjson.dumps(exported(row)).decode())
    out.write("\n]\n" if count else "]\n")
    return count


def formula_like(value: str) -> bool:
    """Whether a spreadsheet may read `value` as a formula: its first character, in its NFKC
    form (alone: a mark after it must not hide it), starts with one of `FORMULA_STARTS`."""
    return unicodedata.normalize("NFKC", value[:1]).startswith(FORMULA_STARTS)


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) and formula_like(value):
        return "'" + value
    return value
