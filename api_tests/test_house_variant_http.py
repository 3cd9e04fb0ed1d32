"""004 Almindelige varianter, "Mange hjem tillader egennavne", over real HTTP against gunicorn
serving the bundled lexicons (`make lexicons`): a proper name is valid under the house variant
`dk-home-egennavne` and invalid under every Danish tournament ruleset; in tournament mode the
house variant is not offered and is refused by name (docs/rules.md §4.6)."""

from __future__ import annotations

import pytest

from api_tests.conftest import start_tournament

HOUSE = "dk-home-egennavne"
# Proper names in the bundled Danish source (wdanish), which the tournament lists drop.
PROPER_NAMES = ["København", "Asbjørn", "Zimbabwe"]
PASSWORD = "correct horse battery"


def ruling(http, server, ruleset: str, words: list[str], **kw) -> dict:
    response = http.post(server.api(f"/rulesets/{ruleset}/challenge"), json={"words": words}, **kw)
    assert response.status_code == 200, (ruleset, response.text)
    return response.json()


def danish_tournament_rulesets(http, server) -> list[str]:
    """Every Danish ruleset the service lists that is not a house variant."""
    listed = http.get(server.api("/rulesets")).json()["rulesets"]
    found = sorted(r["id"] for r in listed if r["language"] == "da" and "house" not in r)
    assert {"dsf-2015", "dk-home"} <= set(found) and HOUSE not in found
    return found


def test_a_proper_name_is_valid_under_the_house_variant_only(server, http):
    """004 Almindelige varianter: the house build keeps proper names; 000 §2.1 (the tournament
    list) and every other Danish ruleset do not."""
    view = http.get(server.api(f"/rulesets/{HOUSE}")).json()
    assert view["available"] is True and view["house"]["variant_of"] == "dk-home"
    assert view["house"]["source"] == "004 Almindelige varianter"
    assert set(view["lexicon"]["filters_off"]) == {"capitalised"}
    home = ruling(http, server, HOUSE, PROPER_NAMES)
    assert home["ruling"] == "valid" and home["lexicon"]["id"] == "wdanish-egennavne"
    for ruleset in danish_tournament_rulesets(http, server):
        for name in PROPER_NAMES:
            answer = ruling(http, server, ruleset, [name])
            assert answer["ruling"] == "invalid", (ruleset, name)
            assert answer["lexicon"]["id"] != "wdanish-egennavne"
    # an ordinary word is a word under both: only proper names differ
    assert ruling(http, server, HOUSE, ["hej", "ord"])["ruling"] == "valid"


def test_no_tournament_ruleset_resolves_to_the_house_build(server, http):
    listed = http.get(server.api("/rulesets")).json()["rulesets"]
    users = sorted(r["id"] for r in listed if r["lexicon"]["id"] == "wdanish-egennavne")
    assert users == [HOUSE]
    house_builds = [
        x for x in http.get(server.api("/lexicons")).json()["lexicons"] if "filters_off" in x
    ]
    assert [x["id"] for x in house_builds] == ["wdanish-egennavne"]


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    folder = tmp_path_factory.mktemp("house-tournament")
    srv = start_tournament(folder, PASSWORD)
    yield srv
    srv.stop()


def test_tournament_mode_does_not_offer_the_house_variant_and_refuses_it(tournament, http):
    import requests

    director = requests.Session()
    login = director.post(
        f"{tournament.url}/director/login", data={"name": "anna", "password": PASSWORD}, timeout=10
    )
    assert login.ok
    headers = {"X-Requested-With": "judge"}
    listed = [r["id"] for r in director.get(tournament.api("/rulesets")).json()["rulesets"]]
    assert "dk-home" in listed and HOUSE not in listed
    assert f"/judge/{HOUSE}" not in director.get(f"{tournament.url}/judge/").text
    refused = director.post(
        tournament.api(f"/rulesets/{HOUSE}/challenge"),
        json={"words": PROPER_NAMES},
        headers=headers,
    )
    assert refused.status_code == 403 and refused.json()["code"] == "house_ruleset"
    assert refused.headers["Content-Type"].startswith("application/problem+json")
    for ruleset in ("dsf-2015", "dk-home"):
        answer = director.post(
            tournament.api(f"/rulesets/{ruleset}/challenge"),
            json={"words": ["København"]},
            headers=headers,
        )
        assert answer.status_code == 200 and answer.json()["ruling"] == "invalid"
    kiosk = requests.get(f"{tournament.url}/judge/{HOUSE}?lang=da", timeout=10)
    assert kiosk.status_code == 403 and "Husvariant, ikke til turneringer" in kiosk.text
    ready = requests.get(tournament.api("/readyz"), timeout=10).json()
    assert ready["ready"] is True and HOUSE not in ready["rulesets"]
