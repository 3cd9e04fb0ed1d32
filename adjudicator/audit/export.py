"""The audit log as CSV or JSON, entry by entry in chain order, for the director after the
event. The JSON keeps every hashed column exactly, and its hash, so it can be checked against
the chain (`adjudicator audit verify` checks the database itself). The CSV is for reading in a
spreadsheet: a UTF-8 BOM (without it Excel reads the locale's code page), the delimiter the
director's locale expects, the words as text in the director's language.

Every row is written, those outside the chain too; a value the schema does not allow (tampering)
is written as stored, and `noting` collects a line naming its row for the caller to report."""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any, TextIO

import orjson

from adjudicator.audit.chain import COLUMNS, Stored, describe, timestamp

JSON_COLUMNS = ("words", "consequence")  # JSON in the JSON export; in the CSV, consequence
# A cell a spreadsheet would read as a formula (a player's name typed as `=HYPERLINK(...)` on a
# tablet runs when the director opens the file): such text gets a leading apostrophe, which
# spreadsheets take as "this is text" (OWASP, CSV injection). Spreadsheets fold compatibility
# forms too (a fullwidth `＝` from a Japanese keyboard starts a formula), so what counts is the
# first character's NFKC form: `＝ ＋ － ＠ ﹦ ⁼ ₊ …`, every one Unicode folds to these
# (`formula_like`). The JSON export stays exact.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Where the decimal separator is a comma, spreadsheets split CSV fields at semicolons.
DELIMITERS = {"da": ";", "nl": ";", "sv": ";", "en": ","}
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
    for row in rows:
        out.write(",\n" if count else "\n")
        out.write(orjson.dumps(exported(row)).decode())
        count += 1
    out.write("\n]\n" if count else "]\n")
    return count


def words_text(words: Any, strings: Mapping[str, str]) -> Any:
    """The words as a director reads them: `BLÅBÆR (valid), QZX (invalid)`, the verdict in the
    export's language where the ruling told it (not under the `play` policy); a value of another
    shape (written around the service) as stored."""
    if not isinstance(words, list) or not all(
        isinstance(w, dict) and isinstance(w.get("word"), str) for w in words
    ):
        return words if words is None or isinstance(words, str) else orjson.dumps(words).decode()
    shown = []
    for w in words:
        valid = w.get("valid")
        verdict = (
            "" if valid is None else f" ({strings['word_valid' if valid else 'word_invalid']})"
        )
        shown.append(w["word"] + verdict)
    return ", ".join(shown)


def write_csv(rows: Iterable[Mapping[str, Any]], out: TextIO, lang: str = "en") -> int:
    """One row per entry, for a spreadsheet in `lang`'s locale (`DELIMITERS`), with a BOM; the
    words as text, `consequence` as JSON text, formulas defused."""
    from adjudicator.pages.strings import strings  # the kiosk's words for valid and invalid

    out.write(BOM)
    writer = csv.writer(out, delimiter=DELIMITERS[lang], lineterminator="\r\n")
    writer.writerow(COLUMNS)
    count = 0
    for row in rows:
        item = exported(row)
        item["words"] = words_text(item["words"], strings(lang))
        for name in JSON_COLUMNS[1:]:
            item[name] = "" if item[name] is None else orjson.dumps(item[name]).decode()
        writer.writerow(_cell(item[name]) for name in COLUMNS)
        count += 1
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
