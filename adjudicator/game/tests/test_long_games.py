"""Made-up whole games that empty the bag (written by `make_records.py`): three and four
players, a player going out, six scoreless turns after the bag ran out, a player who can no
longer place. Their plays' scores are the engine's; the end of each game is worked out here."""

from __future__ import annotations

from pathlib import Path

from adjudicator.game.gcg import parse_text as read_text
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


def test_sbnl_a_player_who_cannot_place_sits_out_003_einde():
    """003 Einde van het spel: "Indien één van beide spelers uitsluitend letters heeft die niet
    meer op het speelbord kunnen worden geplaatst, dan mag hij deze letters niet meer
    gebruiken … De medespeler mag daarna zijn letters op het speelbord plaatsen, ongeacht het
    resterende aantal beurten." With fewer than 16 tiles in the bag Piet cannot exchange (003
    Ruilregel) nor pass, so Jan plays three turns in a row and goes out: the game is over
    though the turns are not equal. Piet loses his own ADEKOQT = 1+2+1+3+1+10+2 = 20 → 865."""
    v = run("sbnl-punten-stuck", "sbnl-punten")
    assert v.ended == "out" and v.went_out == "Jan"
    assert "Jan plays on" in v.turns[-4].notes[0]
    assert v.final_scores == {"Jan": 1381, "Piet": 865}


def test_sbnl_a_skipped_player_who_could_exchange_is_a_deviation_003():
    """Early in the game (80 tiles in the bag) the other player could still exchange: playing
    twice in a row is out of turn, and a player who sat out may not come back."""
    text = (Path(__file__).parent / "records" / "sbnl-punten-stuck.gcg").read_text("utf-8")
    lines = text.splitlines()
    early = [ln for ln in lines if not ln.startswith(">Piet")][:12]
    v = walk(read_text("\n".join(early)), rules("sbnl-punten"), profile("sbnl-punten"))
    assert any("not Jan's turn: Piet was due" in d for t in v.turns for d in t.deviations)
    cut = next(i for i, ln in enumerate(lines) if ln.startswith(">Jan: AENOSTZ"))
    late = lines[: cut + 1] + [">Piet: ADEKOQT 15A QE +11 876"]
    v = walk(read_text("\n".join(late)), rules("sbnl-punten"), profile("sbnl-punten"))
    assert any("Piet could no longer place" in d for t in v.turns for d in t.deviations)
