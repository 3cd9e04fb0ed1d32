"""An entry as the append writes it (straight to the driver, issue 38) is what SQLAlchemy's own
insert writes, value for value and type for type, and its searched words are what the earlier
(generator-built) definition gave: the log's rows do not change with the path that writes them."""

from __future__ import annotations

import json
from datetime import datetime

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from adjudicator.audit import chain
from adjudicator.audit.tests.test_groupcommit import entry
from adjudicator.store import Store, driver, migrate
from adjudicator.store.labelforms import canonical_words, stored_key

JSON_COLUMNS = ("words", "consequence")


def _earlier_canonical_words(words):
    """`canonical_words` as it was written before its loop (the reference)."""
    if not isinstance(words, list):
        return None
    found = [w.get("word") if isinstance(w, dict) else None for w in words]
    keys = (stored_key("words", w)[0] for w in found if isinstance(w, str))
    return " ".join(k for k in keys if k) or None


_word = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["HEJ", "blåbær", "BLÅBÆR", " ", "", "A\ufe0f", "ÆØÅ", "ℌ"]),
)
_item = st.one_of(
    st.fixed_dictionaries({"word": _word, "input": st.text(max_size=4)}),
    st.fixed_dictionaries({"word": st.one_of(st.none(), st.integers())}),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.text(max_size=4),
    st.none(),
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(_item, max_size=5), st.none(), st.text(max_size=4)))
def test_the_searched_words_are_as_before(words):
    assert canonical_words(words) == _earlier_canonical_words(words)


def _stored(tmp_path, name: str, write) -> list[tuple]:
    store = Store(f"sqlite:///{tmp_path / name}.db")
    try:
        migrate.upgrade(store)
        with store.connection(write=True) as conn:
            head, _ = chain.lock_for_append(conn)
            rows = [
                chain.link(head, {**entry("a1"), "consequence": {"penalty": None}}),
                chain.link(head, {**entry("b2"), "event": "NK", "play": "8H OM", "verdict": None}),
            ]
            write(conn, rows)
        columns = ", ".join(f"{c}, typeof({c})" for c in chain.COLUMNS)
        with store.connection() as conn:
            found = conn.execute(text(f"SELECT {columns} FROM rulings")).all()
        # JSON as values: the driver writes orjson's compact text, SQLAlchemy json.dumps'
        return [
            tuple((json.loads(v) if c in JSON_COLUMNS and t == "text" else v, t) for c, v, t in r)
            for r in (zip(chain.COLUMNS, row[::2], row[1::2], strict=True) for row in found)
        ]
    finally:
        store.dispose()


def _by_driver(conn, rows) -> None:
    """The append's own INSERT of `rows` (`chain.write` without the labels)."""
    sql = chain._sql(conn)
    cursor = driver.cursor(conn)
    cursor.executemany(sql.insert, [sql.params(row) for row in rows])
    cursor.close()


def test_the_driver_writes_the_entry_as_sqlalchemy_would(tmp_path, monkeypatch):
    monkeypatch.setattr(chain, "utcnow", lambda: datetime(2026, 12, 5, 2, 3, 4, 56))
    by_driver = _stored(tmp_path, "driver", _by_driver)
    by_sqlalchemy = _stored(tmp_path, "orm", lambda conn, rows: conn.execute(chain._insert, rows))
    assert by_driver == by_sqlalchemy
    assert (
        len(by_driver) == 2 and (None, "null") in by_driver[0]
    )  # Nones bound as NULL on both paths
