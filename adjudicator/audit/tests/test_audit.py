"""The audit log, jury limits and idempotent retries, in process, on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from flask import g
from sqlalchemy import text

import adjudicator
from adjudicator import create_app, store
from adjudicator.audit import chain
from adjudicator.auth import keys, store_time
from adjudicator.auth.caller import Caller
from adjudicator.catalogue import rulesets
from adjudicator.cli import main
from adjudicator.settings import ConfigError, current_settings
from adjudicator.store import Store, migrate

CHALLENGE = "/api/v1/rulesets/{}/challenge"
JURY = CHALLENGE.format("sbnl-punten")


@pytest.fixture
def make_app(database_url, lexicon_dir):
    migrate.upgrade(Store(database_url))

    def make(**config):
        return create_app(
            {"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": database_url}
            | config
        )

    return make


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


def entries(app) -> list[dict]:
    with app.extensions["store"].connection() as conn:
        return [s.row for s in chain.stored(conn)]


def verify(app) -> chain.Verification:
    with app.extensions["store"].connection() as conn:
        return chain.verify(conn)


def test_a_challenge_is_logged_before_the_answer(app, client):
    answer = client.post(
        CHALLENGE.format("ssf-1999"),
        json={"words": ["ord", "qqq"], "event": "SM 2027", "round": "4", "table": " 7 "},
    ).json
    (entry,) = entries(app)
    assert entry["ruling_id"] == answer["ruling_id"]
    assert entry["seq"] == 1 and entry["prev_hash"] == "0" * 64
    assert entry["kind"] == "challenge" and entry["ruleset"] == "ssf-1999"
    assert entry["lexicon_id"] == answer["lexicon"]["id"] == "wswedish"
    assert entry["lexicon_sha256"] == answer["lexicon"]["sha256"]
    assert (entry["caller_kind"], entry["caller_name"]) == ("anonymous", "anonymous")
    assert (entry["event"], entry["round"], entry["table_label"]) == ("SM 2027", "4", "7")
    assert entry["words"] == answer["words"]  # as answered: under `play`, no per-word verdict
    assert entry["verdict"] == "invalid" and entry["consequence"] == answer["consequence"]
    assert entry["hash"] == chain.entry_hash(entry)


def test_a_validated_move_is_logged(app, client):
    answer = client.post(
        "/api/v1/rulesets/dsf-2015/moves/validate", json={"play": "8H HEJ", "game": "g1"}
    ).json
    (entry,) = entries(app)
    assert (entry["kind"], entry["play"], entry["game"]) == ("move", "8H HEJ", "g1")
    assert entry["verdict"] == answer["ruling"] == "valid"
    assert entry["consequence"] == {"legal": True, "errors": [], "score": answer["score"]}


def test_refused_requests_are_not_logged(app, client):
    assert client.post(CHALLENGE.format("ssf-1999"), json={"words": ["o2d"]}).status_code == 400
    assert (
        client.post(CHALLENGE.format("ssf-1999"), json={"words": ["ord"], "round": 3}).json["code"]
        == "wrong_shape"
    )
    too_long = {"words": ["ord"], "event": "x" * 65}
    assert client.post(CHALLENGE.format("ssf-1999"), json=too_long).json["code"] == "label_length"
    control = {"words": ["ord"], "player": "a\x07"}
    assert client.post(CHALLENGE.format("ssf-1999"), json=control).json["field"] == "player"
    assert entries(app) == []


def test_the_chain_links_every_entry_and_verifies(app, client):
    for words in (["ord"], ["hej", "spel"], ["zzz"]):
        client.post(CHALLENGE.format("dsf-2015"), json={"words": words})
    log = entries(app)
    assert [e["seq"] for e in log] == [1, 2, 3]
    assert [e["prev_hash"] for e in log[1:]] == [e["hash"] for e in log[:-1]]
    result = verify(app)
    assert result.ok and result.entries == 3 and result.head_hash == log[-1]["hash"]


def _drop_triggers(conn, store) -> None:
    """What someone with the database's password could do first."""
    if store.is_sqlite:
        conn.execute(text("DROP TRIGGER rulings_no_update"))
        conn.execute(text("DROP TRIGGER rulings_no_delete"))
    else:
        conn.execute(text("DROP TRIGGER rulings_no_change ON rulings"))


def test_an_edited_entry_is_named(app, client, capsys):
    for words in (["ord"], ["hej"], ["zzz"]):
        client.post(CHALLENGE.format("dsf-2015"), json={"words": words})
    store = app.extensions["store"]
    with store.connection(write=True) as conn:
        _drop_triggers(conn, store)
        conn.execute(text("UPDATE rulings SET verdict = 'valid' WHERE seq = 3"))
    result = verify(app)
    assert len(result.problems) == 1
    assert "entry seq 3" in result.problems[0] and "edited" in result.problems[0]
    url = str(store.url.render_as_string(hide_password=False))
    assert main(["audit", "verify", "--database-url", url]) == 1
    out = capsys.readouterr().out
    assert "entry seq 3" in out and "BROKEN" in out


def test_removed_entries_show(app, client):
    for words in (["ord"], ["hej"], ["zzz"], ["kat"]):
        client.post(CHALLENGE.format("dsf-2015"), json={"words": words})
    store = app.extensions["store"]
    with store.connection(write=True) as conn:
        _drop_triggers(conn, store)
        conn.execute(text("DELETE FROM rulings WHERE seq IN (2, 4)"))
    problems = verify(app).problems
    assert any("entries 2..2 are missing" in p for p in problems)
    assert any("entry seq 3" in p and "does not follow" in p for p in problems)
    assert any("head names entry seq 4" in p for p in problems)


def test_verify_and_export_cli(app, client, capsys):
    client.post(CHALLENGE.format("dsf-2015"), json={"words": ["kat", "qzx"], "table": "5"})
    client.post(JURY, json={"words": ["woord"], "game": "g", "player": "p"})
    url = app.extensions["store"].url.render_as_string(hide_password=False)
    assert main(["audit", "verify", "--database-url", url]) == 0
    assert "2 entries; chain intact" in capsys.readouterr().out
    assert main(["audit", "export", "--format", "json", "--database-url", url]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert [e["kind"] for e in exported] == ["challenge", "jury"]
    assert exported[0]["words"][1] == {"input": "qzx", "word": "QZX", "valid": False}
    assert all(e["hash"] == chain.entry_hash(_parsed(e)) for e in exported)
    args = ["audit", "export", "--format", "csv", "--lang", "en", "--database-url", url]
    assert main(args) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out.removeprefix("\ufeff"))))
    assert [r["Table"] for r in rows] == ["5", ""]
    with app.app_context():  # the consequence in words, the ruleset's own, not its JSON
        said = rulesets()["sbnl-punten"].consequence(True, 1)["text"]["en"]
    assert rows[1]["Consequence"] == said


def test_csv_export_defuses_formulas_and_json_keeps_them(app, client, capsys):
    """Labels are free text a tablet or app sends: in the CSV a director opens in a spreadsheet,
    none may run as a formula; the JSON export keeps each value exactly as the chain hashed it."""
    labels = {"player": '=HYPERLINK("http://x.example","?")', "event": "+1", "round": "-2"}
    client.post(JURY, json={"words": ["woord"], "game": "@g", **labels})
    url = app.extensions["store"].url.render_as_string(hide_password=False)
    args = ["audit", "export", "--format", "csv", "--lang", "en", "--database-url", url]
    assert main(args) == 0
    (row,) = csv.DictReader(io.StringIO(capsys.readouterr().out.removeprefix("\ufeff")))
    assert row["Player"] == '\'=HYPERLINK("http://x.example","?")'
    assert (row["Event"], row["Round"], row["Game"]) == ("'+1", "'-2", "'@g")
    assert row["Ruleset"] == "sbnl-punten" and row["Kind"] == "jury"  # others as they are
    assert main(["audit", "export", "--format", "json", "--database-url", url]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert (entry["player"], entry["game"]) == (labels["player"], "@g")
    assert entry["hash"] == chain.entry_hash(_parsed(entry))


def _formula_starts() -> list[str]:
    """Every character Unicode folds (NFKC) to text that starts with a formula's first
    character: derived, never listed by hand."""
    from adjudicator.audit.sheet import FORMULA_STARTS

    every = (chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    return [ch for ch in every if unicodedata.normalize("NFKC", ch).startswith(FORMULA_STARTS)]


def test_csv_export_defuses_every_form_of_a_formula_start():
    """Issue 35 (break 9): a fullwidth `＝` (and `＋ － ＠`, the small and superscript forms,
    …) starts a formula as the ASCII one does, and gets the same apostrophe, in the export a
    director downloads (adjudicator.audit.sheet) as in the command line's."""
    from adjudicator.audit import search, sheet

    starts = _formula_starts()
    assert {"=", "＝", "＋", "－", "＠", "﹦", "⁼", "\t", "\r"} <= set(starts)
    base = {name: None for name in chain.COLUMNS} | {"created_at": datetime(2027, 1, 1)}

    def players(names: list[str]) -> list[str]:
        rows = [base | {"seq": i, "player": p, "words": []} for i, p in enumerate(names)]
        out = io.StringIO()
        assert sheet.write_csv(map(search.item, rows), out, "en", None) == len(names)
        out.seek(1)  # past the BOM
        column = sheet.headings("en")[sheet.COLUMNS.index("player")]
        return [row[column] for row in csv.DictReader(out)]

    assert players([f"{ch}1+1" for ch in starts]) == [f"'{ch}1+1" for ch in starts]
    # and nothing else: a letter, a digit, a dash that folds to no `-`
    assert players(["A=1", "1-1", "−1"]) == ["A=1", "1-1", "−1"]


def _parsed(item: dict) -> dict:
    from datetime import datetime

    return item | {"created_at": datetime.strptime(item["created_at"], "%Y-%m-%dT%H:%M:%S.%fZ")}


# --- jury limits --------------------------------------------------------------------------------


@pytest.fixture
def jury(make_app):
    """A client of an event that counts jury queries (`ADJUDICATOR_JURY_LIMIT=on`), and a
    shorthand for a query: words, then labels."""
    client = make_app(JURY_LIMIT="on").test_client()

    def ask(words=("woord",), **labels):
        return client.post(JURY, json={"words": list(words), **labels})

    return ask


def test_jury_queries_are_counted_per_game_and_player(app, make_app):
    client = make_app(JURY_LIMIT="on").test_client()
    ask = lambda **labels: client.post(JURY, json={"words": ["woord"], **labels})  # noqa: E731
    remaining = [ask(game="g1", player="Anna").json["queries_remaining"] for _ in range(10)]
    assert remaining == [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    refused = ask(game="g1", player="Anna")
    assert refused.status_code == 409 and refused.json["code"] == "jury_limit_reached"
    assert "Limiet bereikt" in refused.json["detail"] and "Limit reached" in refused.json["detail"]
    assert refused.json["queries_remaining"] == 0
    assert "ruling" not in refused.json and "GELDIG" not in refused.get_data(as_text=True)
    assert ask(game="g1", player="Bo").json["queries_remaining"] == 9  # another player
    assert ask(game="g2", player="Anna").json["queries_remaining"] == 9  # another game
    log = entries(app)
    assert len(log) == 12 and {e["kind"] for e in log} == {"jury"}  # the refusal left none


def test_a_query_uses_one_of_the_limit_per_word(jury):
    """SBNL 003 counts words ("10 woorden per speler"), not queries."""
    assert jury(["hallo", "woord", "boom"], game="g1", player="Anna").json["queries_remaining"] == 7
    refused = jury(["woord"] * 8, game="g1", player="Anna")  # would pass the limit: refused whole
    assert refused.status_code == 409 and refused.json["code"] == "jury_limit_reached"
    assert refused.json["queries_remaining"] == 7
    assert "nog 7" in refused.json["detail"] and "7 may still" in refused.json["detail"]
    assert jury(["woord"] * 7, game="g1", player="Anna").json["queries_remaining"] == 0
    assert jury(game="g1", player="Anna").status_code == 409


@pytest.mark.parametrize(
    ("field", "first", "again"),
    [
        ("player", "Anna", "anna"),  # case
        ("player", "Anna", "ANNA"),
        ("player", "Anna", "Ａnna"),  # a fullwidth letter (NFKC)
        ("player", "Anna de Vries", "Anna  de   Vries"),  # inner whitespace
        ("game", "r3-t12", "R3-T12"),
        ("game", "r3-t12", "r\u0663-t12"),  # an Arabic-Indic digit three
    ],
    ids=["lower", "upper", "fullwidth", "inner-space", "game-case", "game-digit"],
)
def test_a_label_spelt_another_way_counts_as_the_same(jury, field, first, again):
    labels = {"game": "r3-t12", "player": "Anna"}
    for _ in range(10):
        assert jury(**labels | {field: first}).status_code == 200
    refused = jury(**labels | {field: again})
    assert refused.status_code == 409 and refused.json["code"] == "jury_limit_reached"


def test_another_event_named_in_the_request_starts_no_new_count(jury):
    """The count is the service's event's (`ADJUDICATOR_EVENT`), never the request's."""
    for _ in range(10):
        jury(event="NK 2027", game="g1", player="Anna")
    for event in ("NK 2028", "nk 2027"):
        assert jury(event=event, game="g1", player="Anna").status_code == 409
    assert jury(game="g1", player="Anna").status_code == 409  # no event at all


def test_the_event_setting_keeps_each_events_counts(make_app):
    def ask(event: str):
        client = make_app(JURY_LIMIT="on", EVENT=event).test_client()
        return client.post(JURY, json={"words": ["woord"] * 8, "game": "g1", "player": "Anna"})

    assert ask("NK 2027").json["queries_remaining"] == 2
    assert ask("NK 2028").json["queries_remaining"] == 2  # another event: its own count
    assert ask(" nk  2027").status_code == 409  # the same event, spelt another way


@pytest.mark.parametrize("field", ["player", "game", "event", "table"])
def test_a_label_mixing_scripts_is_refused(app, jury, field):
    labels = {"game": "g1", "player": "Anna"} | {field: "\u0410nna"}  # Cyrillic А + Latin
    refused = jury(**labels)
    assert refused.status_code == 400 and refused.json["code"] == "label_mixed_scripts"
    assert refused.json["field"] == field
    assert entries(app) == []
    assert jury(game="g1", player="東京タワー").status_code == 200  # Japanese: written together
    assert jury(game="g1", player="Ωμέγα").status_code == 200  # one script, not Latin


def test_the_limit_applies_where_the_ruleset_and_the_event_say(make_app):
    """sbnl-punten: at tournaments (003: "op landelijke Scrabbletoernooien"); an event's
    ADJUDICATOR_JURY_LIMIT says otherwise."""
    body = {"words": ["woord"], "game": "g1", "player": "Anna"}
    home = make_app().test_client().post(JURY, json=body).json
    assert home["queries_remaining"] is None  # open mode: a home or club game is not counted
    assert (
        make_app(JURY_LIMIT="on").test_client().post(JURY, json=body).json["queries_remaining"] == 9
    )
    strict = make_app(MODE="tournament", JURY_LIMIT="off")
    with strict.app_context(), store.connection(write=True) as conn:
        key = keys.create(conn, "scorer", "app", [], set(rulesets()), store_time.now()).key
    answer = strict.test_client().post(JURY, json=body, headers={"Authorization": f"Bearer {key}"})
    assert answer.json["queries_remaining"] is None


def test_an_unknown_jury_limit_setting_stops_the_start(make_app):
    with pytest.raises(ConfigError, match="ADJUDICATOR_JURY_LIMIT"):
        make_app(JURY_LIMIT="sometimes")
    with pytest.raises(ConfigError, match="ADJUDICATOR_EVENT"):
        make_app(EVENT="x" * 65)
    assert current_settings(make_app(EVENT=2027)).event_key == "2027"  # ADJUDICATOR_EVENT=2027


def test_jury_query_without_game_open_and_tournament_mode(make_app):
    open_client = make_app().test_client()
    answer = open_client.post(JURY, json={"words": ["woord"]}).json
    assert answer["ruling"] == "valid" and answer["queries_remaining"] is None
    strict = make_app(MODE="tournament")
    with strict.app_context(), store.connection(write=True) as conn:
        key = keys.create(conn, "scorer", "app", [], set(rulesets()), store_time.now()).key
    auth = {"Authorization": f"Bearer {key}"}
    refused = strict.test_client().post(JURY, json={"words": ["woord"], "game": "g1"}, headers=auth)
    assert refused.status_code == 400 and refused.json["field"] == "player"
    counted = strict.test_client().post(
        JURY, json={"words": ["woord", "boom"], "game": "g1", "player": "Anna"}, headers=auth
    )
    assert counted.json["queries_remaining"] == 8  # two words
    assert (entries(strict)[-1]["caller_kind"], entries(strict)[-1]["caller_name"]) == (
        "app",
        "scorer",
    )


WORDS_LEFT = "/api/v1/rulesets/{}/jury"


def test_the_words_left_are_read_as_the_next_query_would_say(app, make_app):
    """The kiosk asks before each query (issue 36.5): the same count, in the labels' canonical
    form, and reading it counts nothing and records nothing."""
    client = make_app(JURY_LIMIT="on").test_client()
    read = lambda **q: client.get(WORDS_LEFT.format("sbnl-punten"), query_string=q)  # noqa: E731
    fresh = read(game="g1", player="Anna")
    assert fresh.status_code == 200 and fresh.headers["Cache-Control"] == "no-store"
    assert fresh.json == {"ruleset": "sbnl-punten", "limit": 10, "queries_remaining": 10}
    body = {"words": ["hallo", "woord", "boom"], "game": "g1", "player": "Anna"}
    assert client.post(JURY, json=body).json["queries_remaining"] == 7
    for _ in range(3):
        assert read(game="G1", player=" ANNA ").json["queries_remaining"] == 7
    assert read(game="g1", player="Bo").json["queries_remaining"] == 10
    assert len(entries(app)) == 1  # the reads left no record
    assert client.post(JURY, json=body | {"words": ["woord"] * 7}).json["queries_remaining"] == 0
    assert read(game="g1", player="Anna").json["queries_remaining"] == 0
    # open mode without labels: uncounted, as a query would be; a bad label as a query's
    assert read().json["queries_remaining"] is None
    mixed = read(game="g1", player="\u0410nna")
    assert mixed.status_code == 400 and mixed.json["code"] == "label_mixed_scripts"
    assert read(game="g1", player="Anna", words="x").json["code"] == "unknown_field"


def test_the_words_left_say_nothing_where_nothing_is_counted(make_app):
    home = make_app().test_client()  # open mode: sbnl-punten counts only at tournaments
    answer = home.get(WORDS_LEFT.format("sbnl-punten"), query_string={"game": "g", "player": "A"})
    assert answer.json == {"ruleset": "sbnl-punten", "limit": None, "queries_remaining": None}
    other = home.get(WORDS_LEFT.format("ssf-1999"), query_string={"game": "g", "player": "A"})
    assert other.json["limit"] is None and other.json["queries_remaining"] is None
    assert home.get(WORDS_LEFT.format("nope")).status_code == 404


def test_the_words_left_need_a_querys_credential_and_use_no_ruling(make_app):
    """Tournament mode: a credential for the ruleset, game and player named; the reads are not
    counted against the device's or key's rulings per minute."""
    strict = make_app(MODE="tournament", RATE_RULINGS_PER_MINUTE=2)
    with strict.app_context(), store.connection(write=True) as conn:
        key = keys.create(conn, "scorer", "app", [], set(rulesets()), store_time.now()).key
        narrow = keys.create(conn, "other", "app", ["ssf-1999"], set(rulesets()), store_time.now())
        narrow = narrow.key
    client = strict.test_client()
    url = WORDS_LEFT.format("sbnl-punten")
    labels = {"game": "g1", "player": "Anna"}
    assert client.get(url, query_string=labels).status_code == 401
    auth = {"Authorization": f"Bearer {key}"}
    out = client.get(url, query_string=labels, headers={"Authorization": f"Bearer {narrow}"})
    assert out.status_code == 403 and out.json["code"] == "out_of_scope"
    missing = client.get(url, query_string={"game": "g1"}, headers=auth)
    assert missing.status_code == 400 and missing.json["field"] == "player"
    for _ in range(5):
        assert client.get(url, query_string=labels, headers=auth).json["queries_remaining"] == 10
    answer = client.post(JURY, json={"words": ["woord"], **labels}, headers=auth)
    assert answer.status_code == 200 and answer.json["queries_remaining"] == 9


def test_challenges_outside_jury_mode_carry_no_count(client):
    answer = client.post(CHALLENGE.format("ssf-1999"), json={"words": ["ord"], "game": "g"}).json
    assert "queries_remaining" not in answer


# --- idempotency ------------------------------------------------------------------------------


def test_a_retry_gets_the_original_answer_once(make_app):
    app = make_app(JURY_LIMIT="on")
    client = app.test_client()
    body = {"words": ["woord"], "game": "g1", "player": "Anna"}
    headers = {"Idempotency-Key": "tablet-7-0001"}
    first = client.post(JURY, json=body, headers=headers)
    again = client.post(JURY, json=body, headers=headers)
    assert again.get_data() == first.get_data()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert len(entries(app)) == 1
    fresh = client.post(JURY, json=body, headers={"Idempotency-Key": '"tablet-7-0002"'}).json
    assert fresh["queries_remaining"] == 8  # the retry was not counted


def test_a_key_reused_for_another_request_is_refused(app, client):
    headers = {"Idempotency-Key": "k1"}
    client.post(CHALLENGE.format("ssf-1999"), json={"words": ["ord"]}, headers=headers)
    other = client.post(CHALLENGE.format("ssf-1999"), json={"words": ["hej"]}, headers=headers)
    assert other.status_code == 422 and other.json["code"] == "idempotency_key_reused"
    elsewhere = client.post(CHALLENGE.format("dsf-2015"), json={"words": ["ord"]}, headers=headers)
    assert elsewhere.status_code == 422  # same body, another path
    assert len(entries(app)) == 1


@pytest.mark.parametrize("key", ["", "a b", "x" * 256, "é"])
def test_bad_keys_are_refused(client, key):
    answer = client.post(
        CHALLENGE.format("ssf-1999"), json={"words": ["ord"]}, headers={"Idempotency-Key": key}
    )
    assert answer.status_code == 400 and answer.json["code"] == "bad_idempotency_key"


def test_keys_are_per_caller(app, client):
    callers = iter([Caller("device", "1", "table 1"), Caller("device", "2", "table 2")])

    @app.before_request
    def authenticate():
        g.caller = next(callers)

    headers = {"Idempotency-Key": "same"}
    a = client.post(CHALLENGE.format("ssf-1999"), json={"words": ["ord"]}, headers=headers).json
    b = client.post(CHALLENGE.format("ssf-1999"), json={"words": ["ord"]}, headers=headers).json
    assert a["ruling_id"] != b["ruling_id"]
    assert [(e["caller_kind"], e["caller_id"]) for e in entries(app)] == [
        ("device", "1"),
        ("device", "2"),
    ]


def _from(address: str, **headers: str) -> dict:
    """A challenge's keyword arguments as sent from `address` with an Idempotency-Key."""
    return {
        "json": {"words": ["ord"]},
        "headers": {"Idempotency-Key": "same", **headers},
        "environ_base": {"REMOTE_ADDR": address},
    }


def test_open_mode_keys_are_per_client_address(app, client):
    """Issue 27, break 8: an anonymous caller replaying another's key and body gets a ruling of
    its own, never the other's ruling id; the same client still gets its replay."""
    url = CHALLENGE.format("ssf-1999")
    a = client.post(url, **_from("192.0.2.1"))
    b = client.post(url, **_from("192.0.2.2"))
    again = client.post(url, **_from("192.0.2.1"))
    assert a.status_code == b.status_code == 200
    assert b.json["ruling_id"] != a.json["ruling_id"]
    assert "Idempotent-Replayed" not in b.headers
    assert again.get_data() == a.get_data() and again.headers["Idempotent-Replayed"] == "true"
    assert len(entries(app)) == 2


def test_behind_a_proxy_keys_are_per_forwarded_client_address(make_app):
    """The address the service derives (TRUSTED_PROXIES), as lockouts count it."""
    client = make_app(TRUSTED_PROXIES=1).test_client()
    url = CHALLENGE.format("ssf-1999")
    a = client.post(url, **_from("127.0.0.1", **{"X-Forwarded-For": "10.0.0.1"}))
    b = client.post(url, **_from("127.0.0.1", **{"X-Forwarded-For": "10.0.0.2"}))
    again = client.post(url, **_from("127.0.0.1", **{"X-Forwarded-For": "10.0.0.1"}))
    assert b.json["ruling_id"] != a.json["ruling_id"]
    assert again.json["ruling_id"] == a.json["ruling_id"]


def test_an_expired_key_rules_again(make_app, monkeypatch):
    from adjudicator.web import idempotency

    monkeypatch.setattr(idempotency, "TTL", timedelta(0))
    app = make_app()
    client = app.test_client()
    headers = {"Idempotency-Key": "old"}
    a = client.post(CHALLENGE.format("ssf-1999"), json={"words": ["ord"]}, headers=headers).json
    b = client.post(CHALLENGE.format("ssf-1999"), json={"words": ["ord"]}, headers=headers).json
    assert a["ruling_id"] != b["ruling_id"] and len(entries(app)) == 2


def test_a_remembered_answer_reads_back_as_sqlalchemy_would_have_written_it(app):
    """The keyed ruling's statements go straight to the driver (issue 30): the row they write
    is the row the ORM's types read, and the replay gives it back byte for byte."""
    from sqlalchemy import select

    from adjudicator.store import utcnow
    from adjudicator.web.idempotency import KEYS, Key, lookup, remember

    key = Key("app:1", "k-1", "a" * 64)
    with app.app_context():
        with app.extensions["store"].connection(write=True) as conn:
            remember(conn, key, 200, b'{"ruling":"valid"}')
        with app.extensions["store"].connection() as conn:
            row = conn.execute(select(KEYS)).one()
            replay = lookup(conn, key)
    assert (row.caller, row.key, row.status, row.body) == (
        "app:1",
        "k-1",
        200,
        b'{"ruling":"valid"}',
    )
    assert abs((row.created_at - utcnow()).total_seconds()) < 60
    assert replay is not None and replay.status_code == 200
    assert replay.get_data() == b'{"ruling":"valid"}'


def test_the_ruling_is_recorded_for_the_caller_and_key_the_view_passes(app):
    """Issue 28, item 5: `record_ruling` takes who asked, what they owe and the idempotency key
    from its caller, never from `flask.g` or the request: here there is no request at all."""
    from adjudicator.audit.labels import Labels
    from adjudicator.audit.record import record_ruling
    from adjudicator.web.idempotency import Key

    caller = Caller("device", "7", "table 7")
    key = Key(caller.key, "passed-in", "0" * 64)
    with app.app_context():
        ruleset = rulesets()["ssf-1999"]

        def ruled(ruling_id: str) -> bytes:
            body = {
                "ruling_id": ruling_id,
                "lexicon": {"id": "lex", "sha256": "f" * 64},
                "words": [{"word": "ORD", "valid": True}],
                "ruling": "valid",
                "consequence": None,
            }
            answer = record_ruling(
                body,
                caller=caller,
                charge=None,
                key=key,
                kind="challenge",
                ruleset=ruleset,
                labels=Labels(game="g1"),
            )
            return answer.get_data()

        first = ruled("R-1")
        assert ruled("R-2") == first  # the same key again: the stored answer, nothing logged
    [entry] = entries(app)
    assert (entry["ruling_id"], entry["caller_kind"], entry["caller_id"]) == ("R-1", "device", "7")
    assert entry["game"] == "g1"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (datetime(2026, 12, 3, 9, 5, 7, 42), "2026-12-03T09:05:07.000042Z"),
        (datetime(2026, 12, 3, 9, 5, 7), "2026-12-03T09:05:07.000000Z"),  # microseconds kept
        # a zone, as a driver might attach one, is ignored: the stored value is already UTC
        (datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC), "2026-01-02T03:04:05.000006Z"),
    ],
)
def test_the_hashed_timestamp_form(value, text):
    """Part of every entry's hash: a change here would break every chain written before."""
    assert chain.timestamp(value) == text


HASH = "0123456789abcdef" * 4


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (f"12:{HASH}", chain.Head(12, HASH)),
        (f" 0:{HASH.upper()}\n", chain.Head(0, HASH)),  # as a terminal copies it; any case
        (f"x:{HASH}", "is not SEQ:HASH"),
        (f"12{HASH}", "is not SEQ:HASH"),  # no colon
        (f"\uff11\uff12:{HASH}", "is not SEQ:HASH"),  # digits, but not ASCII ones
        (f"{'9' * 20}:{HASH}", "is not SEQ:HASH"),  # past any seq the log can hold
        (f"12:{HASH[:-1]}", "not 64 hex digits"),
        (f"12:{HASH[:-1]}g", "not 64 hex digits"),
        (f"12:{HASH[:-1]}\uff10", "not 64 hex digits"),
    ],
)
def test_a_noted_head_is_read_as_audit_head_prints_it(text, read):
    if isinstance(read, chain.Head):
        assert chain.parse_head(text) == read
    else:
        with pytest.raises(ValueError, match=read):
            chain.parse_head(text)


@pytest.mark.parametrize(
    ("lang", "delimiter"), [("da", ";"), ("sv", ";"), ("nl", ";"), ("en", ",")]
)
def test_the_csv_export_opens_right_in_a_spreadsheet(app, client, tmp_path, lang, delimiter):
    """Issue 29, item 6: a UTF-8 BOM (else Excel reads the file as the locale's code page:
    BLÅBÆR as BLÃ…BÃ†R), the delimiter the locale's spreadsheet expects, the words as text."""
    ruled = client.post(CHALLENGE.format("dsf-2015"), json={"words": ["kat", "blåbær"]}).json
    url = app.extensions["store"].url.render_as_string(hide_password=False)
    out = tmp_path / "rulings.csv"
    args = ["audit", "export", "--lang", lang, "--out", str(out), "--database-url", url]
    assert main(args) == 0
    strings = json.loads((Path(adjudicator.__file__).parent / "i18n" / f"{lang}.json").read_text())
    first = "\ufeff" + strings["export_col_seq"] + delimiter
    assert out.read_bytes().startswith(first.encode())
    with out.open(encoding="utf-8-sig", newline="") as f:
        (row,) = csv.DictReader(f, delimiter=delimiter)
    verdicts = [strings["word_valid" if w["valid"] else "word_invalid"] for w in ruled["words"]]
    assert row[strings["export_col_words"]] == f"KAT ({verdicts[0]}), BLÅBÆR ({verdicts[1]})"
    assert row[strings["export_col_ruleset"]] == "dsf-2015"
    assert row[strings["export_col_kind"]] == strings["dir_kind_challenge"]


# --- what open mode records (issue 30) --------------------------------------------------------


def test_open_mode_records_every_ruling_by_default(make_app):
    app = make_app()
    app.test_client().post(CHALLENGE.format("ssf-1999"), json={"words": ["ord"]})
    assert len(entries(app)) == 1


def test_open_mode_can_record_nothing_and_tournament_mode_still_records(make_app):
    quiet = make_app(OPEN_MODE_AUDIT="none")
    client = quiet.test_client()
    answer = client.post(CHALLENGE.format("ssf-1999"), json={"words": ["ord"]})
    assert answer.status_code == 200 and answer.json["ruling"] == "valid"
    moved = client.post("/api/v1/rulesets/dsf-2015/moves/validate", json={"play": "8H HEJ"})
    assert moved.status_code == 200
    # A retried request still gets its first answer: the key is kept though nothing is logged.
    headers = {"Idempotency-Key": "k-open-1"}
    first = client.post(CHALLENGE.format("ssf-1999"), json={"words": ["hej"]}, headers=headers)
    again = client.post(CHALLENGE.format("ssf-1999"), json={"words": ["hej"]}, headers=headers)
    assert again.get_data() == first.get_data() and again.headers["Idempotent-Replayed"] == "true"
    assert entries(quiet) == [] and verify(quiet).ok
    strict = make_app(MODE="tournament", OPEN_MODE_AUDIT="none")
    with strict.app_context(), store.connection(write=True) as conn:
        key = keys.create(conn, "scorer", "app", [], set(rulesets()), store_time.now()).key
    strict.test_client().post(
        CHALLENGE.format("ssf-1999"),
        json={"words": ["ord"]},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert [e["caller_name"] for e in entries(strict)] == ["scorer"]


def test_an_unknown_open_mode_audit_setting_stops_the_start(make_app):
    with pytest.raises(ConfigError, match="ADJUDICATOR_OPEN_MODE_AUDIT"):
        make_app(OPEN_MODE_AUDIT="some")


# --- the event every ruling is recorded under (issue 36, item 1) -------------------------------


@pytest.mark.parametrize("mode", ["open", "tournament"])
def test_every_ruling_is_recorded_under_the_services_event(make_app, mode):
    """`ADJUDICATOR_EVENT` is the event of every ruling given under it, as the setting spells
    it; a request may name it in any spelling of its canonical form, or not at all."""
    app = make_app(EVENT="DM 2026", MODE=mode)
    headers = {}
    if mode == "tournament":
        with app.app_context(), store.connection(write=True) as conn:
            key = keys.create(conn, "scorer", "app", [], set(rulesets()), store_time.now()).key
        headers = {"Authorization": f"Bearer {key}"}
    client = app.test_client()
    for labels in ({}, {"event": "dm  2026"}, {"event": "DM 2026", "table": "4"}):
        answer = client.post(
            CHALLENGE.format("dsf-2015"), json={"words": ["kat"], **labels}, headers=headers
        )
        assert answer.status_code == 200, answer.json
    moved = client.post(
        "/api/v1/rulesets/dsf-2015/moves/validate", json={"play": "8H KAT"}, headers=headers
    )
    assert moved.status_code == 200
    assert [e["event"] for e in entries(app)] == ["DM 2026"] * 4


def test_a_ruling_naming_another_event_is_refused_and_not_recorded(make_app):
    app = make_app(EVENT="DM 2026")
    refused = app.test_client().post(
        CHALLENGE.format("dsf-2015"), json={"words": ["kat"], "event": "NM 2027"}
    )
    assert refused.status_code == 400
    assert (refused.json["code"], refused.json["field"]) == ("out_of_range", "event")
    assert "DM 2026" in refused.json["detail"]
    assert entries(app) == []


def test_without_an_event_setting_the_requests_event_is_recorded(app, client):
    client.post(CHALLENGE.format("dsf-2015"), json={"words": ["kat"], "event": "Klubaften"})
    client.post(CHALLENGE.format("dsf-2015"), json={"words": ["kat"]})
    assert [e["event"] for e in entries(app)] == ["Klubaften", None]


# --- the spreadsheet export (issue 36, item 3) -------------------------------------------------


def test_the_csv_delimiter_follows_the_locales_decimal_sign():
    """From CLDR (Babel), not a hand-made table: a comma where the decimal sign is a point."""
    from babel.numbers import format_decimal

    from adjudicator.audit.sheet import delimiter
    from adjudicator.pages.page_language import LANGUAGES
    from adjudicator.pages.times import LOCALES

    for lang in LANGUAGES:
        decimal_comma = "," in format_decimal(1.5, locale=LOCALES[lang])
        assert delimiter(lang) == (";" if decimal_comma else ",")
    assert [delimiter(lang) for lang in ("da", "sv", "nl", "en")] == [";", ";", ";", ","]


@pytest.mark.parametrize(
    ("locale", "lang"),
    [("da_DK.UTF-8", "da"), ("sv_SE", "sv"), ("nl_BE.utf8", "nl"), ("C.UTF-8", "en"), ("", "en")],
)
def test_the_export_speaks_the_terminals_language(locale, lang):
    from adjudicator.cli.audit import terminal_language
    from adjudicator.environment import terminal_locale

    assert terminal_language(locale) == lang
    chosen = terminal_locale({"LANG": "da_DK.UTF-8", "LC_MESSAGES": locale, "LC_ALL": ""})
    assert chosen == (locale or "da_DK.UTF-8")  # POSIX's order: LC_ALL, LC_MESSAGES, LANG
