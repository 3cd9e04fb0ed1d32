"""The store from an empty database, on SQLite and PostgreSQL: migrations are the schema."""

from __future__ import annotations

import os

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from adjudicator import create_app
from adjudicator.cli import main
from adjudicator.store import Store, StoreError, migrate
from adjudicator.store.models import Base


@pytest.fixture
def store(database_url):
    s = Store(database_url)
    yield s
    s.dispose()


def test_upgrade_from_empty_reaches_head(store):
    assert migrate.current(store) == ()
    migrate.upgrade(store)
    assert migrate.current(store) == migrate.heads()
    migrate.upgrade(store)  # again: nothing to do, no error
    assert migrate.current(store) == migrate.heads()


def test_migrated_schema_equals_the_models(store):
    migrate.upgrade(store)
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


def test_the_chain_starts_at_genesis(store):
    migrate.upgrade(store)
    with store.connection() as conn:
        assert conn.execute(text("SELECT id, seq, hash FROM audit_head")).all() == [
            (1, 0, "0" * 64)
        ]


def _insert_ruling(conn) -> None:
    conn.execute(
        text(
            "INSERT INTO rulings (ruling_id, created_at, kind, ruleset, lexicon_id,"
            " lexicon_sha256, caller_kind, caller_id, caller_name, words, prev_hash, hash)"
            " VALUES ('r1', '2026-01-01 00:00:00', 'challenge', 'x', 'l', 's', 'anonymous',"
            " '', 'anonymous', '[]', 'p', 'h')"
        )
    )


@pytest.mark.parametrize(
    "statement", ["UPDATE rulings SET verdict = 'valid'", "DELETE FROM rulings"]
)
def test_the_database_refuses_to_change_the_log(store, statement):
    migrate.upgrade(store)
    with store.connection(write=True) as conn:
        _insert_ruling(conn)
    with pytest.raises(DBAPIError, match="append-only"), store.connection(write=True) as conn:
        conn.execute(text(statement))
    with store.connection() as conn:
        assert conn.execute(text("SELECT count(*) FROM rulings")).scalar() == 1


def test_cli_upgrade_and_current(database_url, capsys):
    assert main(["db", "current", "--database-url", database_url]) == 1
    assert "never migrated" in capsys.readouterr().out
    assert main(["db", "upgrade", "--database-url", database_url]) == 0
    assert main(["db", "current", "--database-url", database_url]) == 0
    assert capsys.readouterr().out.strip().endswith(f"{migrate.heads()[0]} (newest)")


def test_cli_bad_url_is_one_line(capsys):
    assert main(["db", "upgrade", "--database-url", "mysql://x/y"]) == 2
    err = capsys.readouterr().err
    assert "unsupported database 'mysql'" in err and "Traceback" not in err


def test_app_migrates_an_embedded_sqlite_store(tmp_path, lexicon_dir):
    url = f"sqlite:///{tmp_path / 'new' / 'adjudicator.db'}"
    create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": url})
    assert migrate.current(Store(url)) == migrate.heads()


def test_app_refuses_an_unmigrated_postgres(postgres_url, lexicon_dir):
    with pytest.raises(StoreError, match="adjudicator db upgrade"):
        create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": postgres_url})


def test_sqlite_runs_in_wal_mode(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    with store.connection() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 1000
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL


def test_a_forked_child_opens_its_own_connections(database_url):
    """gunicorn forks after the app is built: the child must not use the parent's connection."""
    store = Store(database_url)
    migrate.upgrade(store)
    with store.connection() as conn:
        conn.execute(text("SELECT 1"))
    parent_engine = store.engine
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a new engine, and it works
        ok = store._engine is None
        with store.connection() as conn:
            ok = ok and conn.execute(text("SELECT seq FROM audit_head")).scalar() == 0
        os.write(write, b"1" if ok and store.engine is not parent_engine else b"0")
        os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 1) == b"1"
    with store.connection() as conn:  # the parent's connection still works
        assert conn.execute(text("SELECT 1")).scalar() == 1
    store.dispose()


def test_bad_synchronous_setting_is_named():
    with pytest.raises(StoreError, match="ADJUDICATOR_SQLITE_SYNCHRONOUS"):
        Store("sqlite:///x.db", "OFF")


def test_0005_carries_counts_as_words_and_labels_in_canonical_form(store):
    """0005: counts kept apart only by a label's spelling are added up, as words; the entries
    so far get their labels in canonical form for the search; and it goes back down."""
    migrate.upgrade(store, "0003_rate_hits")
    with store.connection(write=True) as conn:
        _insert_ruling(conn)
        conn.execute(
            text(
                "INSERT INTO rulings (ruling_id, created_at, kind, ruleset, lexicon_id,"
                " lexicon_sha256, caller_kind, caller_id, caller_name, words, prev_hash, hash,"
                " event, game, player) VALUES ('r2', '2026-01-01 00:00:00', 'jury', 'x', 'l',"
                " 's', 'anonymous', '', 'anonymous', '[]', 'h', 'h2', 'NK', 'R3-T12', 'Ａnna')"
            )
        )
        for event, player, count in (("NK", "Anna", 4), ("nk", " ANNA", 3), ("", "Bo", 1)):
            conn.execute(
                text(
                    "INSERT INTO jury_counts (event, game, player, count, updated_at)"
                    " VALUES (:e, 'R3-T12', :p, :c, '2026-12-01 10:00:00')"
                ),
                {"e": event, "p": player, "c": count},
            )
    migrate.upgrade(store, "0005_canonical_labels")
    with store.connection() as conn:
        rows = conn.execute(
            text("SELECT event, game, player, words FROM jury_words ORDER BY player")
        ).all()
        labels = conn.execute(text("SELECT * FROM ruling_labels")).mappings().all()
    assert [tuple(r) for r in rows] == [("nk", "r3-t12", "anna", 7), ("", "r3-t12", "bo", 1)]
    assert [dict(r) for r in labels] == [
        {"seq": 2, "event": "nk", "round": None, "table_label": None, "game": "r3-t12",
         "player": "anna"}
    ]  # fmt: skip
    command.downgrade(migrate._config(store), "0003_rate_hits")
    with store.connection() as conn:
        counts = conn.execute(text("SELECT player, count FROM jury_counts ORDER BY player")).all()
    assert [tuple(r) for r in counts] == [("anna", 7), ("bo", 1)]
    migrate.upgrade(store)
    assert migrate.current(store) == migrate.heads()


def test_a_ruling_updates_no_index_that_nothing_reads(store):
    """Issues 30 and 38: every index of `rulings` is one more page each ruling writes and
    fsyncs. The unique one keeps ruling ids unique; none is kept for the time or the ruleset,
    which no query looks up by (the directors' search walks seq downwards, as for kind and
    verdict; a prune walks seq upwards to its first entry kept), nor for the hash (verifying
    walks seq and recomputes it; migration 0014)."""
    from sqlalchemy import inspect

    migrate.upgrade(store)
    with store.engine.connect() as conn:
        found = inspect(conn)
        plain = [ix["column_names"] for ix in found.get_indexes("rulings") if not ix["unique"]]
        unique = sorted(c["column_names"] for c in found.get_unique_constraints("rulings"))
    assert plain == []
    assert unique == [["ruling_id"]]


def test_a_ruling_without_an_event_writes_no_event_index_page(store):
    """Issue 30: `ruling_labels.event` is indexed only where there is an event (a partial
    index), so an unlabelled ruling (open mode, most apps) dirties one page fewer per commit;
    the directors' search by event still finds its rows through the index."""
    migrate.upgrade(store)
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "sqlite":
            sql = "SELECT sql FROM sqlite_master WHERE name = 'ix_ruling_labels_event'"
        else:
            sql = "SELECT indexdef FROM pg_indexes WHERE indexname = 'ix_ruling_labels_event'"
        definition = conn.execute(text(sql)).scalar_one()
        assert "event IS NOT NULL" in definition.replace("(", "").replace(")", "")
        if store.engine.dialect.name == "sqlite":
            plan = conn.execute(
                text("EXPLAIN QUERY PLAN SELECT seq FROM ruling_labels WHERE event = :e"),
                {"e": "nk 2027"},
            ).all()
            assert "ix_ruling_labels_event" in " ".join(str(row[-1]) for row in plan)
    command.downgrade(migrate._config(store), "-1")  # and back: the plain index again
    with store.engine.connect() as conn:
        from sqlalchemy import inspect

        found = [ix["column_names"] for ix in inspect(conn).get_indexes("ruling_labels")]
    assert found == [["event"]]
    migrate.upgrade(store)


def test_a_rate_hit_writes_one_btree(store):
    """Issue 30: a credential's rate count adds a row and drops its old ones on every ruling in
    tournament mode. Kept in the order they are looked up in (key, time), with no second index
    beside the table, the two land in one B-tree: on SQLite a table without a rowid, on
    PostgreSQL the heap and its primary key only (three structures before: heap, id, index)."""
    from sqlalchemy import inspect

    migrate.upgrade(store)
    with store.engine.connect() as conn:
        found = inspect(conn)
        assert found.get_indexes("rate_hits") == []
        assert found.get_pk_constraint("rate_hits")["constrained_columns"] == ["key", "at", "tie"]
        if store.engine.dialect.name == "sqlite":
            sql = conn.execute(
                text("SELECT sql FROM sqlite_master WHERE name = 'rate_hits'")
            ).scalar_one()
            assert "WITHOUT ROWID" in sql.upper()


def test_0010_carries_the_last_minutes_rate_hits(store):
    """The hits of the last minute survive the upgrade (a credential does not get a fresh
    limit from it), and back down again."""
    from adjudicator.auth import ratelimit, store_time

    migrate.upgrade(store, "0009_labels_event_partial_index")
    now = store_time.utcnow()
    with store.connection(write=True) as conn:
        conn.execute(
            text("INSERT INTO rate_hits (key, at) VALUES ('app:1', :a), ('app:1', :a)"),
            {"a": now},
        )
    migrate.upgrade(store)
    with store.connection(write=True) as conn:
        assert ratelimit.hit(conn, "app:1", 3, now) == 0
        assert ratelimit.hit(conn, "app:1", 3, now) == 60  # the two carried count
    command.downgrade(migrate._config(store), "0009_labels_event_partial_index")
    with store.connection() as conn:
        assert conn.execute(text("SELECT count(*) FROM rate_hits")).scalar_one() == 3
    migrate.upgrade(store)


def test_0011_keys_counts_and_labels_under_precis_and_reports_what_it_joined(store, caplog):
    """0011: counts kept apart by an invisible character or another dash are one count now,
    each join and each character dropped reported; the searched labels are the PRECIS forms;
    and it goes down and up again."""
    migrate.upgrade(store, "0010_rate_hits_one_btree")
    with store.connection(write=True) as conn:
        conn.execute(
            text(
                "INSERT INTO rulings (ruling_id, created_at, kind, ruleset, lexicon_id,"
                " lexicon_sha256, caller_kind, caller_id, caller_name, words, prev_hash, hash,"
                " event, game, player) VALUES ('r1', '2026-01-01 00:00:00', 'jury', 'x', 'l',"
                " 's', 'anonymous', '', 'anonymous', '[{\"word\": \"WOORD\"}]', 'p', 'h',"
                " 'NK', :game, :player)"
            ),
            {"game": "R3\u2010T12", "player": "Anna\u3164"},
        )
        conn.execute(
            text("INSERT INTO ruling_labels (seq, game, player) VALUES (1, :game, :player)"),
            {"game": "r3\u2010t12", "player": "anna\u3164"},
        )
        for game, player, words in (
            ("r3-t12", "anna", 10),
            ("r3\u2010t12", "anna", 1),
            ("r3-t12", "anna\ufe0f", 2),
            ("r3\u2212t12", "bo", 4),
        ):
            conn.execute(
                text(
                    "INSERT INTO jury_words (event, game, player, words, updated_at)"
                    " VALUES ('nk', :g, :p, :w, '2026-12-01 10:00:00')"
                ),
                {"g": game, "p": player, "w": words},
            )
    with caplog.at_level("WARNING", logger="adjudicator.migrations"):
        migrate.upgrade(store, "0012_precis_labels")
    with store.connection() as conn:
        counts = conn.execute(text("SELECT game, player, words FROM jury_words ORDER BY player"))
        searched = conn.execute(text("SELECT game, player, words FROM ruling_labels")).all()
    assert [tuple(r) for r in counts] == [("r3-t12", "anna", 13), ("r3-t12", "bo", 4)]
    assert [tuple(r) for r in searched] == [("r3-t12", "anna", "woord")]
    said = caplog.text
    assert "U+FE0F VARIATION SELECTOR-16" in said and "U+3164 HANGUL FILLER" not in said
    assert "are now one" in said and "'anna\\ufe0f'" in said and "13 words" in said
    command.downgrade(migrate._config(store), "0010_rate_hits_one_btree")
    migrate.upgrade(store)
    assert migrate.current(store) == migrate.heads()


def test_labels_collisions_lists_the_spellings_made_one(store, capsys):
    """`adjudicator labels collisions`: the log's labels that are one under their profiles, a
    character the profile refuses shown escaped; exit 1 when there is any, 0 when none."""
    url = store.url.render_as_string(hide_password=False)
    migrate.upgrade(store)
    assert main(["labels", "collisions", "--database-url", url]) == 0
    assert capsys.readouterr().out.strip() == "no collisions"
    command.downgrade(migrate._config(store), "0010_rate_hits_one_btree")
    with store.connection(write=True) as conn:
        for n, (game, player) in enumerate((("R3-T12", "Anna\ufe0f"), ("R3\u2212T12", "Anna"))):
            conn.execute(
                text(
                    "INSERT INTO rulings (ruling_id, created_at, kind, ruleset, lexicon_id,"
                    " lexicon_sha256, caller_kind, caller_id, caller_name, words, prev_hash,"
                    " hash, game, player) VALUES (:id, '2026-01-01 00:00:00', 'jury', 'x', 'l',"
                    " 's', 'anonymous', '', 'anonymous', '[]', 'p', :hash, :game, :player)"
                ),
                {"id": f"r{n}", "hash": f"h{n}", "game": game, "player": player},
            )
    migrate.upgrade(store)
    assert main(["labels", "collisions", "--database-url", url]) == 1
    said = capsys.readouterr().out
    assert "log: game 'r3-t12': 'R3-T12', 'R3\u2212T12' = 'R3\\u2212T12'" in said
    assert "log: player 'anna': 'Anna', 'Anna\ufe0f' = 'Anna\\ufe0f'" in said
    assert "(without U+FE0F VARIATION SELECTOR-16)" in said
    assert said.strip().endswith("2 label(s) made one by their profiles")


def _rulings_as_stored(store) -> list[tuple]:
    with store.connection() as conn:
        return [tuple(r) for r in conn.execute(text("SELECT * FROM rulings ORDER BY seq"))]


def _rulings_guards(store) -> list[tuple]:
    """The triggers and indexes on `rulings` as the database defines them (but a constraint's
    index: the constraints are compared apart)."""
    if store.is_sqlite:
        sql = (
            "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'rulings'"
            " AND type IN ('trigger', 'index') AND sql IS NOT NULL ORDER BY name"
        )
    else:
        sql = (
            "SELECT 'trigger', tgname, pg_get_triggerdef(oid) FROM pg_trigger"
            " WHERE tgrelid = 'rulings'::regclass AND NOT tgisinternal"
            " UNION ALL SELECT 'index', indexname, indexdef FROM pg_indexes"
            " WHERE tablename = 'rulings' AND indexname NOT IN"
            " (SELECT conname FROM pg_constraint WHERE conrelid = 'rulings'::regclass)"
            " ORDER BY 2"
        )
    with store.connection() as conn:
        return [tuple(r) for r in conn.execute(text(sql))]


def _rulings_constraints(store) -> tuple[list, list]:
    from sqlalchemy import inspect

    with store.engine.connect() as conn:
        found = inspect(conn)
        unique = sorted(c["column_names"] for c in found.get_unique_constraints("rulings"))
        checks = sorted(c["name"] for c in found.get_check_constraints("rulings"))
    return unique, checks


def _refuses_every_change_but_an_append(store) -> None:
    """UPDATE, DELETE, a row past the head, a row below the chain and a second entry under a
    ruling id are each refused, and nothing of them is written."""
    from adjudicator.audit.tests.test_tampering import forged, insert

    with store.connection() as conn:
        head_seq, head_hash = conn.execute(text("SELECT seq, hash FROM audit_head")).one()
        count = conn.execute(text("SELECT count(*) FROM rulings")).scalar()
        first_id = conn.execute(text("SELECT ruling_id FROM rulings ORDER BY seq")).first()[0]
    refused = [
        lambda conn: conn.execute(text("UPDATE rulings SET verdict = 'valid'")),
        lambda conn: conn.execute(text("DELETE FROM rulings WHERE seq = :s"), {"s": head_seq}),
        lambda conn: insert(conn, forged(head_seq + 2, head_hash)),  # past the head
        lambda conn: insert(conn, forged(0)),  # below the chain (the CHECK, and the trigger)
        lambda conn: insert(conn, forged(head_seq + 1, head_hash) | {"ruling_id": first_id}),
    ]
    for change in refused:
        with pytest.raises(DBAPIError), store.connection(write=True) as conn:
            change(conn)
    with store.connection() as conn:
        assert conn.execute(text("SELECT count(*) FROM rulings")).scalar() == count
        assert conn.execute(text("SELECT seq, hash FROM audit_head")).one() == (head_seq, head_hash)


def test_0014_drops_the_hash_index_keeping_every_row_trigger_and_check(store):
    """Issue 38: 0014 takes the UNIQUE constraint (and its index) off `rulings.hash`. On SQLite
    that rebuilds the table, which drops its triggers silently: after the upgrade (and after the
    way back) the rows are as they were, byte for byte and by seq, every trigger and index is
    there with its definition, the CHECK and the unique ruling id hold, the database still
    refuses every change but an append at the head, and the chain verifies and grows."""
    from adjudicator.audit import chain
    from adjudicator.audit.groupcommit import GroupCommit
    from adjudicator.audit.tests.test_groupcommit import append

    def verified(entries: int) -> None:
        with store.connection() as conn:
            found = chain.verify(conn)
        assert found.ok and (found.entries, found.head_seq) == (entries, entries)

    migrate.upgrade(store, "0013_lexicon_editions")
    writer = GroupCommit(store)
    assert [writer.submit(append(f"r{i}")) for i in range(5)] == [1, 2, 3, 4, 5]
    rows, guards = _rulings_as_stored(store), _rulings_guards(store)
    assert len(guards) >= 3  # the append-only and at-head triggers at least
    assert _rulings_constraints(store) == ([["hash"], ["ruling_id"]], ["ck_rulings_seq_positive"])

    migrate.upgrade(store)
    assert _rulings_as_stored(store) == rows
    assert _rulings_guards(store) == guards
    assert _rulings_constraints(store) == ([["ruling_id"]], ["ck_rulings_seq_positive"])
    verified(5)
    _refuses_every_change_but_an_append(store)
    assert GroupCommit(store).submit(append("r5")) == 6
    verified(6)
    rows = _rulings_as_stored(store)

    command.downgrade(migrate._config(store), "0013_lexicon_editions")
    assert _rulings_as_stored(store) == rows
    assert _rulings_guards(store) == guards
    assert _rulings_constraints(store) == ([["hash"], ["ruling_id"]], ["ck_rulings_seq_positive"])
    verified(6)
    _refuses_every_change_but_an_append(store)
    migrate.upgrade(store)
    assert migrate.current(store) == migrate.heads()
    assert _rulings_guards(store) == guards
    verified(6)
