"""004 Almindelige varianter, "Mange hjem tillader egennavne": the house variant
`dk-home-egennavne` rules with a build that keeps proper names, and is never mixed into a
tournament (docs/rules.md §4.6).

On the tiny lexicons of conftest.py: `wdanish-egennavne` is the Danish words plus two proper
names, compiled with the capitals filter off; every other Danish list is compiled with it on.
"""

from __future__ import annotations

import pytest

from adjudicator import create_app
from adjudicator.auth.tests.conftest import JUDGE_HEADER, add_director, login
from adjudicator.game.rules import tables
from adjudicator.rulesets import Ruleset, RulesetFileError, bundled_files, load_rulesets

from .conftest import HOUSE_LEXICON, PROPER_NAMES

HOUSE = "dk-home-egennavne"
NAME = PROPER_NAMES[0]  # København


def danish_tournament_rulesets() -> list[str]:
    """Every Danish ruleset that is not a house variant: each must refuse a proper name."""
    found = sorted(
        r.id for r in load_rulesets().values() if r.language == "da" and not r.house_variant
    )
    assert {"dsf-2015", "dk-home"} <= set(found)
    return found


def verdict(client, ruleset: str, word: str, headers=None) -> bool:
    response = client.post(
        f"/api/v1/rulesets/{ruleset}/challenge", json={"words": [word]}, headers=headers or {}
    )
    assert response.status_code == 200, (ruleset, response.json)
    return response.json["ruling"] == "valid"


def _own(table: dict, ruleset_id: str) -> dict:
    """A table's dump, its `source` left out where it is only the ruleset's own id (the default)."""
    return {k: v for k, v in table.items() if not (k == "source" and v == ruleset_id)}


def test_the_house_variant_plays_the_rules_of_dk_home_and_cites_004():
    """004 Almindelige varianter: the variant changes which words count, nothing else; the copy
    of dk-home's tables cannot drift from them."""
    rulesets = load_rulesets()
    house, base = rulesets[HOUSE], rulesets["dk-home"]
    assert (house.house.variant_of, house.house.source) == ("dk-home", "004 Almindelige varianter")
    assert house.house_variant and not base.house_variant
    assert house.lexicon == HOUSE_LEXICON != base.lexicon
    by_key = tables(Ruleset)
    for name, info in Ruleset.model_fields.items():
        table = info.alias or name
        if table not in by_key or table == "house":
            continue
        ours = _own(getattr(house, name).model_dump(), HOUSE)
        theirs = _own(getattr(base, name).model_dump(), "dk-home")
        assert ours == theirs, table
    for key in ("language", "max_players", "players_source", "sources"):
        assert getattr(house, key) == getattr(base, key), key
    # no bundled ruleset but the house variant is one
    assert [r.id for r in rulesets.values() if r.house_variant] == [HOUSE]


def test_a_proper_name_is_valid_under_the_house_variant_only(client):
    """004 Almindelige varianter: valid under dk-home-egennavne; invalid under every Danish
    ruleset that is not a house variant (000 §2.1: the tournament list drops proper names)."""
    for name in PROPER_NAMES:
        assert verdict(client, HOUSE, name) is True
        assert verdict(client, HOUSE, name.lower()) is True  # a player's case means nothing
        for ruleset in danish_tournament_rulesets():
            assert verdict(client, ruleset, name) is False, ruleset
    assert verdict(client, HOUSE, "elguitar") and verdict(client, "dsf-2015", "elguitar")


def test_the_public_view_and_the_lexicon_say_what_the_house_build_turned_off(client):
    view = client.get(f"/api/v1/rulesets/{HOUSE}").json
    assert view["available"] is True
    assert view["house"] == {"source": "004 Almindelige varianter", "variant_of": "dk-home"}
    assert view["lexicon"]["filters_off"] == {"capitalised": "004 Almindelige varianter"}
    tournament_view = client.get("/api/v1/rulesets/dsf-2015").json
    assert "house" not in tournament_view and "filters_off" not in tournament_view["lexicon"]


def test_the_kiosk_of_the_house_variant_says_so(client):
    page = client.get(f"/judge/{HOUSE}").get_data(as_text=True)
    assert 'id="house-badge"' in page and "husvariant: egennavne tilladt" in page
    assert 'id="house-badge"' not in client.get("/judge/dk-home").get_data(as_text=True)


@pytest.fixture
def tournament(lexicon_dir, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'store.db'}",
            "MODE": "tournament",
        }
    )
    add_director(app)
    return app


def test_tournament_mode_never_offers_the_house_variant(tournament):
    """Not listed anywhere a tablet or a client chooses a ruleset (the API's list, the kiosk
    index, the landing page's kiosks, the pairing form)."""
    director = tournament.test_client()
    assert login(director).status_code == 303
    listed = [r["id"] for r in director.get("/api/v1/rulesets").json["rulesets"]]
    assert "dk-home" in listed and HOUSE not in listed
    assert f"/judge/{HOUSE}" not in director.get("/judge/").get_data(as_text=True)
    assert f"/judge/{HOUSE}" not in director.get("/").get_data(as_text=True)
    assert f'value="{HOUSE}"' not in director.get("/director/").get_data(as_text=True)
    ready = director.get("/api/v1/readyz").json
    assert HOUSE not in ready["rulesets"] and ready["ready"] is True


def test_tournament_mode_refuses_the_house_variant_by_name(tournament):
    """Named all the same: refused with a problem that says why, never ruled (403), for the
    director too; the kiosk page says it in its language."""
    director = tournament.test_client()
    login(director)
    response = director.post(
        f"/api/v1/rulesets/{HOUSE}/challenge", json={"words": [NAME]}, headers=JUDGE_HEADER
    )
    assert response.status_code == 403
    assert response.json["code"] == "house_ruleset" and "tournament mode" in response.json["detail"]
    assert director.get(f"/api/v1/rulesets/{HOUSE}").json["code"] == "house_ruleset"
    # the same word under the Danish tournament rulesets: ruled, and invalid
    for ruleset in danish_tournament_rulesets():
        assert verdict(director, ruleset, NAME, JUDGE_HEADER) is False
    page = director.get(f"/judge/{HOUSE}?lang=da")
    assert page.status_code == 403
    assert "Husvariant, ikke til turneringer" in page.get_data(as_text=True)
    assert director.get("/judge/nope").status_code == 404  # unknown stays unknown


def test_a_house_variant_required_in_tournament_mode_is_unready_and_says_why(lexicon_dir, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'store.db'}",
            "MODE": "tournament",
            "RULESETS": f"dsf-2015,{HOUSE}",
        }
    )
    ready = app.test_client().get("/api/v1/readyz")
    assert ready.status_code == 503
    assert ready.json["unavailable_rulesets"] == [HOUSE]
    assert "house variant" in ready.json["rulesets"][HOUSE]["reason"]


def test_a_tournament_ruleset_never_resolves_to_a_house_build(lexicon_dir, tmp_path):
    """A deployment's lexicons.toml pointing dsf-2015 at the house build: dsf-2015 is
    unavailable and says why, in every mode; it never rules with proper names."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "lexicons.toml").write_text(f'dsf-2015 = "{HOUSE_LEXICON}"\n')
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "RULESET_DIR": str(rules)})
    client = app.test_client()
    response = client.post("/api/v1/rulesets/dsf-2015/challenge", json={"words": [NAME]})
    assert response.status_code == 503 and response.json["code"] == "ruleset_unavailable"
    assert "house build" in response.json["detail"] and "capitalised" in response.json["detail"]
    assert client.get("/api/v1/rulesets/dsf-2015").json["available"] is False
    ready = client.get("/api/v1/readyz").json
    assert "dsf-2015" in ready["unavailable_rulesets"]
    assert "house build" in ready["rulesets"]["dsf-2015"]["reason"]
    assert verdict(client, HOUSE, NAME) is True  # the house variant itself still serves


@pytest.mark.parametrize(
    "variant_of, why", [("nope", "'nope' is no ruleset"), (HOUSE, "is a house variant itself")]
)
def test_a_house_variant_must_name_a_ruleset_it_varies(tmp_path, variant_of, why):
    source = next(p for p in bundled_files() if p.stem == HOUSE).read_text("utf-8")
    text = source.replace('variant_of = "dk-home"', f'variant_of = "{variant_of}"')
    text = text.replace(f'id = "{HOUSE}"', 'id = "dk-home-x"')
    (tmp_path / "dk-home-x.toml").write_text(text, encoding="utf-8")
    with pytest.raises(RulesetFileError) as info:
        load_rulesets(tmp_path)
    assert info.value.field == "house.variant_of" and why in info.value.message


def test_the_command_line_never_replays_a_tournament_ruleset_on_a_house_build(
    lexicon_dir, tmp_path, monkeypatch, capsys
):
    """`adjudicator replay` resolves the ruleset's lexicon by the same rule as the service."""
    from adjudicator.cli import main

    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "lexicons.toml").write_text(f'dsf-2015 = "{HOUSE_LEXICON}"\n')
    game = tmp_path / "g.gcg"
    game.write_text("#player1 a A\n#player2 b B\n>a: HEJKLMN 8H HEJ +12 12\n", encoding="utf-8")
    args = ["replay", str(game), "--lexicon-dir", str(lexicon_dir)]
    monkeypatch.setenv("ADJUDICATOR_RULESET_DIR", str(rules))
    assert main([*args, "--ruleset", "dsf-2015"]) == 2
    assert "is a house build" in capsys.readouterr().err
    assert main([*args, "--ruleset", HOUSE]) in (0, 1)  # the house variant itself replays
    monkeypatch.delenv("ADJUDICATOR_RULESET_DIR")
    assert main([*args, "--ruleset", "dsf-2015"]) in (0, 1)
