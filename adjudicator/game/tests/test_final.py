"""Final adjustments, clock penalties and the winner (docs/rules.md §10–§11), by source."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.game.errors import GameInputError
from adjudicator.game.final import PlayerEnd, final_score

from .helpers import player, profile, rules


def scores(result):
    return [p.final_score for p in result.players]


def test_dsf_final_adjustment_000_5_1a():
    """000 §5.1a: tiles left cost twice their value; the one who went out gains nothing.
    Danish values: Z 8, Æ 4, E 1 → ZÆE = 13, twice = 26."""
    r = final_score(
        rules("dsf-2015"),
        profile("dsf-2015"),
        [player("dsf-2015", "Anne", 300), player("dsf-2015", "Bo", 310, "ZÆE")],
        "out",
        went_out="Anne",
    )
    assert scores(r) == [300, 284]
    assert r.winner == "Anne"
    assert r.players[1].adjustments[0].source == "000 §5.1a"
    assert r.players[1].adjustments[0].reason == "tiles left EZÆ worth 13: loses 2 × their value"
    assert r.players[0].adjustments == []  # DSF: the one who went out gains nothing


@pytest.mark.parametrize(
    "ruleset, reason",
    [
        ("wespa", "went out: gains the tiles left on the other racks (11)"),
        ("naspa", "went out: gains 2 × the tiles left on the other racks (11)"),
    ],
)
def test_the_gain_of_going_out_names_its_factor_when_not_one(ruleset, reason):
    """WESPA: the one who went out gains the others' racks once (`1 ×` goes unsaid); NASPA
    twice, and the others lose nothing."""
    r = final_score(
        rules(ruleset),
        profile(ruleset),
        [player(ruleset, "A", 300), player(ruleset, "B", 310, "QI")],
        "out",
        went_out="A",
    )
    (gain,) = r.players[0].adjustments
    assert gain.kind == "out_bonus" and gain.reason == reason


def test_dsf_passes_ending_both_lose_twice_000_5_1a():
    r = final_score(
        rules("dsf-2015"),
        profile("dsf-2015"),
        [player("dsf-2015", "A", 200, "AB"), player("dsf-2015", "B", 205, "C")],
        "passes",
    )
    # AB = 1 + 3 = 4 → −8; C = 8 → −16
    assert scores(r) == [192, 189]


def test_dsf_overtime_loses_whatever_the_score_000_4_4_1c():
    r = final_score(
        rules("dsf-2015"),
        profile("dsf-2015"),
        [player("dsf-2015", "A", 400, overtime=5.5), player("dsf-2015", "B", 250, "E")],
        "out",
        went_out="A",
    )
    # A: −60 for 6 started minutes → 340, but more than 5 minutes over: B wins with 248.
    assert scores(r) == [340, 248]
    assert r.winner == "B" and r.players[0].lost_on_time


def test_dsf_overtime_ending_needs_more_than_5_minutes_000_5c():
    """000 §5c: "Hvis en spiller overskrider fem minutters overtid afsluttes spillet": the game
    ends on overtime only when somebody is more than 5 minutes over."""
    two = [player("dsf-2015", "A", 400, overtime=2), player("dsf-2015", "B", 250, "E")]
    with pytest.raises(GameInputError, match="more than 5 minutes over, and nobody is"):
        final_score(rules("dsf-2015"), profile("dsf-2015"), two, "overtime")
    six = [player("dsf-2015", "A", 400, overtime=5.5), player("dsf-2015", "B", 250, "E")]
    r = final_score(rules("dsf-2015"), profile("dsf-2015"), six, "overtime")
    assert r.winner == "B" and r.players[0].lost_on_time


def test_ssf_out_gains_opponents_rack_002():
    """002: the one who went out gains the opponent's rack value; the opponent loses it.
    Swedish values: Z 10, Ö 4 → 14."""
    r = final_score(
        rules("ssf-1999"),
        profile("ssf-1999"),
        [player("ssf-1999", "A", 300), player("ssf-1999", "B", 320, "ZÖ")],
        "out",
        went_out="A",
    )
    assert scores(r) == [314, 306] and r.winner == "A"


def test_ssf_six_scoreless_each_loses_own_rack_002():
    r = final_score(
        rules("ssf-1999"),
        profile("ssf-1999"),
        [player("ssf-1999", "A", 100, "AB"), player("ssf-1999", "B", 100, "?C")],
        "scoreless",
    )
    # AB = 1 + 4 = 5, ?C = 0 + 8 = 8
    assert scores(r) == [95, 92]


def test_ssf_15_minutes_over_loses_by_at_least_150_002():
    """002: "Poängskillnaden ska vara den faktiska … men minst 150 poäng"."""
    r = final_score(
        rules("ssf-1999"),
        profile("ssf-1999"),
        [player("ssf-1999", "A", 450, overtime=15), player("ssf-1999", "B", 400, "A")],
        "out",
        went_out="A",
    )
    # A: 450 + 1 (B's A) − 150 (15 started minutes) = 301; B: 400 − 1 = 399.
    # A lost on time: the spread is the real 98, raised to 150 → A 249.
    assert scores(r) == [249, 399] and r.winner == "B"
    assert [a.kind for a in r.players[0].adjustments] == [
        "out_bonus",
        "overtime",
        "time_loss_spread",
    ]


def test_sbnl_each_loses_own_rack_only_003_einde():
    """003: "hun totaalscore verminderd met het totaal van de puntenwaarden"; nothing added."""
    r = final_score(
        rules("sbnl-punten"),
        profile("sbnl-punten"),
        [player("sbnl-punten", "A", 250), player("sbnl-punten", "B", 240, "QE")],
        "out",
        went_out="A",
    )
    assert scores(r) == [250, 229]  # Q 10 + E 1


def test_home_out_gains_sum_of_all_racks_004():
    """004: all lose their own rack, the one who went out gains the sum (3 players)."""
    r = final_score(
        rules("dk-home"),
        profile("dk-home"),
        [
            player("dk-home", "A", 150),
            player("dk-home", "B", 160, "ZA"),  # 9
            player("dk-home", "C", 140, "EE"),  # 2
        ],
        "out",
        went_out="A",
    )
    assert scores(r) == [161, 151, 138] and r.winner == "A"


def test_home_point_target_no_adjustment_004():
    r = final_score(
        rules("dk-home"),
        profile("dk-home"),
        [player("dk-home", "A", 300, "ZA"), player("dk-home", "B", 200, "E")],
        "point_target",
        point_target=300,
    )
    assert scores(r) == [300, 200]
    with pytest.raises(GameInputError):
        final_score(
            rules("dk-home"),
            profile("dk-home"),
            [player("dk-home", "A", 299), player("dk-home", "B", 200)],
            "point_target",
            point_target=300,
        )


def test_home_ties_are_shared_004():
    """004: "Ægte uafgjort deles"."""
    r = final_score(
        rules("dk-home"),
        profile("dk-home"),
        [player("dk-home", "A", 200, "E"), player("dk-home", "B", 200, "A")],
        "scoreless",
    )
    assert r.tie and r.winner is None and r.winners == ["A", "B"]
    assert {p.result for p in r.players} == {"tie"}


def test_naspa_out_gains_twice_opponents_rack():
    r = final_score(
        rules("naspa"),
        profile("naspa"),
        [player("naspa", "A", 400), player("naspa", "B", 390, "DATSXK")],
        "out",
        went_out="A",
    )
    assert scores(r) == [436, 390]  # boys1.gcg: (DATSXK) +36


def test_inconsistent_input_is_refused():
    r, p = rules("dsf-2015"), profile("dsf-2015")
    with pytest.raises(GameInputError) as e:  # the Danish set has one Z
        final_score(
            r, p, [player("dsf-2015", "A", 1, "Z"), player("dsf-2015", "B", 1, "Z")], "passes"
        )
    assert e.value.code == "too_many_tiles"
    with pytest.raises(GameInputError):  # went out with tiles left
        final_score(r, p, [player("dsf-2015", "A", 1, "E"), player("dsf-2015", "B", 1)], "out", "A")
    with pytest.raises(GameInputError):  # DSF has no six-scoreless rule
        final_score(r, p, [player("dsf-2015", "A", 1), player("dsf-2015", "B", 1)], "scoreless")
    with pytest.raises(GameInputError):  # tournament games are for two
        final_score(r, p, [player("dsf-2015", n, 1) for n in "ABC"], "passes")


@settings(max_examples=150, deadline=None)
@given(
    rid=st.sampled_from(["ssf-1999", "wespa", "dk-home"]),
    racks=st.lists(st.text(alphabet="AEIRSTNLO?", max_size=7), min_size=2, max_size=4),
    base=st.lists(st.integers(-50, 600), min_size=4, max_size=4),
)
def test_zero_sum_out_adjustment_002_004(rid, racks, base):
    """Where the rule is zero-sum (SSF, WESPA, home), the one who went out gains exactly what
    the others lose, whatever the racks."""
    r = rules(rid)
    if len(racks) > r.max_players:
        racks = racks[:2]
    racks[0] = ""
    prof = profile(rid)
    players = [PlayerEnd(f"P{i}", base[i], Counter(rack)) for i, rack in enumerate(racks)]
    try:
        result = final_score(r, prof, players, "out", went_out="P0")
    except GameInputError:
        return  # more of a tile than the set has: refused, nothing to conserve
    before = sum(p.score for p in players)
    assert sum(scores(result)) == before


@settings(max_examples=100, deadline=None)
@given(rack=st.text(alphabet="ABCDEZ?", max_size=7))
def test_naspa_out_bonus_is_twice_rack(rack):
    prof = profile("naspa")
    try:
        opp = player("naspa", "B", 0, rack)
        result = final_score(rules("naspa"), prof, [player("naspa", "A", 0), opp], "out", "A")
    except GameInputError:
        return  # more blanks or Zs than the set has
    assert scores(result)[0] == 2 * result.players[1].rack_value and scores(result)[1] == 0
