"""Editions with a date (issue 39 item 1): the service rules with the edition in force on the
event's date, on the event's clock. 000 §2.1: Retskrivningsordbogen "inklusiv Dansk Sprognævns
årlige opdatering af nye ord" (a yearly update, in force from 1 January); 002 "Godkända ord":
SAOL and its supplement, and players should know which printing is used; 003: "de geldende
uitgaven". The clock is frozen (`app.extensions["clock"]`), never slept on."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from adjudicator import create_app
from adjudicator.audit import chain
from adjudicator.rulesets import RulesetFileError, load_rulesets
from adjudicator.store import Store, entryform, migrate
from adjudicator.tests.conftest import build_lexicon, build_test_lexicons

CHALLENGE = "/api/v1/rulesets/dsf-2015/challenge"
# 1 January 2027 begins at 23:00 UTC on 31 December in Copenhagen (CET, UTC+1).
BEFORE = datetime(2026, 12, 31, 22, 59, 59, 999999, tzinfo=UTC)
MIDNIGHT = datetime(2026, 12, 31, 23, 0, tzinfo=UTC)
BASE = ["hej", "café", "elguitar", "ord", "spil", "brik", "kat", "hund"]


def build_edition(
    root: Path, lexicon_id: str, words: list[str], in_force: str, language: str = "da"
) -> None:
    """An edition in force from `in_force` (its recipe's `in_force_from`, as `lexicon build
    --in-force-from` sets it), compiled into `root/lexicons`."""
    build_lexicon(root, lexicon_id, language, words, in_force=in_force)


@pytest.fixture(scope="module")
def edition_dirs(tmp_path_factory):
    """The test lexicons, plus two yearly updates of the Danish list: 2027 adds KLIMAANGST and
    drops KAT; 2028 (installed, far off) adds FLYSKAM."""
    root = tmp_path_factory.mktemp("editions")
    build_test_lexicons(root)
    build_edition(root, "wdanish-2027", [*BASE[:6], "hund", "klimaangst"], "2027-01-01")
    build_edition(root, "wdanish-2028", [*BASE[:6], "hund", "klimaangst", "flyskam"], "2028-01-01")
    rulesets = root / "rulesets"
    rulesets.mkdir()
    (rulesets / "lexicons.toml").write_text(
        'dsf-2015 = ["wdanish", "wdanish-2027", "wdanish-2028"]\n', encoding="utf-8"
    )
    return root / "lexicons", rulesets


@pytest.fixture
def make_app(edition_dirs, tmp_path):
    lexicons, rulesets = edition_dirs
    url = f"sqlite:///{tmp_path / 'adjudicator.db'}"
    migrate.upgrade(Store(url))

    def make(now, **config):
        app = create_app(
            {
                "TESTING": True,
                "LEXICON_DIR": str(lexicons),
                "RULESET_DIR": str(rulesets),
                "DATABASE_URL": url,
                "TIME_ZONE": "Europe/Copenhagen",
            }
            | config
        )
        app.extensions["clock"] = now
        return app

    return make


def entries(app) -> list[dict]:
    with app.extensions["store"].connection() as conn:
        return [s.row for s in chain.stored(conn)]


def test_the_edition_switches_at_the_events_midnight_without_a_restart(make_app):
    """000 §2.1: the yearly update is in force from 1 January, on the event's clock; the same
    running app takes it at that midnight, and every ruling records the edition it rested on."""
    now = [BEFORE]
    app = make_app(lambda: now[0])
    client = app.test_client()
    before = client.post(CHALLENGE, json={"words": ["klimaangst", "kat"]}).json
    assert before["lexicon"]["id"] == "wdanish" and "in_force_from" not in before["lexicon"]
    assert {w["word"]: w["valid"] for w in before["words"]} == {"KAT": True, "KLIMAANGST": False}
    now[0] = MIDNIGHT
    after = client.post(CHALLENGE, json={"words": ["klimaangst", "kat"]}).json
    assert after["lexicon"]["id"] == "wdanish-2027"
    assert after["lexicon"]["in_force_from"] == "2027-01-01"
    assert {w["word"]: w["valid"] for w in after["words"]} == {"KAT": False, "KLIMAANGST": True}
    old, new = entries(app)
    assert (old["lexicon_id"], old["lexicon_version"], old["lexicon_in_force_from"]) == (
        "wdanish",
        "test",
        None,
    )
    assert old["lexicon_sha256"] == before["lexicon"]["sha256"]
    assert (new["lexicon_id"], new["lexicon_version"], new["lexicon_in_force_from"]) == (
        "wdanish-2027",
        "2027",
        "2027-01-01",
    )
    assert new["lexicon_sha256"] == after["lexicon"]["sha256"] != old["lexicon_sha256"]
    with app.extensions["store"].connection() as conn:
        assert chain.verify(conn).ok


def test_the_day_is_the_events_not_utcs(make_app):
    """At 23:30 UTC on 31 December it is already 1 January in Copenhagen, not in London."""
    late = datetime(2026, 12, 31, 23, 30, tzinfo=UTC)
    copenhagen = make_app(lambda: late).test_client()
    london = make_app(lambda: late, TIME_ZONE="Europe/London").test_client()
    assert (
        copenhagen.post(CHALLENGE, json={"words": ["kat"]}).json["lexicon"]["id"] == "wdanish-2027"
    )
    assert london.post(CHALLENGE, json={"words": ["kat"]}).json["lexicon"]["id"] == "wdanish"


def test_one_edition_per_request_chosen_at_its_start(make_app):
    """Never in the middle of a request: the clock is read once, when the request starts, so a
    request that crosses midnight is ruled, answered and recorded under one edition."""
    reads = []

    def clock():  # each read is a little later: the first before midnight, the rest after
        reads.append(None)
        return BEFORE if len(reads) == 1 else MIDNIGHT

    app = make_app(clock)
    answer = app.test_client().post(CHALLENGE, json={"words": ["klimaangst"]}).json
    assert len(reads) == 1
    assert answer["lexicon"]["id"] == "wdanish" and answer["ruling"] == "invalid"
    (entry,) = entries(app)
    assert entry["lexicon_id"] == "wdanish" and entry["verdict"] == "invalid"


def test_an_edition_before_its_date_is_installed_but_not_used(make_app):
    """The 2028 update is loaded (it can be checked) but nothing rules with it in 2027; the
    public view, the kiosk and readiness name the edition in force."""
    app = make_app(lambda: datetime(2027, 6, 1, tzinfo=UTC))
    assert "wdanish-2028" in app.extensions["lexicons"].loaded
    client = app.test_client()
    answer = client.post(CHALLENGE, json={"words": ["flyskam"]}).json
    assert answer["ruling"] == "invalid" and answer["lexicon"]["id"] == "wdanish-2027"
    view = client.get("/api/v1/rulesets/dsf-2015").json
    assert view["lexicon"]["id"] == "wdanish-2027"
    assert view["lexicon"]["in_force_from"] == "2027-01-01"
    page = client.get("/judge/dsf-2015").get_data(as_text=True)
    assert "gældende fra 2027-01-01" in page
    later = make_app(lambda: datetime(2028, 1, 1, 12, tzinfo=UTC)).test_client()
    assert later.post(CHALLENGE, json={"words": ["flyskam"]}).json["ruling"] == "valid"


def test_a_ruleset_lists_its_editions_in_lexicons_toml_or_its_file(tmp_path):
    (tmp_path / "lexicons.toml").write_text('ssf-1999 = ["saol12", "saol12-2027"]\n', "utf-8")
    ruleset = load_rulesets(tmp_path)["ssf-1999"]
    assert ruleset.lexicon == "saol12"
    assert ruleset.edition_ids == ("saol12", "saol12-2027")
    assert ruleset.editions.source == "002 Godkända ord"
    (tmp_path / "lexicons.toml").write_text("ssf-1999 = [1]\n", "utf-8")
    with pytest.raises(RulesetFileError, match="ssf-1999.*list of them"):
        load_rulesets(tmp_path)
    (tmp_path / "lexicons.toml").unlink()
    bundled = load_rulesets()["ssf-1999"].model_dump(by_alias=True)
    bundled["editions"]["lexicons"] = ["wswedish-2027"]
    bundled["editions"].pop("source")
    assert load_rulesets()["ssf-1999"].model_validate(bundled).edition_ids == (
        "wswedish",
        "wswedish-2027",
    )


def test_an_edition_named_but_not_installed_is_reported_at_start(edition_dirs, tmp_path, caplog):
    lexicons, _ = edition_dirs
    (tmp_path / "lexicons.toml").write_text('dsf-2015 = ["wdanish", "wdanish-2029"]\n', "utf-8")
    create_app({"TESTING": True, "LEXICON_DIR": str(lexicons), "RULESET_DIR": str(tmp_path)})
    assert "ruleset dsf-2015: its edition wdanish-2029 is not loaded" in caplog.text


def test_an_entry_written_before_the_edition_columns_hashes_as_it_did():
    """The columns added for the edition are hashed only with a value: an entry from before
    them keeps its hash, and one that has them cannot lose them unnoticed."""
    row = {name: None for name in entryform.HASHED} | {
        "seq": 1,
        "created_at": datetime(2026, 1, 1),
        "words": [],
        "lexicon_id": "wdanish",
        "lexicon_sha256": "0" * 64,
    }
    old = {k: v for k, v in row.items() if k not in entryform.LATER}
    assert entryform.entry_hash(old) == entryform.entry_hash(row)
    dated = row | {"lexicon_version": "2027", "lexicon_in_force_from": "2027-01-01"}
    assert entryform.entry_hash(dated) != entryform.entry_hash(row)


# --- the edition on the directors' pages, and a second opinion (issue 39 items 1 and 2) ------

PASSWORD = "correct horse battery staple"


@pytest.fixture
def director_app(make_app):
    from adjudicator import store
    from adjudicator.auth import directors, store_time

    now = [datetime(2027, 3, 1, 12, tzinfo=UTC)]  # the 2027 update in force, 2028's installed
    app = make_app(lambda: now[0])
    with app.app_context(), store.connection(write=True) as conn:
        directors.add(conn, "anna", PASSWORD, store_time.now())
    director = app.test_client()
    response = director.post("/director/login", data={"name": "anna", "password": PASSWORD})
    assert response.status_code in (302, 303)
    return app, director, now


def test_the_rulings_page_and_export_name_the_edition(director_app):
    """002 "Godkända ord": the players must know which printing is used; the director's page
    and the export name each ruling's edition, its date and checksum."""
    app, director, _ = director_app
    answer = app.test_client().post(CHALLENGE, json={"words": ["hund"]}).json
    sha = answer["lexicon"]["sha256"]
    page = director.get("/director/rulings").get_data(as_text=True)
    assert "wdanish-2027 · 2027 · in force from 2027-01-01" in page and sha[:12] in page
    (listed,) = director.get("/api/v1/audit/rulings").json["rulings"]
    assert listed["lexicon"] == {
        "id": "wdanish-2027",
        "sha256": sha,
        "version": "2027",
        "in_force_from": "2027-01-01",
    }
    csv_text = director.get("/director/rulings/export?format=csv&lang=da").data.decode("utf-8-sig")
    head, row = csv_text.splitlines()[:2]
    assert "Ordliste;Udgave;Gældende fra;Ordlistens SHA-256" in head
    assert "wdanish-2027;2027;2027-01-01;" + sha in row


def test_a_disputed_ruling_shows_the_other_editions_verdicts_to_the_director(director_app):
    """An invalid verdict shows, on the director's page, the verdict under the previous edition
    (2026's list still had KAT) and under the installed 2028 edition, where it differs."""
    app, director, now = director_app
    tablet = app.test_client()
    tablet.post(CHALLENGE, json={"words": ["kat"]})  # invalid under 2027: KAT was dropped
    tablet.post(CHALLENGE, json={"words": ["hund"]})  # valid under every edition
    tablet.post(CHALLENGE, json={"words": ["flyskam"]})  # invalid now, valid from 2028
    page = director.get("/director/rulings").get_data(as_text=True)
    kat = _cell(page, 1)
    assert "Under wdanish · test (the previous edition): valid; differs on KAT" in kat
    assert "wdanish-2028" not in kat  # 2028 agrees with 2027 on KAT: not shown
    fly = _cell(page, 3)
    assert "Under wdanish-2028 · 2028 · in force from 2028-01-01: valid; differs on FLYSKAM" in fly
    assert "Under wdanish · test (the previous edition): invalid" not in fly  # the same verdict
    assert "Check other editions" in _cell(page, 2)  # a valid ruling: only when opened
    (hund,) = [r for r in director.get("/api/v1/audit/rulings?q=hund").json["rulings"]]
    opened = director.get(f"/director/rulings?open={hund['ruling_id']}").get_data(as_text=True)
    assert "The same under every other edition installed." in _cell(opened, 2)
    danish = director.get(f"/director/rulings?lang=da&open={hund['ruling_id']}")
    assert "Det samme efter alle andre installerede udgaver." in _cell(danish.get_data(True), 2)


def test_the_tablet_and_the_json_learn_nothing_of_other_editions(director_app):
    """Tablets, keys and anonymous callers: the answer names the edition that ruled, never the
    others (the differential test proves it over every route)."""
    app, _, _ = director_app
    answer = app.test_client().post(CHALLENGE, json={"words": ["kat"]})
    text = answer.get_data(as_text=True)
    assert "wdanish-2027" in text and "wdanish-2028" not in text and '"wdanish"' not in text


def _cell(page: str, seq: int) -> str:
    start = page.index(f'id="opinion-{seq}"')
    return page[start : page.index("</td>", start)]


def test_the_metrics_name_the_edition_in_force(make_app):
    """A scrape says which edition each ruleset rules with now, and takes the new one at the
    same midnight as the rulings do (the lexicon label is the edition's id, not the base's)."""
    from adjudicator.tests.test_metrics import samples, scrape, value

    now = [BEFORE]
    client = make_app(lambda: now[0], METRICS="1").test_client()
    gauge = "adjudicator_ruleset_available"
    assert value(scrape(client), gauge, ruleset="dsf-2015", lexicon="wdanish") == 1
    now[0] = MIDNIGHT
    text = scrape(client)
    assert value(text, gauge, ruleset="dsf-2015", lexicon="wdanish-2027") == 1
    shown = [dict(labels) for name, labels in samples(text) if name == gauge]
    assert [s["lexicon"] for s in shown if s["ruleset"] == "dsf-2015"] == ["wdanish-2027"]


def test_a_replay_rules_with_the_edition_in_force_on_the_day_of_the_game(
    edition_dirs, tmp_path, monkeypatch, capsys
):
    """`adjudicator replay --on DATE`: a game played in 2026 is replayed under the list in
    force then (KAT allowed), one played in 2027 under the yearly update (KAT dropped); an
    edition installed but not yet in force is never used, and a day before every edition is
    refused with one line."""
    import json

    from adjudicator.cli import main

    lexicons, rulesets = edition_dirs
    game = tmp_path / "g.gcg"
    game.write_text("#player1 a A\n#player2 b B\n>a: KATHUND 8H KAT +5 5\n", encoding="utf-8")
    monkeypatch.setenv("ADJUDICATOR_RULESET_DIR", str(rulesets))
    args = ["replay", str(game), "--lexicon-dir", str(lexicons), "--ruleset", "dsf-2015", "--json"]

    def replayed(day: str) -> tuple[str, list[str]]:
        main([*args, "--on", day])
        report = json.loads(capsys.readouterr().out)
        return report["lexicon"], report["turns"][0]["not_in_lexicon"]

    assert replayed("2026-06-01") == ("wdanish", [])
    assert replayed("2027-03-01") == ("wdanish-2027", ["KAT"])
    assert replayed("2031-01-01")[0] == "wdanish-2028"
    dated = tmp_path / "dated"  # a ruleset whose every edition has a date
    dated.mkdir()
    (dated / "lexicons.toml").write_text('dsf-2015 = ["wdanish-2027", "wdanish-2028"]\n')
    monkeypatch.setenv("ADJUDICATOR_RULESET_DIR", str(dated))
    assert main([*args, "--on", "2026-06-01"]) == 2
    assert capsys.readouterr().err.strip().endswith("has no edition in force on 2026-06-01")
