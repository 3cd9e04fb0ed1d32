"""The audit log as JSON, entry by entry in chain order, for the director after the event: it
keeps every hashed column exactly, and its hash, so it can be checked against the chain
(`adjudicator audit verify` checks the database itself). The spreadsheet forms (CSV, xlsx) are
`sheet`'s.

Every row is written, those outside the chain too; a value the schema does not allow (tampering)
is written as stored, and `noting` collects a line naming its row for the caller to report."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any, TextIO

import orjson

from adjudicator.audit.chain import COLUMNS, Stored, describe, timestamp


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
