"""The directors' view of the audit log: the page and its JSON, searched; nobody else's."""

from __future__ import annotations

import pytest

from adjudicator import create_app, store
from adjudicator.audit.tests.test_tampering import (
    close_the_door,
    forged,
    insert,
    malform,
    open_the_door,
)
from adjudicator.auth import directors, store_time
from adjudicator.store import Store, migrate

PASSWORD = "correct horse battery staple"


@pytest.fixture
def app(database_url, lexicon_dir):
    migrate.upgrade(Store(database_url))
    app = create_app(
        {"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": database_url}
    )
    with app.app_context(), store.connection(write=True) as conn:
        directors.add(conn, "anna", PASSWORD, store_time.now())
    return app


def rule(client, ruleset, words, **labels):
    return client.post(f"/api/v1/rulesets/{ruleset}/challenge", json={"words": words, **labels})


@pytest.fixture
def director(app):
    client = app.test_client()
    response = client.post("/director/login", data={"name": "anna", "password": PASSWORD})
    assert response.status_code in (302, 303)
    return client


def test_only_a_director_reads_the_log(app):
    anonymous = app.test_client()
    rule(anonymous, "ssf-1999", ["ord"])
    answer = anonymous.get("/api/v1/audit/rulings")
    assert answer.status_code == 401 and answer.json["code"] == "director_required"
    page = anonymous.get("/director/rulings")
    assert page.status_code == 303 and "/director/login" in page.headers["Location"]


def test_the_director_lists_and_searches_rulings(app, director):
    player = app.test_client()
    first = rule(player, "ssf-1999", ["ord", "qqq"], event="SM", table="7").json
    rule(player, "dsf-2015", ["kat"], event="DM")
    rule(player, "sbnl-punten", ["woord"], game="g1", player="Anna")
    listed = director.get("/api/v1/audit/rulings").json
    assert [r["seq"] for r in listed["rulings"]] == [3, 2, 1]
    assert listed["head"]["seq"] == 3 and listed["next_before"] is None
    found = director.get("/api/v1/audit/rulings?q=qqq").json["rulings"]
    assert [r["ruling_id"] for r in found] == [first["ruling_id"]]
    assert found[0]["table"] == "7" and found[0]["verdict"] == "invalid"
    assert [
        r["ruleset"] for r in director.get("/api/v1/audit/rulings?event=DM").json["rulings"]
    ] == ["dsf-2015"]
    jury = director.get("/api/v1/audit/rulings?kind=jury&q=anna").json["rulings"]
    assert [(r["game"], r["player"]) for r in jury] == [("g1", "Anna")]
    page1 = director.get("/api/v1/audit/rulings?limit=2").json
    assert [r["seq"] for r in page1["rulings"]] == [3, 2] and page1["next_before"] == 2
    page2 = director.get("/api/v1/audit/rulings?limit=2&before=2").json
    assert [r["seq"] for r in page2["rulings"]] == [1] and page2["next_before"] is None
    html = director.get("/director/rulings?q=qqq").get_data(as_text=True)
    assert first["ruling_id"] in html and "QQQ" in html and "KAT" not in html
    assert director.get("/api/v1/audit/rulings?limit=0").json["code"] == "out_of_range"
    assert director.get("/api/v1/audit/rulings?x=1").json["code"] == "unknown_parameter"


def test_the_search_finds_a_label_however_it_is_spelt(app, director):
    """Labels are searched in their compared form, as the jury count compares them; the log
    shows each in its profile's form (NFKC, case kept: the fullwidth Ａ is A)."""
    player = app.test_client()
    ids = [
        rule(player, "sbnl-punten", ["woord"], event="NK 2027", game="R3-T12", player="Ａnna").json[
            "ruling_id"
        ],
        rule(player, "sbnl-punten", ["hallo"], event="nk  2027", game="r3-t12", player="ANNA").json[
            "ruling_id"
        ],
    ]
    rule(player, "ssf-1999", ["ord"], event="SM 2027", player="Bo")

    def found(query: str) -> list[str]:
        return [
            r["ruling_id"] for r in director.get(f"/api/v1/audit/rulings?{query}").json["rulings"]
        ]

    newest_first = ids[::-1]
    assert found("event=NK%202027") == found("event=nk%20%202027") == newest_first
    assert found("q=anna") == found("q=%EF%BC%A1NNA") == newest_first  # Ａ, fullwidth
    assert found("q=R3-T12") == found("q=r3-t12") == newest_first
    listed = director.get("/api/v1/audit/rulings?q=anna").json["rulings"]
    assert [(r["player"], r["game"]) for r in listed] == [("ANNA", "r3-t12"), ("Anna", "R3-T12")]
    assert found("q=R3%E2%80%90T12") == newest_first  # U+2010 HYPHEN is `-`


@pytest.mark.parametrize("path", ["/api/v1/audit/rulings", "/director/rulings"])
def test_a_search_that_cannot_mean_one_thing_is_refused(app, director, path):
    """Not an empty list, which would read as "no such rulings": a filter given twice, or a
    kind or verdict that no ruling can have."""
    assert rule(app.test_client(), "ssf-1999", ["HEJ"]).status_code == 200
    assert len(director.get("/api/v1/audit/rulings?verdict=valid").json["rulings"]) == 1
    for query, code, field in [
        ("verdict=valid&verdict=invalid", "repeated_parameter", "verdict"),
        ("q=HEJ&q=ORD", "repeated_parameter", "q"),
        ("verdict=null", "out_of_range", "verdict"),
        ("kind=challenges", "out_of_range", "kind"),
        ("q=%00", "not_printable", "q"),  # PostgreSQL refuses a NUL in any text: not a 500
        ("event=SM%0A2027", "not_printable", "event"),
    ]:
        refused = director.get(f"{path}?{query}")
        assert refused.status_code == 400, (query, refused.status_code)
        if path.startswith("/api/"):
            assert (refused.json["code"], refused.json["field"]) == (code, field), query
    for kind in ("challenge", "jury", "move"):  # every kind a ruling has is a search
        assert director.get(f"/api/v1/audit/rulings?kind={kind}").status_code == 200


def test_an_empty_field_is_no_filter_on_the_page_but_a_mistake_in_the_api(app, director):
    """The page's form sends every field, an unset one empty ("any"); the JSON API takes what
    its document says, where an empty kind, verdict or number is none of the allowed values."""
    ruling_id = rule(app.test_client(), "ssf-1999", ["HEJ"]).json["ruling_id"]
    form = "q=&ruleset=&kind=&verdict=&event=&limit=&before="
    page = director.get(f"/director/rulings?{form}")
    assert page.status_code == 200 and "<code>" + ruling_id + "</code>" in page.text
    api = "/api/v1/audit/rulings"
    assert len(director.get(f"{api}?q=&ruleset=&event=").json["rulings"]) == 1
    for field, code in [
        ("kind", "out_of_range"),
        ("verdict", "out_of_range"),
        ("limit", "not_a_number"),
        ("before", "not_a_number"),
    ]:
        refused = director.get(f"{api}?{field}=")
        assert refused.status_code == 400, field
        assert (refused.json["code"], refused.json["field"]) == (code, field)


def test_a_search_for_percent_is_literal(app, director):
    rule(app.test_client(), "ssf-1999", ["ord"], event="100%")
    rule(app.test_client(), "ssf-1999", ["ord"], event="1000")
    found = director.get("/api/v1/audit/rulings?q=0%25").json["rulings"]
    assert [r["event"] for r in found] == ["100%"]


def test_the_director_sees_every_row_as_stored(app, director):
    """Issue 27, break 4: rows written around the service (below the chain, values their
    columns cannot hold) are listed as stored, on the page too, never a 500; `audit verify`
    names each of them (test_tampering.py)."""
    player = app.test_client()
    for words in (["ord"], ["kat"], ["hej"], ["spel"], ["zzz"], ["qqq"], ["woord"]):
        assert rule(player, "dsf-2015", words).status_code == 200
    store = app.extensions["store"]
    with store.connection(write=True) as conn:
        open_the_door(conn, store)
        insert(conn, forged(0))
        malform(conn, store)
        close_the_door(conn, store)
    listed = director.get("/api/v1/audit/rulings").json
    assert [r["seq"] for r in listed["rulings"]] == [7, 6, 5, 4, 3, 2, 1, 0]
    by_seq = {r["seq"]: r for r in listed["rulings"]}
    assert by_seq[1]["created_at"] == "yesterday" and by_seq[2]["words"] == "{not json"
    assert by_seq[3]["created_at"] == "12345" and by_seq[0]["ruling_id"] == "forged0"
    assert [r["seq"] for r in director.get("/api/v1/audit/rulings?q=forged").json["rulings"]] == [0]
    page = director.get("/director/rulings")
    assert page.status_code == 200 and "forged0" in page.text and "yesterday" in page.text


def test_a_word_is_found_whatever_its_case(app, director):
    """Issue 29, item 5: the words are searched case-folded, beyond ASCII too: `blåbær` finds
    the ruling on BLÅBÆR (the JSON of the words, escaped or not, is no part of the search)."""
    player = app.test_client()
    wanted = rule(player, "dsf-2015", ["blåbær"]).json["ruling_id"]
    rule(player, "dsf-2015", ["kat"])
    for query in ("blåbær", "BLÅBÆR", "Blåbær", "åbæ", "BLÅ"):
        found = director.get("/api/v1/audit/rulings", query_string={"q": query}).json
        assert [r["ruling_id"] for r in found["rulings"]] == [wanted], query
    assert (
        director.get("/api/v1/audit/rulings", query_string={"q": "u00e5"}).json["rulings"] == []
    )  # the JSON escape of å is not a word


def test_a_ruling_id_is_found_as_the_tablet_shows_it(app, director):
    """The tablet shows the id in groups of four (result.js `groupedId`); the director types it
    as read, spaces and all, in either case."""
    player = app.test_client()
    wanted = rule(player, "ssf-1999", ["ord"]).json["ruling_id"]
    rule(player, "ssf-1999", ["kat"])
    grouped = " ".join(wanted[i : i + 4] for i in range(0, 32, 4))
    for query in (grouped, grouped.upper(), grouped[:14], f" {grouped}  "):
        found = director.get("/api/v1/audit/rulings", query_string={"q": query}).json
        assert [r["ruling_id"] for r in found["rulings"]] == [wanted], query
    page = director.get("/director/rulings", query_string={"q": grouped})
    assert page.status_code == 200 and wanted in page.text


def test_times_are_shown_in_the_events_time_zone(database_url, lexicon_dir):
    """The page shows each ruling's time in ADJUDICATOR_TIME_ZONE, not UTC (the JSON keeps the
    exact UTC time)."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    migrate.upgrade(Store(database_url))
    app = create_app(
        {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "DATABASE_URL": database_url,
            "TIME_ZONE": "Pacific/Kiritimati",  # UTC+14: never the same clock time as UTC
        }
    )
    with app.app_context(), store.connection(write=True) as conn:
        directors.add(conn, "anna", PASSWORD, store_time.now())
    client = app.test_client()
    client.post("/director/login", data={"name": "anna", "password": PASSWORD})
    rule(app.test_client(), "ssf-1999", ["ord"])
    utc = client.get("/api/v1/audit/rulings").json["rulings"][0]["created_at"]
    when = datetime.fromisoformat(utc.replace("Z", "+00:00"))
    there = when.astimezone(ZoneInfo("Pacific/Kiritimati"))
    page = client.get("/director/rulings?lang=en").text
    # CLDR's medium form in the page's locale (en_GB: `5 Dec 2026, 07:59:25`), Kiritimati's
    assert f">{there.day} {there:%b %Y}, {there:%H:%M:%S}</time>" in page  # not UTC's clock
    page = client.get("/director/rulings?lang=da").text  # da_DK: `5. dec. 2026 07.59.25`
    assert f"{there.day}. {there:%b}.".lower() in page and f"{there:%H.%M.%S}" in page
    assert '<main class="wide">' in page  # the fluid layout (auth.css)


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "../../etc/passwd", "", 5])
def test_a_time_zone_that_is_none_stops_the_start(database_url, lexicon_dir, zone):
    from adjudicator.settings import ConfigError

    migrate.upgrade(Store(database_url))
    config = {"LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": database_url, "TIME_ZONE": zone}
    if zone == "":
        create_app(config)  # empty: the machine's own zone
        return
    with pytest.raises(ConfigError, match="ADJUDICATOR_TIME_ZONE"):
        create_app(config)


def test_the_table_is_the_tablets_name_when_the_request_gave_none(app, director):
    """A paired tablet's rulings carry its name (the caller name) where the request named no
    table; a table the request gave is kept."""
    from adjudicator.auth import devices

    with app.app_context(), store.connection(write=True) as conn:
        pairing = devices.new_pairing(conn, 1, "Table 12", None, 300, store_time.now())
        token = devices.redeem(conn, pairing.code, 3600, store_time.now()).token
    tablet = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    tablet.post("/api/v1/rulesets/ssf-1999/challenge", json={"words": ["ord"]}, headers=headers)
    tablet.post(
        "/api/v1/rulesets/ssf-1999/challenge",
        json={"words": ["kat"], "table": "7"},
        headers=headers,
    )
    rule(app.test_client(), "ssf-1999", ["hej"])  # anonymous: no table at all
    page = director.get("/director/rulings").text
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")[:3]
    tables = [row.split('class="where">')[1].split("</td>")[0].strip() for row in rows]
    assert tables == ["", "7", "Table 12"]


@pytest.mark.parametrize(("lang", "said"), [("da", "Søgningen indeholder"), ("nl", "zoekopdracht")])
def test_a_search_with_an_invisible_character_is_refused_naming_it(director, lang, said):
    """No label holds a character its profile disallows: the search says so, naming it, in
    the page's language (the API: 400 label_disallowed_character, field q)."""
    found = director.get("/api/v1/audit/rulings", query_string={"q": "Anna\u3164"})
    assert found.status_code == 400 and found.json["code"] == "label_disallowed_character"
    assert found.json["field"] == "q" and found.json["character"] == "U+3164"
    page = director.get(
        "/director/rulings",
        query_string={"q": "Anna\u3164", "lang": lang},
        headers={"Accept": "text/html"},
    )
    text = page.get_data(as_text=True)
    assert page.status_code == 400 and said in text and "U+3164 HANGUL FILLER" in text


def test_a_malformed_row_is_marked_on_every_page(app, director):
    """Issue 35, item 5: a row whose words are a number broke the page (500, `'int' object is
    not iterable`) while the JSON read it fine. Both read rows through the one reader, which
    marks such a row malformed; the page shows it as stored, marked."""
    assert rule(app.test_client(), "dsf-2015", ["kat"]).status_code == 200
    store = app.extensions["store"]
    number = 5 if store.is_sqlite else "5"  # an INTEGER on SQLite, the JSON number 5 on PostgreSQL
    with store.connection(write=True) as conn:
        open_the_door(conn, store)
        insert(conn, forged(2) | {"words": number, "consequence": number})
        insert(conn, forged(3) | {"words": '[1, "x"]', "consequence": "[]"})
        close_the_door(conn, store)
    listed = director.get("/api/v1/audit/rulings").json["rulings"]
    by_seq = {r["seq"]: r for r in listed}
    for lang, marker in (("en", "malformed entry"), ("da", "fejlbehæftet post")):
        page = director.get(f"/director/rulings?lang={lang}")
        assert page.status_code == 200, page.text[:300]
        rows = {
            seq: page.text.split(f"<code>{by_seq[seq]['ruling_id']}</code>")[0].rsplit("<tr", 1)[1]
            for seq in (1, 2, 3)
        }
        assert marker not in rows[1] and marker in rows[2] and marker in rows[3]
    assert by_seq[1]["malformed"] == []
    assert any("words" in f for f in by_seq[2]["malformed"]) and by_seq[2]["words"] == 5
    assert any("words" in f for f in by_seq[3]["malformed"])
    assert any("consequence" in f for f in by_seq[3]["malformed"])


def test_the_download_carries_the_pages_filter_over_every_page(app, director):
    """Issue 36, item 3: the page's download links keep its filter and language, and the file
    holds every matching ruling, not the page's 50; a format it does not write is refused as a
    page, and only a director gets the file."""
    import csv
    import io
    import re
    from html import unescape

    player = app.test_client()
    for n in range(55):
        rule(player, "dsf-2015", ["kat"], event="DM", table=str(n))
    rule(player, "ssf-1999", ["ord"], event="SM")
    page = director.get("/director/rulings?event=DM&lang=sv").get_data(as_text=True)
    link = unescape(re.search(r'id="download-csv" href="([^"]+)"', page).group(1))
    assert "event=DM" in link and "lang=sv" in link and "format=csv" in link
    got = director.get(link)
    assert got.status_code == 200 and got.headers["Content-Disposition"].startswith("attachment")
    rows = list(
        csv.reader(io.StringIO(got.get_data(as_text=True).removeprefix("\ufeff")), delimiter=";")
    )
    assert rows[0][0] == "Nr" and len(rows) == 1 + 55  # Swedish headings; all pages, DM only
    assert director.get("/director/rulings/export?format=pdf").status_code == 400
    anonymous = app.test_client().get(link)
    assert anonymous.status_code == 303 and "/director/login" in anonymous.headers["Location"]


def test_a_prune_is_shown_as_one_in_the_directors_language(app, director):
    from adjudicator.audit import prune
    from adjudicator.store import utcnow

    player = app.test_client()
    for word in ("ord", "kat", "hej"):
        rule(player, "ssf-1999", [word])
    with app.app_context(), store.connection(write=True) as conn:
        prune.prune(conn, utcnow(), by="ops")
    page = director.get("/director/rulings?lang=da").text
    assert "oprydning" in page and "ops (operatør)" in page
    assert "poster til og med nr. 3 fjernet" in page and "lovligt" not in page
    listed = director.get("/api/v1/audit/rulings").json["rulings"]
    assert [(r["seq"], r["kind"]) for r in listed] == [(4, "prune")]
