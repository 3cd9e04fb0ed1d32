"""The kiosk's PIN over HTTP, in open mode: wrong PINs count per device (issue 29, item 7).

An unpaired kiosk gets a random device-id cookie when its page loads, and its wrong PINs count
for that id; the address it tries from stays the wider ceiling, so a kiosk that drops its
cookie (or sends a fresh one per try) gains only that ceiling's tries.
"""

from __future__ import annotations

import pytest
import requests

from api_tests.conftest import start_server, store_cli

PIN = "2468"
VENUE = {"X-Forwarded-For": "10.7.7.7"}  # two kiosks behind one address (the venue's NAT)
JUDGE = {"X-Requested-With": "judge", **VENUE}
ATTEMPTS = 5  # the default: five taps lock the kiosk
CEILING = 4 * ATTEMPTS  # lockout.NETWORK_FACTOR times: the address's wider limit


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    database = f"sqlite:///{tmp_path_factory.mktemp('pin-store') / 'adjudicator.db'}"
    assert store_cli(database, "db", "upgrade").returncode == 0
    srv = start_server(
        tmp_path_factory.mktemp("pin-gunicorn"),
        ADJUDICATOR_DATABASE_URL=database,
        ADJUDICATOR_JUDGE_PIN=PIN,
        ADJUDICATOR_TRUSTED_PROXIES="1",
    )
    yield srv
    srv.stop()


def kiosk(server) -> requests.Session:
    """A browser that opened a kiosk page, and so holds its own device id."""
    session = requests.Session()
    page = session.get(f"{server.url}/judge/ssf-1999", headers=VENUE, timeout=10)
    assert page.status_code == 200
    cookie = page.headers["Set-Cookie"]
    assert "adj_kiosk=" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    again = session.get(f"{server.url}/judge/ssf-1999", headers=VENUE, timeout=10)
    assert "adj_kiosk" not in again.headers.get("Set-Cookie", "")  # kept, not renewed
    return session


def unlock(server, session, pin: str) -> requests.Response:
    return session.post(server.api("/judge/unlock"), json={"pin": pin}, headers=JUDGE, timeout=10)


def test_five_wrong_pins_lock_that_kiosk_only_under_the_addresss_ceiling(server):
    mashed, beside = kiosk(server), kiosk(server)
    assert [unlock(server, mashed, "1111").status_code for _ in range(ATTEMPTS)] == [403] * 5
    locked = unlock(server, mashed, PIN)
    assert locked.status_code == 429 and locked.json()["code"] == "too_many_attempts"
    assert "15 min" in locked.json()["detail"]
    assert unlock(server, beside, PIN).status_code == 200  # same address, another device
    # Dropping the cookie does not reset the count: fresh device ids (and none at all) from the
    # same address meet the address's ceiling, and then every kiosk behind it waits.
    for _ in range(CEILING // ATTEMPTS - 2):
        fresh = kiosk(server)
        assert [unlock(server, fresh, "1111").status_code for _ in range(ATTEMPTS)] == [403] * 5
    bare = requests.Session()
    codes = [unlock(server, bare, "1111").status_code for _ in range(ATTEMPTS)]
    assert codes == [403] * ATTEMPTS
    assert unlock(server, kiosk(server), PIN).status_code == 429
    assert unlock(server, beside, PIN).status_code == 429
    elsewhere = {"X-Requested-With": "judge", "X-Forwarded-For": "10.7.7.8"}
    other = requests.post(server.api("/judge/unlock"), json={"pin": PIN}, headers=elsewhere)
    assert other.status_code == 200
