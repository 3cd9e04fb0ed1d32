"""Made-up whole games that empty the bag (written by `make_records.py`): three and four
players, a player going out, six scoreless turns after the bag ran out, a player who can no
longer place. Their plays' scores are the engine's; the end of each game is worked out here."""

from __future__ import annotations

from pathlib import Path

from adjudicator.game.gcg import read
from adjudicator.game.walk import walk

from .helpers import profile, rules

RECORDS = Path(__file__).parent / "records"


def run(name: str, ruleset: str):
    v = walk(read(RECORDS / f"{name}.gcg"), rules(ruleset), profile(ruleset))
    devs = [d for t in v.turns for d in t.deviations] + v.deviations_at_end
    assert v.scores_ok and not devs, devs
    return v


def test_three_players_one_goes_out_then_a_pass_004():
    """Mor goes out with the bag empty (004 "Spillets afslutning"). Far's pass right after is
    the Macondo/Woogles way of writing "no challenge": not a turn after the game ended.
    Far DLORSTT = 2+2+2+1+2+2+2 = 13 → 770 − 13 = 757; Ida GS = 3+2 = 5 → 701 − 5 = 696;
    Mor gains the sum of all the others' tiles, 18: 903 + 18 = 921 (004: "den, der gik ud,
    lægger summen af alle andres rester til sin egen score")."""
    v = run("dk-home-3-players", "dk-home")
    assert v.ended == "out" and v.went_out == "Mor"
    assert v.final_scores == {"Mor": 921, "Far": 757, "Ida": 696} and v.winner == "Mor"
    declined = v.turns[-4]
    assert declined.kind == "pass" and "does not challenge the last play" in declined.notes[0]


def test_four_players_six_scoreless_after_the_bag_ran_out_004():
    """Four players (004: "alle andres rester"); the bag runs out and six passes end the game:
    "Tømmes posen, uden at nogen kan gå ud, slutter spillet efter seks pointløse ture i træk.
    I så fald trækker alle deres egne rester fra, og ingen får bonus" (004 Pointgivning).
    Mor ABFIMRR = 1+3+3+3+3+1+1 = 15 → 381; Far BCDEMOÆ = 3+8+2+1+3+2+4 = 23 → 501;
    Ida GI = 3+3 = 6 → 562; Bo EFHILRÅ = 1+3+4+3+2+1+4 = 18 → 413. Ida wins."""
    v = run("dk-home-4-players", "dk-home")
    assert v.ended == "scoreless" and v.players == ["Mor", "Far", "Ida", "Bo"]
    assert v.final_scores == {"Mor": 381, "Far": 501, "Ida": 562, "Bo": 413}
    assert v.winner == "Ida"
