"""Finding rulings in the audit log for a director: newest first, filtered, a page at a time."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Select, or_, select

from adjudicator.audit.chain import LABELS, RAW, RULINGS, Stored, read, stored, stored_time
from adjudicator.audit.labels import refusal
from adjudicator.audit.reading import as_written
from adjudicator.audit.record import KINDS
from adjudicator.disclosure import VERDICTS
from adjudicator.problems import Problem
from adjudicator.rulings import typed_ruling_id
from adjudicator.store import labelforms
from adjudicator.store.labelforms import COLUMNS as LABEL_COLUMNS
from adjudicator.web.errors import ApiError
from adjudicator.web.requests import int_arg

PAGE_MAX = 200
PAGE_DEFAULT = 50
QUERY_MAX = 64
# The search's query parameters, each with its JSON Schema, in the contract's order: declared
# once, for `read_query` and the operation's documentation (`views`).
SCHEMAS: dict[str, dict[str, Any]] = {
    "q": {"type": "string", "maxLength": QUERY_MAX},
    "ruleset": {"type": "string"},
    "kind": {"enum": list(KINDS)},
    "verdict": {"enum": list(VERDICTS)},
    "event": {"type": "string"},
    "before": {"type": "integer", "minimum": 1},
    "limit": {"type": "integer", "minimum": 1, "maximum": PAGE_MAX, "default": PAGE_DEFAULT},
}
PARAMETERS = tuple(SCHEMAS)
EXACT = ("ruleset", "kind", "verdict", "event")  # filters that match a column exactly
CANONICAL = {"event"}  # of those, labels: matched in their compared form (`ruling_labels`)
# The filters with a closed set of values: another value is a mistake, not an empty result.
CHOICES = {name: schema["enum"] for name, schema in SCHEMAS.items() if "enum" in schema}
# Columns a free-text search looks in (case-insensitive substring); and the labels and words, in
# their compared form (the text too, as a name: `ruling_labels`), as the jury count compares.
SEARCHED = ("ruling_id", "caller_name", "play")
SEARCHED_CANONICAL = (*LABEL_COLUMNS, "words")


# An entry's columns a director reads as stored, in the item's order, and those named otherwise.
ITEM_COLUMNS = (*LABEL_COLUMNS, "words", "verdict", "consequence", "play", "hash")
ITEM_NAMES = {"table_label": "table"}
LEXICON = ("id", "sha256", "version", "in_force_from")  # the `lexicon_` columns


@dataclass(frozen=True)
class Query:
    text: str = ""
    exact: tuple[tuple[str, str], ...] = ()
    before: int | None = None  # only entries with seq below this (the next page)
    limit: int = PAGE_DEFAULT


def read_query(args: dict[str, str]) -> Query:
    """The search from query parameters (`PARAMETERS`, each once: `requests.query_args`). An
    empty text filter (`q`, `ruleset`, `event`) filters nothing; an empty `kind`, `verdict` or
    number is refused, as any value outside what the document allows is."""
    text = (args.get("q") or "").strip()
    if len(text) > QUERY_MAX:
        raise ApiError(Problem.OUT_OF_RANGE, f"'q' is at most {QUERY_MAX} characters", "q")
    exact = tuple((name, args[name].strip()) for name in EXACT if (args.get(name) or "").strip())
    for name, choices in CHOICES.items():  # given, even empty, it must be one of them
        if name in args and args[name].strip() not in choices:
            raise ApiError(Problem.OUT_OF_RANGE, f"'{name}' must be {' or '.join(choices)}", name)
    limit = int_arg(args, "limit", 1, PAGE_MAX) or PAGE_DEFAULT
    return Query(text, exact, int_arg(args, "before", 1, 2**62), limit)


def faults(stored: Stored) -> list[str]:
    """Why a row is malformed, for the directors' pages: the chain reader's faults (values of
    the wrong kind), and the shapes a page reads in its JSON (words; a consequence, which is an
    object, a challenge's or a move's, or none at all). Empty for a row the service wrote."""
    found = list(stored.faults)
    words, consequence = stored.row["words"], stored.row["consequence"]
    if not any(" words " in f for f in found) and not as_written(words):
        found.append("its words are not a list of words as the service writes them")
    if not any(" consequence " in f for f in found) and not isinstance(consequence, dict | None):
        found.append("its consequence is not an object")
    return found


def item(row: Mapping[str, Any], malformed: list[str] | None = None) -> dict[str, Any]:
    """One entry as a director reads it (the table label under its request name, `table`); a
    row written around the service is shown as stored, and `malformed` says why it is not what
    the service writes (`audit verify` names it too)."""
    return {
        "seq": row["seq"],
        "ruling_id": row["ruling_id"],
        "created_at": stored_time(row["created_at"]),
        "kind": row["kind"],
        "ruleset": row["ruleset"],
        # the edition the ruling rested on (its version and date: migration 0013)
        "lexicon": {name: row.get(f"lexicon_{name}") for name in LEXICON},
        "caller": {name: row[f"caller_{name}"] for name in ("kind", "id", "name")},
        **{ITEM_NAMES.get(name, name): row[name] for name in ITEM_COLUMNS},
        "malformed": malformed or [],
    }


def _key(name: str, value: str) -> str:
    """A searched label or text in the form it is stored in `ruling_labels`; a character its
    profile disallows (no label holds one) is refused, naming it, as a ruling's label is. The
    free text is read as a name (Nickname), the profile of most labels and of the words."""
    try:
        return labelforms.key("event" if name == "q" else name, value)
    except labelforms.Refused as refused:
        raise refusal(name, refused) from None


def _matching(query: Query) -> Select:
    """The entries `query`'s filters and text match (its `before` and `limit` aside)."""
    stmt = RAW
    for name, value in query.exact:
        if name in CANONICAL:  # the labels as searched, beside the chain (`ruling_labels`)
            wanted = _key(name, value)
            stmt = stmt.where(
                RULINGS.c.seq.in_(select(LABELS.c.seq).where(LABELS.c[name] == wanted))
            )
        else:
            stmt = stmt.where(RULINGS.c[name] == value)
    if query.text:
        key = _key("q", query.text)
        found = [RULINGS.c[name].icontains(query.text, autoescape=True) for name in SEARCHED]
        typed_id = typed_ruling_id(query.text)  # as the tablet shows it, in groups of four
        if typed_id is not None:
            found.append(RULINGS.c.ruling_id.contains(typed_id, autoescape=True))
        canonically = (LABELS.c[name].contains(key, autoescape=True) for name in SEARCHED_CANONICAL)
        found.append(RULINGS.c.seq.in_(select(LABELS.c.seq).where(or_(*canonically))))
        stmt = stmt.where(or_(*found))
    return stmt


def search(conn: Connection, query: Query) -> tuple[list[dict[str, Any]], int | None]:
    """A page of matching entries, newest first, and the `before` of the next page (None when
    this is the last)."""
    stmt = _matching(query)
    if query.before is not None:
        stmt = stmt.where(RULINGS.c.seq < query.before)
    found = read(conn, stmt.order_by(RULINGS.c.seq.desc()).limit(query.limit + 1))
    kept = found[: query.limit]
    items = [item(each.row, faults(each)) for each in kept]
    return items, (kept[-1].row["seq"] if len(found) > query.limit else None)


def every(conn: Connection, query: Query) -> Iterator[dict[str, Any]]:
    """Every entry `query` matches, on every page (its `before` and `limit` aside), in chain
    order: what an export of the page's filter holds. Read in batches, never held whole."""
    return (item(each.row, faults(each)) for each in stored(conn, narrowed=_matching(query)))
