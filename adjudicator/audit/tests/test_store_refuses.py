"""A store that refuses to record rulings (issue 35, item 4): a damaged audit log or a full
database answers every ruling 503 `store_refuses_writes`, never 500, writes nothing half-way,
and readyz reports not ready with the cause. The store is really damaged: a trigger dropped,
the head moved, SQLite's `max_page_count` set to the pages it has (a full disk, portably)."""

from __future__ import annotations

import pytest
from sqlalchemy import event, text

from adjudicator import create_app
from adjudicator.audit import chain
from adjudicator.store import Store, migrate

JURY = {"words": ["woord"], "game": "g1", "player": "Anna"}
# Every route whose answer is a recorded ruling, with a body it answers.
RULINGS = {
    "/api/v1/rulesets/sbnl-punten/challenge": JURY,
    "/api/v1/rulesets/sbnl-punten/moves/validate": {"play": "8H KAT", "game": "g1", "player": "Bo"},
    "/api/v1/rulesets/dsf-2015/challenge": {"words": ["kat"]},
    "/api/v1/rulesets/dsf-2015/moves/validate": {"play": "8H KAT"},
}
WRITTEN = ("rulings", "ruling_labels", "jury_words", "idempotency_keys")


@pytest.fixture
def app(database_url, lexicon_dir):
    migrate.upgrade(Store(database_url))
    return create_app(
        {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "DATABASE_URL": database_url,
            "JURY_LIMIT": "on",
        }
    )


def counts(app) -> dict[str, int]:
    with app.extensions["store"].connection() as conn:
        return {t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in WRITTEN}


def head(app) -> tuple[int, str]:
    with app.extensions["store"].connection() as conn:
        return tuple(conn.execute(text("SELECT seq, hash FROM audit_head")).one())


def damage(app, *statements: str) -> None:
    with app.extensions["store"].connection(write=True) as conn:
        for statement in statements:
            conn.execute(text(statement))


def rule_on_everything(app, cause: str, rulings: dict | None = None) -> None:
    client = app.test_client()
    before, head_before = counts(app), head(app)
    for i, (path, body) in enumerate((rulings or RULINGS).items()):
        answer = client.post(path, json=body, headers={"Idempotency-Key": f"k{i}"})
        assert answer.status_code == 503, (path, answer.get_data(as_text=True))
        assert answer.json["code"] == "store_refuses_writes" and answer.json["cause"] == cause
        assert answer.headers["Retry-After"]
        assert "ruling" not in answer.json
    assert counts(app) == before and head(app) == head_before  # nothing written half-way
    ready = client.get("/api/v1/readyz")
    assert ready.status_code == 503 and ready.json["ready"] is False
    assert ready.json["store"] == {"reachable": True, "writable": False, "cause": cause}


def test_a_sound_store_takes_rulings_and_is_ready(app):
    client = app.test_client()
    for path, body in RULINGS.items():
        assert client.post(path, json=body).status_code == 200
    ready = client.get("/api/v1/readyz").json
    assert ready["ready"] is True
    assert ready["store"] == {"reachable": True, "writable": True, "cause": None}
    with app.extensions["store"].connection() as conn:
        assert chain.verify(conn).ok


@pytest.mark.parametrize("rulings_first", [0, 2])
def test_a_dropped_insert_trigger(app, rulings_first):
    """Without the trigger the first ruling wrote its entry beside the chain (the head never
    moved) and the next one failed with IntegrityError, a 500."""
    client = app.test_client()
    for path, body in list(RULINGS.items())[:rulings_first]:
        assert client.post(path, json=body).status_code == 200
    store = app.extensions["store"]
    damage(app, "DROP TRIGGER rulings_insert_at_head" + ("" if store.is_sqlite else " ON rulings"))
    rule_on_everything(app, "audit_log_damaged")


@pytest.mark.parametrize(
    "moved",
    [
        "UPDATE audit_head SET seq = seq - 1",  # back: the next seq is taken (IntegrityError)
        "UPDATE audit_head SET seq = seq + 5",  # forward: a gap in the chain
        "UPDATE audit_head SET hash = '" + "a" * 64 + "'",  # another hash: a fork
    ],
    ids=["back", "forward", "hash"],
)
def test_a_head_out_of_step(app, moved):
    client = app.test_client()
    for path, body in list(RULINGS.items())[:2]:
        assert client.post(path, json=body).status_code == 200
    damage(app, moved)
    rule_on_everything(app, "audit_log_damaged")


def test_a_full_database(app):
    store = app.extensions["store"]
    if not store.is_sqlite:
        pytest.skip("a full PostgreSQL disk needs a filesystem of its own; SQLite's limit is one")
    client = app.test_client()
    capped: list[int] = []

    def no_more_pages(conn) -> None:  # every transaction, on every connection, once capped
        if capped:
            conn.connection.dbapi_connection.execute(f"PRAGMA max_page_count = {capped[0]}")

    event.listen(store.engine, "begin", no_more_pages)
    path, body = next(iter(RULINGS.items()))
    assert client.post(path, json=body).status_code == 200
    with store.connection() as conn:
        capped.append(conn.exec_driver_sql("PRAGMA page_count").scalar_one())
    # fill what room is left, as a round of rulings would, until no ruling fits any more
    for i in range(2000):
        rulings = {
            path: body | {"player": f"p{i}", "table": f"{i:064d}"} for path, body in RULINGS.items()
        }
        filled = [client.post(path, json=body) for path, body in rulings.items()]
        if all(answer.status_code != 200 for answer in filled):
            break
    assert [answer.json.get("cause") for answer in filled] == ["store_full"] * len(RULINGS)
    rule_on_everything(app, "store_full", rulings)


def test_readiness_never_takes_another_writers_append_for_damage(app):
    """Two instances on one PostgreSQL: readyz read the head and the last entry in two
    statements, each its own snapshot at READ COMMITTED, and an append by the other instance
    between them read as a damaged log (503, `audit_log_damaged`) under load. The check reads
    one snapshot now; here a writer appends all the while it runs."""
    import threading

    from adjudicator.audit import health

    store = app.extensions["store"]
    stop = threading.Event()

    def write() -> None:
        client = app.test_client()
        while not stop.is_set():
            answer = client.post("/api/v1/rulesets/ssf-1999/challenge", json={"words": ["hej"]})
            assert answer.status_code == 200

    writer = threading.Thread(target=write)
    writer.start()
    try:
        seen = [health.writable(app, store) for _ in range(300)]
    finally:
        stop.set()
        writer.join()
    assert seen == [None] * 300
