"""Pairing a tablet: codes are single-use, short-lived and rate-limited; revocation is at once."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from adjudicator.auth import lockout

from .conftest import JUDGE_HEADER, add_director, challenge, form_csrf, login, pair, pairing_code


def _director(app):
    add_director(app)
    client = app.test_client()
    login(client)
    return client


def test_pairing_gives_the_tablet_an_httponly_device_cookie(tournament):
    director = _director(tournament)
    code = pairing_code(director, "Table 3", "ssf-1999")
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}", code)
    tablet = tournament.test_client()
    response = pair(tablet, code.lower().replace("-", " "))  # case and separators do not matter
    assert response.status_code == 303 and response.location == "/judge/ssf-1999"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("adj_device=adj_dev_") and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    assert challenge(tablet, headers=JUDGE_HEADER).status_code == 200
    assert pair(tournament.test_client(), code).status_code == 403  # used once only


def test_the_screen_shows_a_qr_code(tournament):
    director = _director(tournament)
    csrf = form_csrf(director.get("/director/").get_data(as_text=True))
    html = director.post(
        "/director/pairings", data={"csrf": csrf, "name": "T1", "ruleset": "*"}
    ).get_data(as_text=True)
    assert 'src="data:image/svg+xml' in html
    code = re.search(r'id="pairing-code">([^<]+)<', html).group(1)
    tablet = tournament.test_client()
    response = pair(tablet, code)
    assert response.location == "/judge/"  # any ruleset: the tablet chooses
    assert challenge(tablet, "dsf-2015", headers=JUDGE_HEADER).status_code == 200


def test_codes_expire(tournament, frozen):
    director = _director(tournament)
    code = pairing_code(director)
    frozen.advance(5 * 60 + 1)
    assert pair(tournament.test_client(), code).status_code == 403


def test_wrong_codes_are_limited_per_client(make_app, lockouts):
    lockouts(PAIRING={"attempts": 2})
    app = make_app(MODE="tournament")
    director = _director(app)
    tablet = app.test_client()
    for _ in range(2):
        assert pair(tablet, "AAAA-AAAA").status_code == 403
    code = pairing_code(director)
    limited = pair(tablet, code)
    assert limited.status_code == 429 and "Retry-After" in limited.headers
    paired = pair(app.test_client(), code, environ_base={"REMOTE_ADDR": "10.0.0.8"})
    assert paired.status_code == 303  # another client is not held back
    assert pair(app.test_client(), "x" * 40).status_code == 400


def test_revoking_from_the_directors_screen(tournament):
    director = _director(tournament)
    tablet = tournament.test_client()
    pair(tablet, pairing_code(director, "Table 9"))
    html = director.get("/director/").get_data(as_text=True)
    assert 'data-device="1" data-state="active"' in html
    csrf = form_csrf(html)
    assert director.post("/director/devices/1/revoke", data={}).status_code == 403  # no CSRF
    assert director.post("/director/devices/1/revoke", data={"csrf": csrf}).status_code == 303
    refused = challenge(tablet, headers=JUDGE_HEADER)
    assert refused.status_code == 401 and refused.json["code"] == "credential_invalid"
    html = director.get("/director/").get_data(as_text=True)
    assert 'data-device="1" data-state="revoked"' in html
    assert director.post("/director/devices/1/revoke", data={"csrf": csrf}).status_code == 404


def test_removing_a_director_voids_their_codes_and_keeps_their_tablets(tournament):
    """Tablets belong to the tables, not to whoever paired them: a director who leaves the
    event takes no table down with them. A code they showed but nobody used is void."""
    from adjudicator import store
    from adjudicator.auth import directors

    anna = _director(tournament)
    paired = tournament.test_client()
    pair(paired, pairing_code(anna, "Table 4"))
    unused = pairing_code(anna, "Table 5")
    add_director(tournament, "bo")
    bo = tournament.test_client()
    login(bo, "bo")
    with tournament.app_context(), store.connection(write=True) as conn:
        assert directors.remove(conn, "anna")
    assert challenge(paired, headers=JUDGE_HEADER).status_code == 200
    assert pair(tournament.test_client(), unused).status_code == 403
    html = bo.get("/director/").get_data(as_text=True)
    assert 'data-device="1" data-state="active"' in html  # bo can still revoke it


def test_devices_expire(tournament, frozen):
    director = _director(tournament)
    tablet = tournament.test_client()
    pair(tablet, pairing_code(director))
    frozen.advance(7 * 86400 + 1)
    assert challenge(tablet, headers=JUDGE_HEADER).status_code == 401


def test_a_pairing_needs_a_name_and_a_known_ruleset(tournament):
    director = _director(tournament)
    csrf = form_csrf(director.get("/director/").get_data(as_text=True))
    assert director.post("/director/pairings", data={"csrf": csrf, "name": ""}).status_code == 400
    bad = director.post("/director/pairings", data={"csrf": csrf, "name": "T", "ruleset": "x"})
    assert bad.status_code == 400
    for name in ("Table\x0012", "Table\t12", "T" * 65):  # PostgreSQL refuses a NUL in text
        refused = director.post("/director/pairings", data={"csrf": csrf, "name": name})
        assert refused.status_code == 400, name
    named = director.post(
        "/director/pairings", data={"csrf": csrf, "name": "Bord 12 ø", "ruleset": "ssf-1999"}
    )
    assert named.status_code == 200


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("Bord 12\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
        ("Bord\u3164 12", "U+3164 HANGUL FILLER"),
        ("Bord 1\u034f2", "U+034F COMBINING GRAPHEME JOINER"),
    ],
)
def test_a_tablet_name_is_a_name_under_precis(tournament, name, named):
    """A paired tablet's name is shown as its table: it is a name under the Nickname profile,
    as the table label is (issue 35): an invisible character is refused, named on the page."""
    director = _director(tournament)
    csrf = form_csrf(director.get("/director/").get_data(as_text=True))
    body = {"csrf": csrf, "name": name, "ruleset": "ssf-1999"}
    refused = director.post("/director/pairings?lang=en", data=body)
    assert refused.status_code == 400 and named in refused.get_data(as_text=True)
    body["name"] = "\uff22ord\u00a0 12"  # fullwidth B, a no-break space: its profile's form
    shown = director.post("/director/pairings", data=body).get_data(as_text=True)
    assert "Bord 12" in shown


def test_the_pairing_form_must_come_from_this_site(tournament):
    code = pairing_code(_director(tournament))
    tablet = tournament.test_client()
    assert pair(tablet, code, headers={"Origin": "http://elsewhere"}).status_code == 403
    assert pair(tablet, code, headers={"Origin": "http://localhost"}).status_code == 303


def test_wrong_codes_on_the_venues_64_hold_back_that_address_only(make_app, lockouts):
    """One tablet's wrong codes do not stop the next tablet on the venue's IPv6 /64 pairing;
    a tablet taking a fresh address for every try meets the /64's wider limit."""
    lockouts(PAIRING={"attempts": 2})
    app = make_app(MODE="tournament")
    director = _director(app)
    mashed = {"environ_base": {"REMOTE_ADDR": "2001:db8:1:2::a"}}
    for _ in range(2):
        assert pair(app.test_client(), "AAAA-AAAA", **mashed).status_code == 403
    assert pair(app.test_client(), pairing_code(director), **mashed).status_code == 429
    next_tablet = {"environ_base": {"REMOTE_ADDR": "2001:db8:1:2::b"}}
    assert pair(app.test_client(), pairing_code(director), **next_tablet).status_code == 303
    for i in range(2 * lockout.NETWORK_FACTOR - 2):
        fresh = {"environ_base": {"REMOTE_ADDR": f"2001:db8:1:2::1:{i:x}"}}
        assert pair(app.test_client(), "AAAA-AAAA", **fresh).status_code == 403
    last = {"environ_base": {"REMOTE_ADDR": "2001:db8:1:2::c"}}
    assert pair(app.test_client(), pairing_code(director), **last).status_code == 429
    other = {"environ_base": {"REMOTE_ADDR": "2001:db8:1:3::c"}}  # another /64
    assert pair(app.test_client(), pairing_code(director), **other).status_code == 303


def _shown_pairing(director, name: str = "Bord 2") -> tuple[str, str]:
    """A pairing code on the director's screen, and the address the screen polls about it."""
    csrf = form_csrf(director.get("/director/").get_data(as_text=True))
    html = director.post(
        "/director/pairings", data={"csrf": csrf, "name": name, "ruleset": "ssf-1999"}
    ).get_data(as_text=True)
    code = re.search(r'id="pairing-code">([^<]+)<', html).group(1)
    poll = re.search(r'id="pairing" [^>]*data-poll="([^"]+)"', html).group(1)
    return code, poll


def test_the_screen_learns_when_its_code_is_used(tournament):
    """Issue 36, item 6: the pairing on screen is `waiting` until a tablet pairs with it, then
    `paired` (the screen takes the code away and says so); only a director may ask."""
    director = _director(tournament)
    code, poll = _shown_pairing(director)
    assert director.get(poll).json == {"state": "waiting"}
    assert tournament.test_client().get(poll).status_code == 303  # no session: to the login
    pair(tournament.test_client(), code)
    answer = director.get(poll)
    assert answer.json == {"state": "paired"} and answer.headers["Cache-Control"] == "no-store"
    assert director.get("/director/pairings/999/state").json == {"state": "expired"}


def test_the_screen_learns_when_its_code_runs_out(tournament, frozen):
    director = _director(tournament)
    code, poll = _shown_pairing(director)
    frozen.advance(5 * 60 + 1)
    assert director.get(poll).json == {"state": "expired"}
    assert pair(tournament.test_client(), code).status_code == 403


def test_a_revoke_is_confirmed_by_name(tournament):
    director = _director(tournament)
    pair(tournament.test_client(), pairing_code(director, "Bord 2"))
    csrf = form_csrf(director.get("/director/").get_data(as_text=True))
    done = director.post("/director/devices/1/revoke?lang=da", data={"csrf": csrf})
    assert done.status_code == 303 and "revoked=1" in done.location
    html = director.get(done.location).get_data(as_text=True)
    assert '<p role="status" id="revoked">»Bord 2« er tilbagekaldt' in html
    assert 'id="revoked"' not in director.get("/director/?revoked=2").get_data(as_text=True)


def test_the_screens_times_are_the_pages_locale_on_the_events_clock(make_app):
    """One formatter for every page: the device list's times in the page's locale (CLDR, via
    Babel) and the event's zone, as the rulings page's, never UTC's clock with "UTC"."""
    app = make_app(MODE="tournament", TIME_ZONE="Pacific/Kiritimati")  # UTC+14
    director = _director(app)
    pair(app.test_client(), pairing_code(director, "Bord 2"))
    html = director.get("/director/?lang=nl").get_data(as_text=True)
    cells = re.search(r'data-device="1"[^>]*>(.*?)</tr>', html, re.S).group(1)
    assert " UTC" not in cells
    shown = re.search(r"<td>\d{1,2} \w+\.? \d{4},? (\d{2}):\d{2}:\d{2} door anna</td>", cells)
    kiritimati = (datetime.now(UTC) + timedelta(hours=14)).hour
    assert shown and int(shown.group(1)) in (kiritimati, (kiritimati - 1) % 24), cells
    assert "Pacific/Kiritimati" in html  # the zone, named once


def test_the_list_says_each_devices_state_at_the_time_asked(tournament):
    """`devices.listed` names each device's state, as the screen and `devices list` show it:
    active until its pairing runs out (expired at its very end), revoked once revoked."""
    from adjudicator import store
    from adjudicator.auth import devices, store_time

    add_director(tournament)
    now = store_time.now().replace(microsecond=0)
    with tournament.app_context(), store.connection(write=True) as conn:
        for name in ("A", "B"):
            made = devices.new_pairing(conn, 1, name, None, 300, now)
            devices.redeem(conn, made.code, 3600, now)
        devices.revoke(conn, 2, now)
        states = {
            at: [d["state"] for d in devices.listed(conn, now + timedelta(seconds=at))]
            for at in (0, 3599, 3600)
        }
        current = devices.listed(conn, now + timedelta(seconds=3600), include_revoked=False)
    assert states == {
        0: ["active", "revoked"],
        3599: ["active", "revoked"],
        3600: ["expired", "revoked"],
    }
    assert current == []
