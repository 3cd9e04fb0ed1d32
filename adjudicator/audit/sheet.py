"""The rulings as a spreadsheet, for the director after a round or the event: the rulings page's
download and `adjudicator audit export --format csv|xlsx`.

Written for a spreadsheet in the director's language and locale: the column headings, kinds,
verdicts, words' verdicts and consequences in that language (`reading`); each time on the
event's clock (`ADJUDICATOR_TIME_ZONE`) with its offset from UTC beside it; the event and the
table filled (a paired tablet's name where the request named no table). The CSV has a UTF-8
BOM (without it Excel reads the locale's code page) and the delimiter the locale's spreadsheet
splits at: a semicolon where CLDR's decimal sign is a comma (Danish, Swedish, Dutch), else a
comma. Its text cells are defused as the export always has (`_cell`: a label typed as a
formula stays text). The xlsx has a real date-time cell for the time, and no formulas: every
text is written as a string.

The JSON export (`export.write_json`) stays the exact record, for checking against the chain.
"""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Iterable, Mapping
from datetime import tzinfo
from functools import cache
from typing import Any, BinaryIO, TextIO

from babel.numbers import get_decimal_symbol

from adjudicator.audit.reading import (
    caller_text,
    consequence_text,
    kind_text,
    shown_table,
    verdict_text,
    words_text,
)
from adjudicator.pages.strings import strings
from adjudicator.pages.times import LOCALES, local, utc_offset

FORMATS = ("csv", "xlsx")
MEDIA_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
# The columns, in order; each heading is `export_col_<name>` in the language's catalogue.
COLUMNS = (
    "seq",
    "time",
    "utc_offset",
    "event",
    "round",
    "table",
    "game",
    "player",
    "kind",
    "ruleset",
    "words",
    "play",
    "verdict",
    "consequence",
    "asked_by",
    "ruling_id",
    "lexicon",
    "lexicon_edition",
    "lexicon_in_force_from",
    "lexicon_sha256",
    "hash",
)
# The columns that are the entry's values as they are; the rest are read (`reading`) or split.
AS_STORED = ("seq", "event", "round", "game", "player", "ruleset", "play", "ruling_id", "hash")
# A cell a spreadsheet would read as a formula (a player's name typed as `=HYPERLINK(...)` on a
# tablet runs when the director opens the file): such text gets a leading apostrophe, which
# spreadsheets take as "this is text" (OWASP, CSV injection). Spreadsheets fold compatibility
# forms too (a fullwidth `＝` from a Japanese keyboard starts a formula), so what counts is the
# first character's NFKC form (alone: a mark after it must not hide it): `＝ ＋ － ＠ ﹦ ⁼ ₊ …`,
# every one Unicode folds to these. The JSON export stays exact.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"
TIME_TEXT = "%Y-%m-%d %H:%M:%S"  # ISO 8601's order: every locale's spreadsheet reads it as a time
XLSX_TIME = "yyyy-mm-dd hh:mm:ss"


@cache
def delimiter(lang: str) -> str:
    """The field delimiter `lang`'s spreadsheets expect in a CSV file: `;` where the locale's
    decimal sign is a comma (CLDR, through Babel), since a comma there is part of a number."""
    return ";" if get_decimal_symbol(LOCALES[lang]) == "," else ","


def headings(lang: str) -> list[str]:
    t = strings(lang)
    return [t[f"export_col_{name}"] for name in COLUMNS]


def row(item: Mapping[str, Any], lang: str, zone: tzinfo | None) -> dict[str, Any]:
    """One entry (`search.item`) as the sheet's cells, in `lang`: the time a naive datetime on
    the event's clock (a stored text that is no time is kept as it is, its offset empty)."""
    t = strings(lang)
    when = local(item["created_at"], zone)
    lexicon = item["lexicon"] if isinstance(item["lexicon"], Mapping) else {}
    return {name: item[name] for name in AS_STORED} | {
        "time": item["created_at"] if when is None else when.replace(tzinfo=None, microsecond=0),
        "utc_offset": None if when is None else utc_offset(when),
        "table": shown_table(item),
        "kind": kind_text(item["kind"], t),
        "words": words_text(item["words"], t),
        "verdict": verdict_text(item["verdict"], t),
        "consequence": consequence_text(item["consequence"], lang, t),
        "asked_by": caller_text(item["caller"], t),
        "lexicon": lexicon.get("id"),
        "lexicon_edition": lexicon.get("version"),
        "lexicon_in_force_from": lexicon.get("in_force_from"),
        "lexicon_sha256": lexicon.get("sha256"),
    }


def formula_like(value: str) -> bool:
    """Whether a spreadsheet may read `value` as a formula (`FORMULA_STARTS`)."""
    return unicodedata.normalize("NFKC", value[:1]).startswith(FORMULA_STARTS)


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) and formula_like(value):
        return "'" + value
    return value


def write_csv(items: Iterable[Mapping[str, Any]], out: TextIO, lang: str, zone: tzinfo | None):
    """The entries as CSV for a spreadsheet in `lang`'s locale; the number written."""
    out.write(BOM)
    writer = csv.writer(out, delimiter=delimiter(lang), lineterminator="\r\n")
    writer.writerow(headings(lang))
    count = 0
    for item in items:
        cells = row(item, lang, zone)
        if not isinstance(cells["time"], str):
            cells["time"] = cells["time"].strftime(TIME_TEXT)
        writer.writerow(_cell(cells[name]) for name in COLUMNS)
        count += 1
    return count


def write_xlsx(
    items: Iterable[Mapping[str, Any]], out: BinaryIO, lang: str, zone: tzinfo | None
) -> int:
    """The entries as an Excel workbook (one sheet, headings frozen, filters on); the number
    written. Texts are strings, never formulas, whatever they start with."""
    import xlsxwriter  # only a spreadsheet download needs it

    book = xlsxwriter.Workbook(
        out,
        {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False},
    )
    sheet = book.add_worksheet(strings(lang)["dir_rulings_title"][:31])
    bold = book.add_format({"bold": True})
    clock = book.add_format({"num_format": XLSX_TIME})
    sheet.write_row(0, 0, headings(lang), bold)
    count = 0
    for count, item in enumerate(items, start=1):
        cells = row(item, lang, zone)
        for col, name in enumerate(COLUMNS):
            value = cells[name]
            if value is None:
                continue
            if name == "time" and not isinstance(value, str):
                sheet.write_datetime(count, col, value, clock)
            elif isinstance(value, int) and not isinstance(value, bool):
                sheet.write_number(count, col, value)
            else:
                sheet.write_string(count, col, str(value))
    sheet.freeze_panes(1, 0)
    sheet.autofilter(0, 0, max(count, 1), len(COLUMNS) - 1)
    sheet.set_column(COLUMNS.index("time"), COLUMNS.index("time"), 20)
    book.close()
    return count
