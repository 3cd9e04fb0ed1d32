"""Every table of the store, so that `Base.metadata` is complete (migrations are compared with
it in the tests). A feature's tables live in its own module, imported here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    DateTime,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from adjudicator.store import Base
from adjudicator.store.labelforms import LABEL_MAX

# Bounds shared by the tables and the request fields that fill them.
IDEMPOTENCY_KEY_MAX = 255
SHA256_HEX = 64
GENESIS_HASH = "0" * SHA256_HEX  # the "previous hash" of the first entry

# SQLite only autoincrements an INTEGER PRIMARY KEY (its rowid); PostgreSQL gets a BIGINT.
SeqType = BigInteger().with_variant(Integer(), "sqlite")


class Ruling(Base):
    """One entry of the audit log: append-only, each carrying the hash of the one before.

    The database takes a row only at the chain's head: `seq` above 0, and an INSERT trigger
    (migration 0004) that wants the head's seq + 1 and moves the head to the row."""

    __tablename__ = "rulings"
    __table_args__ = (CheckConstraint("seq > 0", name="ck_rulings_seq_positive"),)

    seq: Mapped[int] = mapped_column(SeqType, primary_key=True, autoincrement=True)
    ruling_id: Mapped[str] = mapped_column(String(32), unique=True)
    # Not indexed (migration 0008): no query looks up by either, and every index is a page
    # more that each ruling writes.
    created_at: Mapped[datetime] = mapped_column(DateTime())
    kind: Mapped[str] = mapped_column(String(16))  # challenge | jury | move
    ruleset: Mapped[str] = mapped_column(String(64))
    lexicon_id: Mapped[str] = mapped_column(String(64))
    lexicon_sha256: Mapped[str] = mapped_column(String(SHA256_HEX))
    # The edition (migration 0013): its version as its manifest names it, and the date it is in
    # force from (ISO; none: since always). Empty in the entries written before.
    lexicon_version: Mapped[str | None] = mapped_column(Text(), nullable=True)
    lexicon_in_force_from: Mapped[str | None] = mapped_column(String(10), nullable=True)
    caller_kind: Mapped[str] = mapped_column(String(16))
    caller_id: Mapped[str] = mapped_column(String(64))
    caller_name: Mapped[str] = mapped_column(String(128))
    event: Mapped[str | None] = mapped_column(String(LABEL_MAX))
    round: Mapped[str | None] = mapped_column(String(LABEL_MAX))
    table_label: Mapped[str | None] = mapped_column(String(LABEL_MAX))
    game: Mapped[str | None] = mapped_column(String(LABEL_MAX))
    player: Mapped[str | None] = mapped_column(String(LABEL_MAX))
    words: Mapped[Any] = mapped_column(JSON())  # as the answer listed them
    verdict: Mapped[str | None] = mapped_column(String(16))  # valid | invalid | none
    consequence: Mapped[Any | None] = mapped_column(JSON())
    play: Mapped[str | None] = mapped_column(String(64))  # a validated move's notation
    prev_hash: Mapped[str] = mapped_column(String(SHA256_HEX))
    # Not unique, so not indexed (migration 0014): verifying walks by seq and recomputes it.
    hash: Mapped[str] = mapped_column(String(SHA256_HEX))


class RulingLabels(Base):
    """A ruling's labels and words in their canonical form (`labelforms.canonical_columns`), for
    the directors' search, which must find `ANNA` when asked for `Anna` as the jury count does,
    and the ruling on BLÅBÆR when asked for `blåbær`. The entry keeps them as typed; this is derived
    from it, outside the hash chain. Every entry has a row (migration 0006)."""

    __tablename__ = "ruling_labels"
    # Only the rows with an event: most rulings have none, and an entry for each NULL was one
    # more page every ruling wrote (migration 0009).
    __table_args__ = (
        Index(
            "ix_ruling_labels_event",
            "event",
            sqlite_where=text("event IS NOT NULL"),
            postgresql_where=text("event IS NOT NULL"),
        ),
    )

    seq: Mapped[int] = mapped_column(SeqType, primary_key=True, autoincrement=False)
    event: Mapped[str | None] = mapped_column(String(LABEL_MAX))
    round: Mapped[str | None] = mapped_column(String(LABEL_MAX))
    table_label: Mapped[str | None] = mapped_column(String(LABEL_MAX))
    game: Mapped[str | None] = mapped_column(String(LABEL_MAX))
    player: Mapped[str | None] = mapped_column(String(LABEL_MAX))
    words: Mapped[str | None] = mapped_column(Text())  # each word canonical, one space between


class AuditHead(Base):
    """The chain's head, one row: appends lock it (`FOR UPDATE`), so concurrent writers on any
    box take turns, and it names the last entry, so a deleted tail shows."""

    __tablename__ = "audit_head"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seq: Mapped[int] = mapped_column(BigInteger)
    hash: Mapped[str] = mapped_column(String(SHA256_HEX))


class AuditCheckpoint(Base):
    """A prune of the audit log (`audit prune`): the last entry it removed, by seq and hash,
    which the first entry kept must follow. Append-only; the newest (highest seq) counts."""

    __tablename__ = "audit_checkpoints"

    seq: Mapped[int] = mapped_column(SeqType, primary_key=True, autoincrement=False)
    hash: Mapped[str] = mapped_column(String(SHA256_HEX))
    before: Mapped[datetime] = mapped_column(DateTime())  # entries made before this were removed
    entries: Mapped[int] = mapped_column(Integer)  # how many this prune removed
    pruned_at: Mapped[datetime] = mapped_column(DateTime())


class JuryWords(Base):
    """Words put to the jury per (event, game, player), for the ruleset's per-game limit: each
    label in its canonical form (`store.labelforms.key`), the event the service's own."""

    __tablename__ = "jury_words"

    event: Mapped[str] = mapped_column(String(LABEL_MAX), primary_key=True)  # "" when none
    game: Mapped[str] = mapped_column(String(LABEL_MAX), primary_key=True)
    player: Mapped[str] = mapped_column(String(LABEL_MAX), primary_key=True)
    words: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime())


class IdempotencyKey(Base):
    """A request's `Idempotency-Key` and the answer it got, per caller, until it expires."""

    __tablename__ = "idempotency_keys"

    caller: Mapped[str] = mapped_column(String(200), primary_key=True)
    key: Mapped[str] = mapped_column(String(IDEMPOTENCY_KEY_MAX), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(SHA256_HEX))
    status: Mapped[int] = mapped_column(Integer)
    body: Mapped[bytes] = mapped_column(LargeBinary())
    created_at: Mapped[datetime] = mapped_column(DateTime(), index=True)


# The credentials' tables (adjudicator.store.credentials): imported here, so that `Base.metadata`
# holds them too.
from adjudicator.store import credentials as _credentials  # noqa: E402, F401  (who is asking)
