"""Hand-made games, one per seed ruleset, played to the end; scores worked out by hand below.

Premium squares used (docs/rules.md §3): H8 centre ×2 word; F6, J6, J10 ×3 letter; G7, G9, I9 ×2
letter; K11 ×2 word. Every other square used here is plain.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.game.gcg import read
from adjudicator.game.walk import walk

from .helpers import profile, rules

RECORDS = Path(__file__).parent / "records"


def run(ruleset_id: str):
    v = walk(read(RECORDS / f"{ruleset_id}.gcg"), rules(ruleset_id), profile(ruleset_id))
    devs = [d for c in v.turns for d in c.deviations] + v.deviations_at_end
    assert v.scores_ok and not devs, devs
    return v


def test_dsf_handmade_game_000():
    """Danish values (000 §2.3b). Anne vs Bo.
    1 Anne 8E HUND: H4 U3 N1 D2 = 10, centre ×2 = 20.                      Anne 20
    2 Bo exchanges KT: 86 − 4 = 82 in the bag ≥ 7 (000 §4.7b).              Bo 0
    3 Anne 8E HUNDA (+A on I8) = 4+3+1+2+1 = 11; Bo challenges, invalid:
      withdrawn −11 (000 §4.6e).                                             Anne 20
    4 Bo H6 OR(D): O2 R1 D2 = 5; Anne challenges, valid: Anne loses her
      turn (000 §4.6d), written `(challenge) +0`.                            Bo 5
    5 Bo 6F SP(O)LE: S2×3 + P4 + O2 + L2 + E1×3 = 17.                       Bo 22
    6–9 Anne, Bo, Anne, Bo pass: both passed twice in a row, game over (000 §5b).
    Final (000 §5.1a, twice the rack): Anne AABERST = 1+1+3+1+1+2+2 = 11 → −22 → −2;
    Bo AEGINTV = 1+1+3+3+1+2+3 = 14 → −28 → −6; Bo's 40 s overtime: 1 started minute, −10
    (000 §4.4.1b) → −16. Anne wins.
    """
    v = run("dsf-2015")
    assert v.ended == "passes"
    assert v.final_scores == {"Anne": -2, "Bo": -16} and v.winner == "Anne"
    kinds = [c["consequence"] for c in v.challenges]
    assert kinds == ["play_withdrawn", "challenger_loses_turn"]


def test_ssf_handmade_game_002():
    """Swedish values (docs/rules.md §2.2). Eva vs Olle.
    1 Eva 8F SPEL: S1 P4 E1 L1 = 7, centre ×2 = 14.                         Eva 14
    2 Olle H7 H(E)J: H2 E1 J7 = 10.                                          Olle 10
      Eva challenges HEJ, valid: Eva −10 (002), written `(challenge) -10`.   Eva 4
    3 Eva 8F SPELO = 7 + O2 = 9; Olle challenges, invalid: withdrawn −9.      Eva 4
      Scoreless turns from here (002 counts withdrawn plays and exchanges):
      SPELO 1, Olle exchanges VY 2, Eva exchanges KN 3, Olle passes 4, Eva passes 5,
      Olle exchanges DU 6: game over.
    Final (002, six scoreless: each loses own rack): Eva AIORTÄÖ = 1+1+2+1+1+3+4 = 13 → −9;
    Olle EIMNRST = 1+1+2+1+1+1+1 = 8 → 2. Olle wins.
    """
    v = run("ssf-1999")
    assert v.ended == "scoreless"
    assert v.final_scores == {"Eva": -9, "Olle": 2} and v.winner == "Olle"
    assert [c["consequence"] for c in v.challenges] == ["challenger_penalty", "play_withdrawn"]


def test_sbnl_handmade_game_003():
    """Dutch values (003). Jan vs Piet. No passes and no challenges (003): the jury checks.
    1 Jan exchanges QX: his turn 1, an opening exchange (003 Ruilregel).
    2 Piet 8F HOND: H4 O1 N1 D2 = 8, centre ×2 = 16.                        Piet 16
    3 Jan I8 (D)AK: D2 + A1×2 (I9) + K3 = 7.                                 Jan 7
    4 Piet G7 B(O)S: B3×2 (G7) + O1 + S2×2 (G9) = 11.                        Piet 27
    5 Jan I8 DAKO: 2+1+3+1 = 7 (a wrong word, found later).                  Jan 14
    6 Piet 10I (K)OP: K3 + O1×3 (J10) + P3 = 9.                              Piet 36
    7 Jan exchanges YZ: his turn 4, after a turn that placed a tile, 102 − 11 − 14 = 77 in
      the bag ≥ 16 (003 Ruilregel).
    8 Piet K10 (P)EN: (P3 + E1 + N1) × 2 (K11) = 10.                         Piet 46
    The jury finds DAKO wrong: −(7 + 20) = −27 (003 Strafpuntenregel); DAKO stays. Jan −13
    The 90 minutes are up. Final (003, own rack only): Jan EEINRST = 1+1+1+1+2+2+2 = 10 →
    −23; Piet AILTUVW = 1+1+3+2+4+4+5 = 20 → 26. Piet wins.
    """
    v = run("sbnl-punten")
    assert v.ended == "time_up"
    assert v.final_scores == {"Jan": -23, "Piet": 26} and v.winner == "Piet"
    assert [c["consequence"] for c in v.challenges] == ["turn_score_plus_penalty"]


def test_dk_home_handmade_game_004():
    """Danish values. Mor vs Far, home rules (004).
    1 Mor 8G KAT: K3 A1 T2 = 6, centre ×2 = 12.                             Mor 12
    2 Far H7 H(A)J: H4 A1 J4 = 9; Mor challenges, valid: she loses her turn. Far 9
    3 Far 8G KATZ = 6 + Z8 = 14; Mor challenges, invalid: withdrawn −14.      Far 9
      Scoreless turns ("pointløse ture", 004): Mor's lost turn 1, KATZ 2, Mor exchanges
      BØ 3, Far passes 4, Mor passes 5, Far exchanges DZ 6. With 81 tiles in the bag that
      does not end a home game: only "Tømmes posen, uden at nogen kan gå ud" (004
      Pointgivning). The record stops here; the whole home games that empty the bag are in
      test_long_games.py.
    """
    v = run("dk-home")
    assert v.ended is None and v.turns[-1].scoreless_in_a_row == 6 and v.turns[-1].bag == 81
    assert v.final_scores == {"Mor": 12, "Far": 9} and v.winner is None


@pytest.mark.parametrize(
    "ruleset_id, other, expected",
    [
        ("dsf-2015", "sbnl-punten", "passing is not allowed"),
        ("ssf-1999", "dsf-2015", "a failed challenge recorded as -10"),
        ("dk-home", "ssf-1999", "a failed challenge that cost the turn"),
    ],
)
def test_handmade_games_break_other_rulesets(ruleset_id, other, expected):
    v = walk(read(RECORDS / f"{ruleset_id}.gcg"), rules(other), profile(other))
    devs = [d for c in v.turns for d in c.deviations] + v.deviations_at_end
    assert any(expected in d for d in devs), devs
