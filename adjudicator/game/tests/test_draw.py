"""Who starts (docs/rules.md §12), each test citing its source section."""

from __future__ import annotations

import pytest

from adjudicator.game.draw import draw_order
from adjudicator.game.errors import GameInputError

from .helpers import profile, rules


def settle(ruleset: str, rounds: list[dict[str, str]], players=("Ann", "Bo"), **options):
    return draw_order(rules(ruleset), profile(ruleset), list(players), rounds, **options)


def test_dsf_nearest_a_starts_000_3_3a():
    """000 §3.3a: "Den, der får det bogstav, der alfabetisk er tættest på A, starter"."""
    r = settle("dsf-2015", [{"Ann": "E", "Bo": "C"}])
    assert r.decided and r.winner == "Bo" and r.to_dict()["starts"] == "Bo"


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
    d = settle("ssf-1999", [{"Ann": "Ö", "Bo": "Å"}]).to_dict()
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


def test_home_default_reading_is_nearest_a_with_the_end_on_offer_004_forberedelse():
    """004 Forberedelse: "højeste bogstav først" names no end of the alphabet: dk-home reads it
    as nearest A (docs/rules.md §12) and offers nearest Å as a per-request option."""
    draw = rules("dk-home").draw
    assert draw.nearest == "start" and draw.nearest_option
    d = settle("dk-home", [{"Ann": "Å", "Bo": "B"}]).to_dict()
    assert d["starts"] == "Bo" and d["nearest"] == "start"


def test_home_nearest_end_reading_004_forberedelse():
    """The other reading of "højeste bogstav først": the letter nearest Å starts."""
    r = settle("dk-home", [{"Ann": "Å", "Bo": "Ø", "Cy": "A"}], ("Ann", "Bo", "Cy"), nearest="end")
    d = r.to_dict()
    assert d["starts"] == "Ann" and d["nearest"] == "end"
    assert "end of the alphabet" in d["rounds"][0]["why"]


@pytest.mark.parametrize("nearest", ["start", "end"])
def test_home_blank_beats_all_in_both_readings_004_forberedelse(nearest):
    """004 Forberedelse: "blanke slår alt", whichever end of the alphabet counts as highest."""
    r = settle(
        "dk-home", [{"Ann": "A", "Bo": "?", "Cy": "Å"}], ("Ann", "Bo", "Cy"), nearest=nearest
    )
    assert r.winner == "Bo"


def test_home_end_reading_ties_draw_again_004():
    r = settle("dk-home", [{"Ann": "Å", "Bo": "Å"}, {"Ann": "Z", "Bo": "Æ"}], nearest="end")
    assert r.winner == "Bo"  # Danish order: Z Æ Ø Å


def test_a_ruleset_without_the_option_keeps_its_reading_000_3_3a():
    """000 §3.3a says "tættest på A" outright: dsf-2015 offers no other reading."""
    assert settle("dsf-2015", [{"Ann": "E", "Bo": "C"}], nearest="start").winner == "Bo"
    with pytest.raises(GameInputError) as e:
        settle("dsf-2015", [{"Ann": "E", "Bo": "C"}], nearest="end")
    assert e.value.field == "nearest" and e.value.code == "inconsistent_input"
    source = rules("dsf-2015").draw.source
    assert str(e.value) == (
        f"dsf-2015 has one reading of the draw: nearest the start of the alphabet ({source})"
    )


def test_ssf_given_winner_chooses_002():
    """002 names no draw method: the players' draw, done however they chose, gives a winner,
    who chooses between starting and how the board faces."""
    d = draw_order(rules("ssf-1999"), profile("ssf-1999"), ["Eva", "Olle"], [], winner="Eva")
    d = d.to_dict()
    assert d["decided"] and d["chooses"] == "Eva" and d["starts"] is None
    assert d["choices"] == ["start", "board_orientation"] and d["next_draw"] == []
    assert d["settled_by"] == "given" and d["rounds"] == [] and d["source"].startswith("002")


def test_ssf_tiles_still_settle_the_draw_002():
    d = settle("ssf-1999", [{"Ann": "Ö", "Bo": "Å"}]).to_dict()
    assert d["settled_by"] == "tiles" and d["chooses"] == "Bo"


def test_ssf_given_winner_must_agree_with_the_tiles_drawn_002():
    assert settle("ssf-1999", [{"Ann": "Ö", "Bo": "Å"}], winner="Bo").winner == "Bo"
    for rounds in ([{"Ann": "Ö", "Bo": "Å"}], [{"Ann": "K", "Bo": "K"}]):  # other, undecided
        with pytest.raises(GameInputError) as e:
            settle("ssf-1999", rounds, winner="Ann")
        assert e.value.field == "winner"


@pytest.mark.parametrize(
    "ruleset, winner, code",
    [
        ("ssf-1999", "Cy", "unknown_player"),  # not among the players
        ("dsf-2015", "Ann", "inconsistent_input"),  # 000 §3.3a: the tiles decide
        ("dk-home", "Ann", "inconsistent_input"),  # 004 Forberedelse: the tiles decide
    ],
)
def test_a_given_winner_only_where_the_ruleset_takes_one(ruleset, winner, code):
    with pytest.raises(GameInputError) as e:
        draw_order(rules(ruleset), profile(ruleset), ["Ann", "Bo"], [], winner=winner)
    assert e.value.field == "winner" and e.value.code == code


@pytest.mark.parametrize("ruleset", ["dsf-2015", "ssf-1999"])
def test_a_blank_drawn_is_an_inference_with_the_other_reading_on_offer(ruleset):
    """000 §3.3a names letters only ("det bogstav, der alfabetisk er tættest på A") and 002
    names no draw method: neither says what a drawn blank does. "Not counted, draw again" (as
    003 Begin van het spel) is the default and an inference; "a blank beats every letter" (as
    004 Forberedelse) is the other, offered per request (`blank`)."""
    r = rules(ruleset)
    assert r.draw.blank == "not_counted" and r.draw.blank_option
    assert "inference" in r.draw.source
    default = settle(ruleset, [{"Ann": "?", "Bo": "A"}])
    assert not default.decided and default.next_draw == ["Ann"]
    assert default.to_dict()["blank"] == "not_counted"
    beats = settle(ruleset, [{"Ann": "?", "Bo": "A"}], blank="beats_all")
    assert beats.decided and beats.winner == "Ann"
    assert beats.to_dict()["blank"] == "beats_all"
    assert "a blank beats every letter" in beats.rounds[0]["why"]


@pytest.mark.parametrize("ruleset, own", [("sbnl-punten", "not_counted"), ("dk-home", "beats_all")])
def test_a_ruleset_whose_source_says_what_a_blank_does_takes_no_other_reading(ruleset, own):
    """003 Begin van het spel ("De blanco blokjes tellen in dit geval niet mee") and 004
    Forberedelse ("blanke slår alt") say it outright: no other reading is offered."""
    other = next(b for b in ("beats_all", "not_counted") if b != own)
    assert settle(ruleset, [{"Ann": "?", "Bo": "M"}], blank=own).to_dict()["blank"] == own
    with pytest.raises(GameInputError) as e:
        settle(ruleset, [{"Ann": "?", "Bo": "M"}], blank=other)
    assert e.value.field == "blank" and e.value.code == "inconsistent_input"
    source = rules(ruleset).draw.source
    assert str(
        e.value
    ) == f"{ruleset} has one reading of a drawn blank: {own.replace('_', ' ')}" + (f" ({source})")
