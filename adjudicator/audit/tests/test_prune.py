"""Pruning the audit log (issue 30): the entries made before a date go, a checkpoint row keeps
the pruned head's seq and hash, and `audit verify` checks the rest of the chain against it. On
SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from adjudicator.audit import chain, prune
from adjudicator.audit.groupcommit import GroupCommit
from adjudicator.cli import main
from adjudicator.store import Store, entryform, migrate, utcnow


def _entry(i: int) -> dict:
    return {
        "ruling_id": f"r{i}-{utcnow().timestamp()}",
        "kind": "challenge",
        "ruleset": "ssf-1999",
        "lexicon_id": "x",
        "lexicon_sha256": "0" * 64,
        "caller_kind": "anonymous",
        "caller_id": "",
        "caller_name": "anonymous",
        "event": None,
        "round": None,
        "table_label": None,
        "game": f"g{i}",
        "player": None,
        "words": [{"input": "ord"}],
        "verdict": "valid",
        "consequence": None,
        "play": None,
    }


def _append(store, n: int) -> None:
    writer = GroupCommit(store)
    for i in range(n):
        entry = _entry(i)
        writer.submit(lambda conn, batch, entry=entry: batch.append(entry))


def _append_before_0013(store, n: int) -> list[dict]:
    """`_append` as the service wrote entries before migration 0013 added the edition's
    columns: the same chain, only the columns the table had then."""
    import orjson

    from adjudicator.store.labelforms import canonical_columns

    before = entryform.BEFORE_LATER
    insert = text(
        f"INSERT INTO rulings ({', '.join(before)}) VALUES ({', '.join(':' + c for c in before)})"
    )
    written = []
    with store.connection(write=True) as conn:
        head = chain.lock_head(conn)
        for i in range(n):
            row = chain.link(head, {**_entry(i), "lexicon_version": None})
            del row["lexicon_version"], row["lexicon_in_force_from"]
            values = {c: row[c] for c in before}
            values["words"] = orjson.dumps(row["words"]).decode()
            values["consequence"] = None
            conn.execute(insert, values)
            labels = canonical_columns(row)
            conn.execute(
                text(
                    f"INSERT INTO ruling_labels (seq, {', '.join(labels)})"
                    f" VALUES (:seq, {', '.join(':' + c for c in labels)})"
                ),
                {"seq": row["seq"], **labels},
            )
            written.append(row)
    return written


def _url(store) -> str:
    return store.url.render_as_string(hide_password=False)


def _verified(store) -> chain.Verification:
    with store.connection() as conn:
        return chain.verify(conn)


def test_prune_keeps_the_chain_verifiable(store, capsys):
    _append(store, 3)
    cut = utcnow()
    _append(store, 2)
    noted = _verified(store)
    assert main(["audit", "prune", "--before", cut.isoformat(), "--database-url", _url(store)]) == 0
    out = capsys.readouterr().out
    assert "pruned 3 entries" in out and "recorded as entry seq 6" in out
    with store.connection() as conn:
        rows = [s.row for s in chain.stored(conn)]
        labels = conn.execute(text("SELECT seq FROM ruling_labels ORDER BY seq")).scalars().all()
    assert [row["seq"] for row in rows] == [4, 5, 6]
    assert labels == [4, 5, 6]
    entry = rows[-1]  # the prune, at the head: when, before, how many, the last pruned hash
    assert entry["kind"] == "prune" and entry["ruling_id"] == "prune-6"
    pruned = entry["consequence"]["pruned"]
    assert pruned == {
        "before": chain.timestamp(cut),
        "entries": 3,
        "first_seq": 1,
        "last_seq": 3,
        "last_hash": rows[0]["prev_hash"],
    }
    result = _verified(store)
    assert result.ok, result.problems
    assert (result.entries, result.head_seq) == (3, 6)
    assert result.head_hash == entry["hash"] != noted.head_hash  # a prune moves the head
    assert [p.seq for p in result.prunes] == [6]
    # The head noted before the prune: the log still extends it, and says a prune came since.
    noted_head = f"{noted.head_seq}:{noted.head_hash}"
    assert main(["audit", "verify", "--head", noted_head, "--database-url", _url(store)]) == 0
    out = capsys.readouterr().out
    assert "chain intact" in out and "extends the noted head seq 5" in out
    assert "since the noted head: the prune at seq 6" in out and "removed 3 entries" in out
    _append(store, 1)  # the log goes on after a prune
    assert _verified(store).ok
    # Pruning everything: the entries up to the head go, the new prune's entry is the log.
    with store.connection(write=True) as conn:
        done = prune.prune(conn, utcnow())
    assert (done.entries, done.seq, done.entry.seq) == (4, 7, 8)
    result = _verified(store)
    assert result.ok, result.problems
    assert (result.entries, result.head_seq, result.pruned) == (1, 8, 7)


def _behind_the_back(store, *statements: tuple[str, dict]) -> None:
    """Someone with the database's password takes the no-delete trigger off, writes, and puts
    it back (as 0007's prune did in its own transaction)."""
    with store.connection(write=True) as conn:
        if store.is_sqlite:
            conn.execute(text("DROP TRIGGER rulings_no_delete"))
        else:
            conn.execute(text("ALTER TABLE rulings DISABLE TRIGGER rulings_no_change"))
        for sql, values in statements:
            conn.execute(text(sql), values)
        if store.is_sqlite:
            conn.execute(text(prune._SQLITE_NO_DELETE))
        else:
            conn.execute(text("ALTER TABLE rulings ENABLE TRIGGER rulings_no_change"))


def _fake_prune(store, last: int, *, entries: int | None = None) -> None:
    """What issue 35 (break 3) did: the oldest entries deleted, a checkpoint inserted."""
    with store.connection() as conn:
        rows = {s.row["seq"]: s.row for s in chain.stored(conn)}
        cut, before = rows[last], rows[last + 1]["created_at"]
    _behind_the_back(
        store,
        ("DELETE FROM ruling_labels WHERE seq <= :s", {"s": last}),
        ("DELETE FROM rulings WHERE seq <= :s", {"s": last}),
        (
            "INSERT INTO audit_checkpoints (seq, hash, before, entries, pruned_at)"
            " VALUES (:s, :h, :b, :n, :t)",
            {"s": last, "h": cut["hash"], "b": before, "n": entries or last, "t": utcnow()},
        ),
    )


def test_a_prune_made_behind_the_service_is_caught(store, capsys):
    _append(store, 5)
    noted = _verified(store)
    _fake_prune(store, 3)
    result = _verified(store)
    assert result.head_hash == noted.head_hash  # the head did not move: only the entry tells
    assert any("checkpoint at seq 3" in p and "no prune entry" in p for p in result.problems)
    noted_head = f"{noted.head_seq}:{noted.head_hash}"
    assert main(["audit", "verify", "--head", noted_head, "--database-url", _url(store)]) == 1
    assert "chain BROKEN" in capsys.readouterr().out


def _forge_prune_entry(store, **changes) -> None:
    """A prune entry appended at the head as the service would, with `changes` to its record."""
    with store.connection(write=True) as conn:
        head = chain.lock_head(conn)
        (mark,) = chain.checkpoints(conn)[-1:]
        record = entryform.prune_entry(
            before=mark.before,
            entries=mark.entries,
            first_seq=1,
            last_seq=mark.seq,
            last_hash=mark.hash,
            by="mallory",
        )
        record["consequence"]["pruned"] |= changes
        row = chain.link(head, record | {"ruling_id": entryform.prune_id(head.seq + 1)})
        chain.write(conn, head, [row])


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"entries": 2}, "differs from it in its count"),
        ({"last_hash": "1" * 64}, "differs from it in its hash"),
        ({"before": "2000-01-01T00:00:00.000000Z"}, "differs from it in its date"),
        ({"first_seq": 2}, "counts 3 entries from seq 2"),
        ({}, "differs from it in its time"),  # the checkpoint's time is not the entry's
    ],
)
def test_a_forged_prune_entry_must_match_its_checkpoint(store, changes, named):
    _append(store, 5)
    _fake_prune(store, 3)
    _forge_prune_entry(store, **changes)
    problems = _verified(store).problems
    assert any(named in p for p in problems), problems


def test_a_checkpoint_whose_count_or_date_lies(store):
    """A checkpoint claiming more than it cut, or a date after the first entry it kept."""
    _append(store, 5)
    _fake_prune(store, 3, entries=4)
    _forge_prune_entry(store, entries=4)
    problems = _verified(store).problems
    assert any("counts 4 entries from seq 1" in p for p in problems), problems


def test_verify_against_a_noted_head(store, capsys):
    _append(store, 3)
    url = _url(store)
    assert main(["audit", "head", "--database-url", url]) == 0
    captured = capsys.readouterr()
    noted = captured.out.strip()
    assert noted == f"3:{_verified(store).head_hash}"
    assert "each round" in captured.err and f"--head {noted}" in captured.err
    _append(store, 2)
    assert main(["audit", "verify", "--head", noted, "--database-url", url]) == 0
    seq, hash_ = noted.split(":")
    for other, named in [
        (f"{seq}:{'a' * 64}", "another hash"),
        (f"9:{hash_}", "past the end of the log"),
    ]:
        assert main(["audit", "verify", "--head", other, "--database-url", url]) == 1
        assert named in capsys.readouterr().out
    # A head pruned since: it can no longer be checked, and says so; the checkpoint's can.
    with store.connection(write=True) as conn:
        done = prune.prune(conn, utcnow())
    assert main(["audit", "verify", "--head", noted, "--database-url", url]) == 1
    assert "was pruned" in capsys.readouterr().out
    last = f"{done.seq}:{done.hash}"
    assert main(["audit", "verify", "--head", last, "--database-url", url]) == 0


@pytest.mark.parametrize(
    "head", ["", "3", "3:", "x:" + "0" * 64, "3:" + "g" * 64, "-1:" + "0" * 64]
)
def test_a_malformed_noted_head_is_a_usage_error(store, capsys, head):
    with pytest.raises(SystemExit) as exited:
        main(["audit", "verify", "--head", head, "--database-url", _url(store)])
    assert exited.value.code == 2
    assert "--head" in capsys.readouterr().err


def test_a_broken_chain_has_no_head_to_note(store, capsys):
    _append(store, 5)
    _fake_prune(store, 3)
    assert main(["audit", "head", "--database-url", _url(store)]) == 1
    captured = capsys.readouterr()
    assert "no prune entry" in captured.out and "no head to note" in captured.err


def test_a_checkpoint_from_before_prunes_were_chained_is_adopted(database_url):
    """A log pruned by the service before migration 0011 verifies after it: the upgrade
    records the newest checkpoint as a prune entry, marked as its own."""
    old = Store(database_url)
    try:
        migrate.upgrade(old, "0010_rate_hits_one_btree")
        written = _append_before_0013(old, 5)
        last_hash, kept = (r for r in written if r["seq"] in (2, 3))
        cut, last_hash = kept["created_at"], last_hash["hash"]
        # what 0007's prune wrote: the checkpoint, the rows gone, the head untouched
        _behind_the_back(
            old,
            ("DELETE FROM ruling_labels WHERE seq <= 2", {}),
            ("DELETE FROM rulings WHERE seq <= 2", {}),
            (
                "INSERT INTO audit_checkpoints (seq, hash, before, entries, pruned_at)"
                " VALUES (2, :h, :b, 2, :t)",
                {"h": last_hash, "b": cut, "t": utcnow()},
            ),
        )
        migrate.upgrade(old)
        result = _verified(old)
        assert result.ok, result.problems
        assert [(p.seq, p.last_seq, p.entries, p.adopted) for p in result.prunes] == [
            (6, 2, 2, True)
        ]
        with old.connection(write=True) as conn:  # the next prune is chained as any
            assert prune.prune(conn, utcnow()).entries == 4
        assert _verified(old).ok
    finally:
        old.dispose()


def test_the_checkpoint_catches_an_edit_at_the_cut(store):
    _append(store, 2)
    cut = utcnow()
    _append(store, 2)
    with store.connection(write=True) as conn:
        prune.prune(conn, cut)
    with store.connection(write=True) as conn:  # someone rewrites the first entry kept
        if store.is_sqlite:
            conn.execute(text("DROP TRIGGER rulings_no_update"))
        else:
            conn.execute(text("DROP TRIGGER rulings_no_change ON rulings"))
        conn.execute(text("UPDATE rulings SET prev_hash = :h WHERE seq = 3"), {"h": "1" * 64})
    problems = _verified(store).problems
    assert any("entry seq 3" in p and "does not follow" in p for p in problems)


def test_a_broken_chain_is_not_pruned(store):
    _append(store, 3)
    with store.connection(write=True) as conn:
        if store.is_sqlite:
            conn.execute(text("DROP TRIGGER rulings_no_update"))
        else:
            conn.execute(text("DROP TRIGGER rulings_no_change ON rulings"))
        conn.execute(text("UPDATE rulings SET verdict = 'invalid' WHERE seq = 1"))
    with store.connection(write=True) as conn, pytest.raises(prune.PruneRefused, match="seq 1"):
        prune.prune(conn, utcnow())
    assert _verified(store).entries == 3  # nothing removed: the evidence stays


def test_the_checkpoints_are_append_only(store):
    _append(store, 2)
    with store.connection(write=True) as conn:
        prune.prune(conn, utcnow())
    with pytest.raises(Exception, match="append-only"), store.connection(write=True) as conn:
        conn.execute(text("DELETE FROM audit_checkpoints"))


@pytest.mark.parametrize(
    "before", ["yesterday", "2027-13-01", "", "0001-01-01T00:00:00+14:00", "9999-12-31"]
)
def test_a_bad_date_is_a_usage_error(store, capsys, before):
    with pytest.raises(SystemExit) as exited:
        main(["audit", "prune", "--before", before, "--database-url", _url(store)])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--before" in err and "Traceback" not in err


def test_prune_needs_a_date(store, capsys):
    assert main(["audit", "prune", "--database-url", _url(store)]) == 2
    assert "--before" in capsys.readouterr().err


def test_a_log_without_its_insert_trigger_is_not_pruned(store):
    """The prune's own entry would lie outside the chain: it is refused with one line (the
    command says it, no traceback), and the transaction, deletions included, is rolled back."""
    _append(store, 3)
    on = "" if store.is_sqlite else " ON rulings"
    with store.connection(write=True) as conn:
        conn.execute(text(f"DROP TRIGGER rulings_insert_at_head{on}"))
    with (  # as the command runs it: the refusal leaves the transaction, which rolls back
        pytest.raises(prune.PruneRefused, match="rulings_insert_at_head"),
        store.connection(write=True) as conn,
    ):
        prune.prune(conn, utcnow())
    with store.connection() as conn:
        assert len(list(chain.stored(conn))) == 3  # nothing removed
