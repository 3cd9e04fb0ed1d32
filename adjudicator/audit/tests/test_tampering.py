"""Rows written around the service (issue 27, break 4), on SQLite and PostgreSQL: the database
takes a new entry only at the chain's head, and `audit verify` and export see every row there
is, however it was written, naming each one that is not what the service wrote."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from adjudicator.audit import chain
from adjudicator.audit.groupcommit import GroupCommit
from adjudicator.audit.tests.test_groupcommit import append, entry
from adjudicator.cli import main
from adjudicator.store import Store, entryform, migrate

BIN = Path(sys.executable).parent
COLUMNS = ", ".join(chain.COLUMNS)
VALUES = ", ".join(f":{name}" for name in chain.COLUMNS)


def chained(store: Store, count: int) -> None:
    writer = GroupCommit(store)
    for i in range(count):
        writer.submit(append(f"r{i + 1}"))


def forged(seq: int, prev_hash: str = chain.GENESIS_HASH) -> dict:
    """A well-formed row at `seq`, hashed as the service would hash it."""
    row = {**entry(f"forged{seq}"), "seq": seq, "created_at": datetime(2027, 1, 1, 12)}
    row["prev_hash"] = prev_hash
    row["hash"] = chain.entry_hash(row)
    return row | {"words": json.dumps(row["words"]), "consequence": json.dumps(row["consequence"])}


def insert(conn, row: dict, columns: tuple[str, ...] = chain.COLUMNS) -> None:
    names, values = ", ".join(columns), ", ".join(f":{name}" for name in columns)
    conn.execute(text(f"INSERT INTO rulings ({names}) VALUES ({values})"), row)


def open_the_door(conn, store: Store) -> None:
    """What someone with the database's password could do first: drop the triggers and, on
    PostgreSQL, the CHECK (SQLite's is switched off for this connection: `close_the_door`)."""
    if store.is_sqlite:
        for name in ("rulings_no_update", "rulings_no_delete", "rulings_insert_at_head"):
            conn.execute(text(f"DROP TRIGGER IF EXISTS {name}"))
        conn.execute(text("PRAGMA ignore_check_constraints = ON"))
    else:
        for name in ("rulings_no_change", "rulings_insert_at_head"):
            conn.execute(text(f"DROP TRIGGER IF EXISTS {name} ON rulings"))
        conn.execute(text("ALTER TABLE rulings DROP CONSTRAINT IF EXISTS ck_rulings_seq_positive"))


def close_the_door(conn, store: Store) -> None:
    if store.is_sqlite:  # a connection setting: the pooled connection must not keep it
        conn.execute(text("PRAGMA ignore_check_constraints = OFF"))


def verify(store: Store) -> chain.Verification:
    with store.connection() as conn:
        return chain.verify(conn)


def url(store: Store) -> str:
    return store.url.render_as_string(hide_password=False)


# --- the database refuses --------------------------------------------------------------------


@pytest.mark.parametrize("seq", [0, -1, 4, 9])
def test_the_database_takes_a_row_only_at_the_head(store, seq):
    """No trigger to drop first: below the chain (seq 0, negative) or past the head + 1."""
    chained(store, 2)
    with pytest.raises(DBAPIError), store.connection(write=True) as conn:
        insert(conn, forged(seq))
    with store.connection() as conn:
        assert conn.execute(text("SELECT count(*) FROM rulings")).scalar() == 2
    assert verify(store).ok


def test_an_entry_cannot_be_replaced_by_an_insert(store):
    """SQLite's INSERT OR REPLACE deletes the row in the way without firing its DELETE trigger;
    PostgreSQL's ON CONFLICT DO UPDATE is an UPDATE."""
    chained(store, 2)
    replace = (
        f"INSERT OR REPLACE INTO rulings ({COLUMNS}) VALUES ({VALUES})"
        if store.is_sqlite
        else f"INSERT INTO rulings ({COLUMNS}) VALUES ({VALUES})"
        " ON CONFLICT (seq) DO UPDATE SET verdict = 'invalid'"
    )
    with pytest.raises(DBAPIError), store.connection(write=True) as conn:
        conn.execute(text(replace), forged(1))
    assert verify(store).ok


def test_a_row_at_the_head_moves_it(store):
    """The head follows every row the database takes, so each row of a multi-row INSERT is
    checked against the one before it."""
    chained(store, 2)
    with store.connection() as conn:
        last = conn.execute(text("SELECT hash FROM rulings WHERE seq = 2")).scalar()
    row = forged(3, last)
    with store.connection(write=True) as conn:
        insert(conn, row)
    with store.connection() as conn:
        assert conn.execute(text("SELECT seq, hash FROM audit_head")).one() == (3, row["hash"])
    assert verify(store).ok
    writer = GroupCommit(store)
    assert writer.submit(append("after")) == 4


def test_an_entry_carrying_an_earlier_entrys_hash_is_named_by_verify(store):
    """What the UNIQUE (hash) that migration 0014 dropped refused: a row at the head whose hash
    copies an earlier entry's. No entry the service writes does that (the hash covers its seq
    and the hash before it), and a forger could always write any other wrong hash, which the
    database never refused: verifying recomputes every hash and names the row."""
    chained(store, 2)
    with store.connection() as conn:
        first, last = conn.execute(text("SELECT hash FROM rulings ORDER BY seq")).scalars()
    with store.connection(write=True) as conn:
        insert(conn, forged(3, last) | {"hash": first})
    (problem,) = verify(store).problems
    assert "seq 3" in problem and "hash" in problem, problem


# --- verify and export see every row -----------------------------------------------------------


def test_rows_below_the_chain_are_named_by_verify_and_exported(store, capsys):
    chained(store, 3)
    with store.connection(write=True) as conn:
        open_the_door(conn, store)
        insert(conn, forged(0))
        insert(conn, forged(-5))
        close_the_door(conn, store)
    problems = verify(store).problems
    assert len(problems) == 2, problems
    assert "entry seq -5" in problems[0] and "below the chain" in problems[0]
    assert "entry seq 0" in problems[1] and "below the chain" in problems[1]
    assert main(["audit", "verify", "--database-url", url(store)]) == 1
    out = capsys.readouterr().out
    assert "entry seq -5" in out and "entry seq 0" in out and "BROKEN (2 problem(s))" in out
    assert main(["audit", "export", "--format", "json", "--database-url", url(store)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert [e["seq"] for e in exported] == [-5, 0, 1, 2, 3]


def test_a_row_past_the_head_is_named(store):
    chained(store, 2)
    with store.connection() as conn:
        last = conn.execute(text("SELECT hash FROM rulings WHERE seq = 2")).scalar()
    with store.connection(write=True) as conn:
        open_the_door(conn, store)
        insert(conn, forged(3, last))  # linked, but the head was not moved
        close_the_door(conn, store)
    (problem,) = verify(store).problems
    assert "entry seq 3" in problem and "past the chain head" in problem


# --- malformed values ---------------------------------------------------------------------------


def malform(conn, store: Store) -> None:
    """Values the service never writes: a time that is text or a number, words that are not
    JSON, a name that is bytes or missing (SQLite takes any value in any column; on PostgreSQL
    the columns' types are changed first)."""
    if not store.is_sqlite:
        conn.execute(text("ALTER TABLE rulings ALTER COLUMN created_at TYPE text"))
        conn.execute(text("ALTER TABLE rulings ALTER COLUMN words TYPE text"))
        conn.execute(text("ALTER TABLE rulings ALTER COLUMN caller_name DROP NOT NULL"))
    conn.execute(text("UPDATE rulings SET created_at = 'yesterday' WHERE seq = 1"))
    conn.execute(text("UPDATE rulings SET words = '{not json' WHERE seq = 2"))
    number = 12345 if store.is_sqlite else "12345"
    conn.execute(text("UPDATE rulings SET created_at = :v WHERE seq = 3"), {"v": number})
    name = b"\x00\xff" if store.is_sqlite else None  # bytes; none at all
    conn.execute(text("UPDATE rulings SET caller_name = :v WHERE seq = 4"), {"v": name})
    conn.execute(text("UPDATE rulings SET verdict = 'invalid' WHERE seq = 5"))
    if store.is_sqlite:  # text that is not UTF-8
        conn.execute(text("UPDATE rulings SET caller_id = CAST(x'ff41' AS TEXT) WHERE seq = 6"))
    else:  # JSON, but not what the service writes
        conn.execute(text("UPDATE rulings SET words = '\"HEJ\"' WHERE seq = 6"))


def test_malformed_rows_are_each_named_and_verify_goes_on(store, capsys, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    chained(store, 7)
    with store.connection(write=True) as conn:
        open_the_door(conn, store)
        malform(conn, store)
        close_the_door(conn, store)
    problems = verify(store).problems
    named = {seq: [p for p in problems if p.startswith(f"entry seq {seq} ")] for seq in range(1, 8)}
    assert any("created_at" in p for p in named[1]), problems
    assert any("words" in p for p in named[2]), problems
    assert any("created_at" in p for p in named[3]), problems
    assert any("caller_name" in p for p in named[4]), problems
    assert any("edited" in p for p in named[5]), problems  # verification went on to the end
    assert any(("caller_id" if store.is_sqlite else "words") in p for p in named[6]), problems
    assert named[7] == []  # it still follows the entry before
    assert main(["audit", "verify", "--database-url", url(store)]) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "BROKEN" in captured.out
    assert all(f"entry seq {seq} " in captured.out for seq in range(1, 7))
    assert main(["audit", "export", "--format", "json", "--database-url", url(store)]) == 1
    captured = capsys.readouterr()
    exported = json.loads(captured.out)
    assert [e["seq"] for e in exported] == [1, 2, 3, 4, 5, 6, 7]  # none skipped
    assert exported[0]["created_at"] == "yesterday" and exported[1]["words"] == "{not json"
    assert all(f"entry seq {seq} " in captured.err for seq in (1, 2, 3, 4, 6))
    assert "Traceback" not in captured.err
    assert main(["audit", "export", "--format", "csv", "--database-url", url(store)]) == 1
    assert capsys.readouterr().out.count("\n") == 8  # the header and every row
    for lang in ("da", "en"):  # in a language: each malformed value written as stored
        out = tmp_path / f"rulings-{lang}.xlsx"
        args = ["audit", "export", "--format", "xlsx", "--lang", lang, "--out", str(out)]
        assert main([*args, "--database-url", url(store)]) == 1
        assert "Traceback" not in capsys.readouterr().err
        rows = list(openpyxl.load_workbook(out).active.iter_rows(values_only=True))
        assert [r[0] for r in rows[1:]] == [1, 2, 3, 4, 5, 6, 7]
        assert rows[1][1] == "yesterday" and rows[1][2] is None  # no time, so no offset


# --- an older database ---------------------------------------------------------------------------


def test_the_migration_keeps_rows_already_outside_the_chain(database_url):
    """A database tampered with before the upgrade still migrates (the rows stay as evidence),
    and verify names them."""
    store = Store(database_url)
    try:
        migrate.upgrade(store, "0003_rate_hits")
        with store.connection(write=True) as conn:  # the table as it was then (0013 added two)
            insert(conn, forged(0), entryform.BEFORE_LATER)
        migrate.upgrade(store)
        assert migrate.current(store) == migrate.heads()
        (problem,) = verify(store).problems
        assert "entry seq 0" in problem and "below the chain" in problem
        with pytest.raises(DBAPIError), store.connection(write=True) as conn:
            insert(conn, forged(-1))
    finally:
        store.dispose()


def test_the_command_names_malformed_rows_without_a_traceback(store):
    """`adjudicator audit verify` as an operator runs it: its own process, its exit status."""
    chained(store, 7)
    with store.connection(write=True) as conn:
        open_the_door(conn, store)
        malform(conn, store)
        close_the_door(conn, store)
    done = subprocess.run(
        [BIN / "adjudicator", "audit", "verify", "--database-url", url(store)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and done.stderr == "", done.stderr
    assert all(f"entry seq {seq} " in done.stdout for seq in range(1, 7)), done.stdout
    assert done.stdout.splitlines()[-1].startswith("7 entries; chain BROKEN")


_POINTS = st.one_of(st.integers(0, 0x7F), st.integers(0xD800, 0xDFFF), st.integers(0, 0x10FFFF))


@given(st.lists(_POINTS).map(lambda points: "".join(map(chr, points))))
def test_broken_text_is_text_utf_8_cannot_hold(value):
    """What SQLite handed back from bytes that were not UTF-8 (kept as lone surrogates) is told
    from any text the service can write, ASCII or not, exactly as UTF-8 would refuse it."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        encodable = False
    else:
        encodable = True
    assert chain._broken_text(value) is not encodable
