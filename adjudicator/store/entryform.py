"""An audit entry's hashed form, and the entry a prune of the log leaves in the chain.

The audit log (`adjudicator.audit.chain`) hashes and verifies entries; the store's own migration
0011 appends one too (the prune entry of a checkpoint made before prunes were chained). So the
rule of both is the store's, below every package that uses it, as `labelforms` is.

An entry's hash is the SHA-256 of its canonical form: every column except `hash` itself (so
`seq` and `prev_hash` too), as JSON with keys sorted, no whitespace, UTF-8 text unescaped, and
`created_at` as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC). A column added after the chain's first form
(`LATER`) is in the hashed form only when it holds a value, so every entry written before it
(where it is empty) hashes as it always did, and an entry without the value says the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import orjson

from adjudicator.store.models import Ruling

COLUMNS = tuple(c.name for c in Ruling.__table__.columns)
HASHED = tuple(name for name in COLUMNS if name != "hash")
# Columns added later, with the migration that added them: the edition a ruling rested on, its
# version and the date it is in force from (0013; the id and sha256 were there from the start).
LATER = ("lexicon_version", "lexicon_in_force_from")
BEFORE_LATER = tuple(name for name in COLUMNS if name not in LATER)  # the table up to 0012

# A prune (`adjudicator audit prune`) is an entry of the chain of its own kind, so that no prune
# happens without moving the head: its `consequence` holds `PRUNE_KEY`, what it removed.
PRUNE_KIND = "prune"
PRUNE_KEY = "pruned"
PRUNE_FIELDS = ("before", "entries", "first_seq", "last_seq", "last_hash")


def timestamp(value: datetime) -> str:
    """`YYYY-MM-DDTHH:MM:SS.ffffffZ` from the naive UTC value as stored (any zone ignored).

    `isoformat` rather than `strftime`, which rewrites its `%f` format on every call."""
    return value.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def canonical(row: Mapping[str, Any]) -> bytes:
    # A LATER column is in the hashed form only with a value (the module's docstring).
    content = {name: row[name] for name in HASHED if name not in LATER or row.get(name) is not None}
    content["created_at"] = timestamp(row["created_at"])
    return orjson.dumps(content, option=orjson.OPT_SORT_KEYS)


def entry_hash(row: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(row)).hexdigest()


def prune_entry(
    *,
    before: datetime,
    entries: int,
    first_seq: int,
    last_seq: int,
    last_hash: str,
    by: str,
    adopted_at: datetime | None = None,
) -> dict[str, Any]:
    """The entry recording a prune that removed seq `first_seq`..`last_seq` (`entries` of
    them, the last hashed `last_hash`), all made before `before`, asked by `by` (the system
    user). `adopted_at`: the time of a checkpoint made before prunes were chained, recorded by
    migration 0011 rather than by its prune (the entry's own time is the upgrade's). The chain adds seq, time and hashes; `ruling_id` is the seq's."""
    values = (timestamp(before), entries, first_seq, last_seq, last_hash)
    pruned: dict[str, Any] = dict(zip(PRUNE_FIELDS, values, strict=True))
    if adopted_at is not None:
        pruned |= {"adopted": "migration 0011", "pruned_at": timestamp(adopted_at)}
    return {
        "ruling_id": "",  # set once the seq is known: `prune_id`
        "kind": PRUNE_KIND,
        "ruleset": "",
        "lexicon_id": "",
        "lexicon_sha256": "",  # and no LATER column: `chain.link` leaves them empty
        "caller_kind": "operator",
        "caller_id": "",
        "caller_name": by[:128],
        "event": None,
        "round": None,
        "table_label": None,
        "game": None,
        "player": None,
        "words": [],
        "verdict": None,
        "consequence": {PRUNE_KEY: pruned},
        "play": None,
    }


def prune_id(seq: int) -> str:
    """A prune entry's `ruling_id` (unique as its seq; no ruling's id has a dash)."""
    return f"prune-{seq}"
