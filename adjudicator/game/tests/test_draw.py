"""Who starts (docs/rules.md §12), each test citing its source section."""

from __future__ import annotations

import pytest

from adjudicator.game.draw import draw_order
from adjudicator.game.errors import GameInputError

from .helpers import profile, rules


def settle(ruleset: str, rounds: list[dict[str, str]], players=("Ann", "Bo")):
    return draw_order(rules(ruleset), profile(ruleset), list(players), rounds)


def test_dsf_nearest_a_starts_000_3_3a():
    """000 §3.3a: "Den, der får det bogstav, der alfabetisk er tættest på A, starter"."""
    r = settle("dsf-2015", [{"Ann": "E", "Bo": "C"}])
    assert r.decided and r.winner == "Bo" and r.to_dict(rules("dsf-2015"))["starts"] == "Bo"


def test_dsf_equal_letters_draw_again_000_3_3c():
    """000 §3.3c: "Trækker spillerne det samme, lægger man de to bogstaver tilbage … trækker om"."""
    r = settle("dsf-2015", [{"Ann": "K", "Bo": "K"}])
    assert not r.decided and r.next_draw == ["Ann", "Bo"]
    r = settle("dsf-2015", [{"Ann": "K", "Bo": "K"}, {"Ann": "Ø", "Bo": "Z"}])
    assert r.winner == "Bo"  # Danish order: Z before Æ Ø Å


def test_home_blank_beats_all_004_forberedelse():
    """004 Forberedelse: "højeste bogstav først, og blanke slår alt"."""
    r = settle("dk-home", [{"Ann": "A", "Bo": "?", "Cy": "B"}], ("Ann", "Bo", "Cy"))
    assert r.winner == "Bo"


def test_sbnl_blank_does_not_count_003_begin():
    """003 Begin van het spel: "De blanco blokjes tellen in dit geval niet mee": drawn again."""
    r = settle("sbnl-punten", [{"Ann": "?", "Bo": "M"}])
    assert not r.decided and r.next_draw == ["Ann"]
    r = settle("sbnl-punten", [{"Ann": "?", "Bo": "M"}, {"Ann": "D"}])
    assert r.winner == "Ann"


def test_ssf_winner_chooses_002():
    """002: "Den spelare som har fått fördel i lottningen kan välja mellan två fördelar: att få
    börja matchen eller att få välja hur brädet ska läggas"."""
    d = settle("ssf-1999", [{"Ann": "Ö", "Bo": "Å"}]).to_dict(rules("ssf-1999"))
    assert d["chooses"] == "Bo" and d["starts"] is None  # Swedish order: Å Ä Ö
    assert d["choices"] == ["start", "board_orientation"] and d["source"].startswith("002")


@pytest.mark.parametrize(
    "rounds, field",
    [
        ([{"Ann": "E"}], "draws[0]"),  # Bo did not draw
        ([{"Ann": "E", "Bo": "C"}, {"Ann": "A", "Bo": "B"}], "draws[1]"),  # already decided
        ([{"Ann": "K", "Bo": "K"}, {"Ann": "A"}], "draws[1]"),  # both tied: both redraw
        ([{"Ann": "Q", "Bo": "C"}], "draws[0].Ann"),  # Danish Q has no tile
        ([{"Ann": "X", "Bo": "X"}], "draws[0].Bo"),  # one X in the set
        ([{"Ann": "AB", "Bo": "C"}], "draws[0].Ann"),
    ],
)
def test_impossible_draws_name_the_round(rounds, field):
    with pytest.raises(GameInputError) as e:
        settle("dsf-2015", rounds)
    assert e.value.field == field
