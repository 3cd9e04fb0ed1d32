"""The kiosk's PIN: only a paired tablet in tournament mode, wrong tries counted per device."""

from __future__ import annotations

import pytest

from adjudicator.auth import lockout

from .conftest import JUDGE_HEADER, add_director, login, pair, pairing_code

PIN = "0468"


@pytest.fixture
def app(make_app, lockouts):
    lockouts(PIN={"attempts": 2})
    app = make_app(MODE="tournament", JUDGE_PIN=PIN)
    add_director(app)
    return app


def tablet(app, name: str, ruleset: str = "ssf-1999"):
    director = app.test_client()
    login(director)
    client = app.test_client()
    assert pair(client, pairing_code(director, name, ruleset)).status_code == 303
    return client


def unlock(client, pin: str):
    return client.post("/api/v1/judge/unlock", json={"pin": pin}, headers=JUDGE_HEADER)


def test_an_unpaired_browser_has_nothing_to_unlock(app):
    refused = unlock(app.test_client(), PIN)
    assert refused.status_code == 401 and refused.json["code"] == "credential_required"


def test_a_paired_tablet_unlocks_and_sees_its_own_ruleset_only(app):
    answer = unlock(tablet(app, "Table 1"), PIN)
    assert answer.status_code == 200
    assert [r["id"] for r in answer.json["rulesets"]] == ["ssf-1999"]
    free = unlock(tablet(app, "Table 2", "*"), PIN)  # any ruleset
    assert len(free.json["rulesets"]) > 1


def test_wrong_pins_lock_that_tablet_only(app):
    mashed, other = tablet(app, "Table 1"), tablet(app, "Table 2")
    assert [unlock(mashed, "1111").status_code for _ in range(2)] == [403, 403]
    locked = unlock(mashed, PIN)
    assert locked.status_code == 429 and locked.json["code"] == "too_many_attempts"
    assert 1 <= int(locked.headers["Retry-After"]) <= 900
    assert unlock(other, PIN).status_code == 200  # same address, another device


def test_open_mode_counts_an_unpaired_kiosk_by_address(make_app, lockouts):
    lockouts(PIN={"attempts": 1})
    app = make_app(JUDGE_PIN=PIN)
    client = app.test_client()
    assert unlock(client, "1111").status_code == 403
    assert unlock(client, PIN).status_code == 429
    elsewhere = client.post(
        "/api/v1/judge/unlock", json={"pin": PIN}, environ_base={"REMOTE_ADDR": "10.0.0.3"}
    )
    assert elsewhere.status_code == 200


def test_open_mode_counts_a_kiosk_by_its_address_and_its_64_wider(make_app, lockouts):
    """Kiosks on the venue's IPv6 /64: one mashed keypad does not lock the next kiosk; a
    kiosk taking a fresh address for every try meets the /64's wider limit."""
    lockouts(PIN={"attempts": 1})
    app = make_app(JUDGE_PIN=PIN)

    def at(address: str, pin: str):
        return app.test_client().post(
            "/api/v1/judge/unlock", json={"pin": pin}, environ_base={"REMOTE_ADDR": address}
        )

    assert at("2001:db8:1:2::a", "1111").status_code == 403
    assert at("2001:db8:1:2::a", PIN).status_code == 429
    assert at("2001:db8:1:2::b", PIN).status_code == 200
    for i in range(lockout.NETWORK_FACTOR - 1):
        assert at(f"2001:db8:1:2::1:{i:x}", "1111").status_code == 403
    assert at("2001:db8:1:2::c", PIN).status_code == 429
    assert at("2001:db8:1:3::c", PIN).status_code == 200  # another /64


def test_the_director_clears_a_pin_lockout_from_the_screen(make_app):
    """Issue 29, item 7: five wrong taps lock the director out of an open kiosk for 15 minutes;
    the director page clears it (CSRF-checked like its other forms), and the kiosk is told the
    wait in minutes."""
    from .conftest import form_csrf

    app = make_app(JUDGE_PIN=PIN)
    add_director(app)
    kiosk = app.test_client()
    assert [unlock(kiosk, "1111").status_code for _ in range(5)] == [403] * 5
    locked = unlock(kiosk, PIN)
    assert locked.status_code == 429 and "15 min" in locked.json["detail"]
    director = app.test_client()
    login(director)
    csrf = form_csrf(director.get("/director/").get_data(as_text=True))
    assert director.post("/director/pin-lockouts/clear", data={}).status_code == 403
    assert unlock(kiosk, PIN).status_code == 429  # still locked: the forged post did nothing
    cleared = director.post("/director/pin-lockouts/clear", data={"csrf": csrf})
    assert cleared.status_code == 303
    assert unlock(kiosk, PIN).status_code == 200
