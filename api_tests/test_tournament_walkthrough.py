"""The "Run a tournament" how-to (docs/how-to/run-a-tournament.md), step by step, against a
real `adjudicator serve` bound to the venue's network (ADJUDICATOR_BIND=0.0.0.0:PORT), as a
laptop at an event is: so the walk-through stays true.

The venue is a LAN of the test's own (testsupport.netns): the server runs in a laptop's network
namespace, reached at the address the test gave it over a veth pair, from a tablet's namespace
at the other end; the director's steps on the laptop itself use its loopback. The test never
sends a packet to this machine's own network address. Without root (or `ip`) it skips."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import requests

from api_tests.conftest import csrf_token, free_port, start_server, store_cli
from testsupport.netns import LAPTOP_ADDRESS, NamespacesUnavailable, Venue

pytestmark = pytest.mark.slow  # a server (and a browser): left out of `make test-quick`

PASSWORD = "correct horse battery"
ADJUDICATOR = str(Path(sys.executable).with_name("adjudicator"))


@pytest.fixture(scope="module")
def venue():
    try:
        made = Venue().start()
    except NamespacesUnavailable as exc:
        pytest.skip(f"the venue's own network cannot be made here: {exc}")
    yield made
    made.stop()


@pytest.fixture(scope="module")
def event(tmp_path_factory, venue):
    folder = tmp_path_factory.mktemp("walkthrough")
    database = f"sqlite:///{folder / 'adjudicator.db'}"
    assert store_cli(database, "db", "upgrade").returncode == 0  # `adjudicator db upgrade`
    added = store_cli(database, "directors", "add", "bo", "--password-stdin", stdin=PASSWORD)
    assert added.returncode == 0, added.stderr
    port = free_port()
    server = start_server(
        folder,
        venue,
        ADJUDICATOR_DATABASE_URL=database,
        ADJUDICATOR_MODE="tournament",
        ADJUDICATOR_BIND=f"0.0.0.0:{port}",
    )
    yield server, database, f"http://{LAPTOP_ADDRESS}:{port}"
    server.stop()


WALKTHROUGH = Path(__file__).resolve().parents[1] / "docs" / "how-to" / "run-a-tournament.md"


def test_the_walkthrough_page_serves_the_venue_network_as_this_test_does():
    section = WALKTHROUGH.read_text(encoding="utf-8")
    assert "ADJUDICATOR_MODE=tournament ADJUDICATOR_BIND=0.0.0.0:8000 make serve" in section
    assert "http://SERVER:8000/director/login" in section
    assert "http://SERVER:8000/judge/pair" in section


def test_the_walkthrough_on_the_venue_network(event, venue, tmp_path):
    """Every request from the tablet's namespace, across the veth pair, but those the
    director makes on the laptop itself (its loopback, in the laptop's namespace)."""
    venue.on_tablet(lambda: walk_through(event, venue, tmp_path))


def walk_through(event, venue, tmp_path):
    server, database, lan = event
    # The start-up log names the address to open on the network.
    assert f"judge tablets: open {lan}/" in server.log.read_text()

    # 1. The director logs in on the laptop, at the network address.
    director = requests.Session()
    home = director.post(
        f"{lan}/director/login", data={"name": "bo", "password": PASSWORD}, timeout=10
    )
    assert home.status_code == 200 and "Director: bo" in home.text

    # 2. A pairing for "Table 12": a code like K7QM-3XPA and the address the tablets reach.
    csrf = csrf_token(home.text)
    shown = director.post(
        f"{lan}/director/pairings",
        data={"csrf": csrf, "name": "Table 12", "ruleset": "ssf-1999"},
        timeout=10,
    ).text
    code = re.search(r'id="pairing-code">([^<]+)<', shown).group(1)
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    assert f"{lan}/judge/pair" in shown and "pairing-unreachable" not in shown

    # On the laptop itself (127.0.0.1) the pairing names the network address too.
    def pair_on_the_laptop() -> str:
        local = requests.Session()
        local.post(f"{server.url}/director/login", data={"name": "bo", "password": PASSWORD})
        return local.post(
            f"{server.url}/director/pairings",
            data={"csrf": csrf_token(local.get(f"{server.url}/director/").text),
                  "name": "Table 13", "ruleset": "ssf-1999"},
        ).text  # fmt: skip

    on_laptop = venue.on_laptop(pair_on_the_laptop)
    assert f"{lan}/judge/pair" in on_laptop and "pairing-unreachable" not in on_laptop

    # 3. The tablet opens /judge/pair and types the code: its kiosk, its ruleset only.
    tablet = requests.Session()
    tablet.headers["X-Requested-With"] = "judge"
    paired = tablet.post(f"{lan}/judge/pair", data={"code": code}, allow_redirects=False)
    assert paired.status_code == 303 and paired.headers["Location"].endswith("/judge/ssf-1999")
    ruled = tablet.post(f"{lan}/api/v1/rulesets/ssf-1999/challenge", json={"words": ["hej"]})
    assert ruled.status_code == 200, ruled.text
    other = tablet.post(f"{lan}/api/v1/rulesets/dsf-2015/challenge", json={"words": ["hej"]})
    assert other.status_code == 403 and other.json()["code"] == "out_of_scope"
    anonymous = requests.post(f"{lan}/api/v1/rulesets/ssf-1999/challenge", json={"words": ["hej"]})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "credential_required"

    # 6. The ruling is in the log, on the page and as JSON; directors only.
    assert ruled.json()["ruling_id"] in director.get(f"{lan}/director/rulings").text
    log = director.get(f"{lan}/api/v1/audit/rulings", headers={"X-Requested-With": "x"})
    assert (
        log.status_code == 200
        and log.json()["rulings"][0]["ruling_id"] == ruled.json()["ruling_id"]
    )
    assert requests.get(f"{lan}/api/v1/audit/rulings").status_code == 401

    # 4. A lost tablet: `devices list`, then `devices revoke ID`; refused at once.
    listed = store_cli(database, "devices", "list")
    assert listed.returncode == 0 and "Table 12" in listed.stdout
    device_id = next(line.split()[0] for line in listed.stdout.splitlines() if "Table 12" in line)
    assert store_cli(database, "devices", "revoke", device_id).returncode == 0
    gone = tablet.post(f"{lan}/api/v1/rulesets/ssf-1999/challenge", json={"words": ["hej"]})
    assert gone.status_code == 401 and gone.json()["code"] == "credential_invalid"

    # 5. An app key, printed once on standard output.
    made = store_cli(
        database, "keys", "create", "--role", "app", "--name", "scorer", "--scope", "ssf-1999"
    )
    assert made.returncode == 0 and made.stdout.strip().startswith("adj_app_")
    key = made.stdout.strip()
    assert "scorer" in store_cli(database, "keys", "list").stdout
    app = requests.post(
        f"{lan}/api/v1/rulesets/ssf-1999/challenge",
        json={"words": ["hej"]},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert app.status_code == 200

    # 7. After the event: verify the chain, export the record.
    assert store_cli(database, "audit", "verify").returncode == 0
    out = tmp_path / "rulings.csv"
    exported = store_cli(database, "audit", "export", "--format", "csv", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    assert ruled.json()["ruling_id"] in out.read_text(encoding="utf-8-sig")
