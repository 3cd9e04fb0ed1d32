"""Labels under PRECIS: each label's compared form is now its profile's
(`adjudicator.store.labelforms.key`: Nickname for names, the IdentifierClass for game and
round, every dash as `-`), where it was a hand-made fold that let a variation selector, a Hangul
filler or a combining grapheme joiner make a second `Anna`.

The jury counts (`jury_words`) are keyed afresh: counts whose keys are now one are added up (the
latest time kept), and a stored key holding a character the profile disallows is read without
it (`stored_key`), so `anna` + U+FE0F counts with `anna`, as the attack meant it not to. Every
count joined so, and every character dropped, is reported as a warning of the logger
`adjudicator.migrations` (on standard error under `adjudicator db upgrade`); `adjudicator labels
collisions` lists the same at any time. The searched labels and words (`ruling_labels`) are
computed afresh from the entries, which keep their labels as recorded (hashed).

Going down leaves both as they are: the earlier revision reads them as keys it could have made.

Revision ID: 0012_precis_labels
Revises: 0011_prune_entries
Create Date: 2026-12-04
"""

import logging

import orjson
import sqlalchemy as sa
from alembic import op

from adjudicator.store.labelforms import COLUMNS, canonical_columns, spelled, stored_key

revision = "0012_precis_labels"
down_revision = "0011_prune_entries"
branch_labels = None
depends_on = None

log = logging.getLogger("adjudicator.migrations")
KEY = ("event", "game", "player")
WIDTH = 64  # the key columns' length (LABEL_MAX)


def _rekey_counts(bind: sa.Connection) -> None:
    words = sa.table(
        "jury_words",
        *(sa.column(name, sa.String()) for name in KEY),
        sa.column("words", sa.Integer()),
        sa.column("updated_at", sa.DateTime()),
    )
    rows = bind.execute(sa.select(words)).mappings().all()
    merged: dict[tuple[str, ...], dict] = {}
    for row in rows:
        key: list[str] = []
        for name in KEY:
            found, dropped = stored_key(name, row[name]) if row[name] else ("", [])
            if dropped:
                log.warning(
                    "jury count %s %s read as %r, without %s",
                    name, spelled(row[name]), found, ", ".join(dropped),
                )  # fmt: skip
            key.append(found[:WIDTH])
        into = merged.setdefault(tuple(key), {"words": 0, "updated_at": None, "from": []})
        into["words"] += row["words"]
        into["updated_at"] = max(filter(None, (into["updated_at"], row["updated_at"])))
        into["from"].append(tuple(row[name] for name in KEY))
    if all(len(m["from"]) == 1 and m["from"][0] == key for key, m in merged.items()):
        return  # every key is already its PRECIS form
    for key, into in merged.items():
        if len(into["from"]) > 1:
            log.warning(
                "jury counts %s are now one, (event, game, player) = %r: %d words",
                " + ".join(ascii(k) for k in into["from"]), key, into["words"],
            )  # fmt: skip
    bind.execute(words.delete())
    bind.execute(
        words.insert(),
        [
            {**dict(zip(KEY, key, strict=True)), "words": m["words"], "updated_at": m["updated_at"]}
            for key, m in merged.items()
        ],
    )


def _words(stored: object) -> object:
    """An entry's words as stored (text on SQLite, decoded on PostgreSQL)."""
    if isinstance(stored, (str, bytes)):
        try:
            return orjson.loads(stored)
        except orjson.JSONDecodeError:
            return None  # a row written around the service: `audit verify` names it
    return stored


def _research_labels(bind: sa.Connection) -> None:
    rulings = sa.table(
        "rulings", sa.column("seq"), *map(sa.column, COLUMNS), sa.column("words", sa.Text())
    )
    labels = sa.table("ruling_labels", sa.column("seq"), *map(sa.column, (*COLUMNS, "words")))
    known = {row.seq: dict(row._mapping) for row in bind.execute(sa.select(labels))}
    chosen = sa.select(
        rulings.c.seq, *(rulings.c[name] for name in COLUMNS), sa.cast(rulings.c.words, sa.Text)
    )
    changed = 0
    for row in bind.execute(chosen):
        entry = dict(zip(("seq", *COLUMNS, "words"), row, strict=True))
        entry["words"] = _words(entry["words"])
        searched = {
            name: None if value is None else value[:WIDTH] if name != "words" else value
            for name, value in canonical_columns(entry).items()
        }
        before = known.get(entry["seq"])
        if before is None:
            bind.execute(labels.insert().values(seq=entry["seq"], **searched))
        elif any(before[name] != value for name, value in searched.items()):
            bind.execute(labels.update().where(labels.c.seq == entry["seq"]).values(**searched))
        else:
            continue
        changed += 1
    if changed:
        log.warning("%d entries are searched by new forms of their labels or words", changed)


def upgrade() -> None:
    bind = op.get_bind()
    _rekey_counts(bind)
    _research_labels(bind)


def downgrade() -> None:
    pass  # the keys and searched forms stay: see the module's docstring
