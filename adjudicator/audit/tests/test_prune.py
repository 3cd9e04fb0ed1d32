"""Pruning the audit log (issue 30): the entries made before a date go, a checkpoint row keeps
the pruned head's seq and hash, and `audit verify` checks the rest of the chain against it. On
SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import text

from adjudicator.audit import chain, prune
from adjudicator.audit.groupcommit import GroupCommit
from adjudicator.cli import main
from adjudicator.store import utcnow


def _append(store, n: int) -> None:
    writer = GroupCommit(store)
    for i in range(n):
        entry = {
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
        writer.submit(lambda conn, batch, entry=entry: batch.append(entry))


def _url(store) -> str:
    return store.url.render_as_string(hide_password=False)


def _verified(store) -> chain.Verification:
    with store.connection() as conn:
        return chain.verify(conn)


def test_prune_keeps_the_chain_verifiable(store, capsys):
    _append(store, 3)
    cut = utcnow()
    _append(store, 2)
    head = _verified(store)
    assert main(["audit", "prune", "--before", cut.isoformat(), "--database-url", _url(store)]) == 0
    assert "pruned 3 entries" in capsys.readouterr().out
    with store.connection() as conn:
        assert [row["seq"] for row in chain.rows(conn)] == [4, 5]
        labels = conn.execute(text("SELECT seq FROM ruling_labels ORDER BY seq")).scalars().all()
    assert labels == [4, 5]
    result = _verified(store)
    assert result.ok, result.problems
    assert (result.entries, result.head_seq, result.head_hash) == (2, 5, head.head_hash)
    assert main(["audit", "verify", "--database-url", _url(store)]) == 0
    assert "chain intact" in capsys.readouterr().out
    _append(store, 1)  # the log goes on after a prune
    assert _verified(store).ok
    # Pruning everything leaves the head and the checkpoint naming the same entry.
    with store.connection(write=True) as conn:
        assert prune.prune(conn, utcnow() + timedelta(seconds=1)).entries == 3
    result = _verified(store)
    assert result.ok and result.entries == 0 and result.head_seq == 6


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


@pytest.mark.parametrize("before", ["yesterday", "2027-13-01", ""])
def test_a_bad_date_is_a_usage_error(store, capsys, before):
    assert main(["audit", "prune", "--before", before, "--database-url", _url(store)]) == 2
    assert "--before" in capsys.readouterr().err


def test_prune_needs_a_date(store, capsys):
    assert main(["audit", "prune", "--database-url", _url(store)]) == 2
    assert "--before" in capsys.readouterr().err
