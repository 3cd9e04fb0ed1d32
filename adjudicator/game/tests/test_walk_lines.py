"""Lines of a record the walk reads by convention (RECORDS.md), each against its rule."""

from __future__ import annotations

import json

import pytest

from adjudicator.cli import main
from adjudicator.game.errors import GameInputError
from adjudicator.game.gcg import parse_text
from adjudicator.game.walk import walk
from adjudicator.problems import Problem

from .helpers import profile, rules

HEAD = "#player1 ann Ann\n#player2 bob Bob\n"


def deviations(report) -> list[str]:
    return [d for t in report.turns for d in t.deviations] + report.deviations_at_end


def run(text: str, ruleset: str):
    return walk(parse_text(HEAD + text), rules(ruleset), profile(ruleset))


def test_two_challenge_bonus_lines_after_one_play():
    """5 points per word challenged (WESPA; NASPA Collins division): a record may write one
    line per word. 9H AT forms AT, CA and AT: up to three lines of +5, not four."""
    game = ">ann: ACTXYZQ 8H CAT +10 10\n>bob: AEIOTUU 9H AT +10 10\n"
    bonus = ">bob: EIOUU?? (challenge) +5 {}\n"
    two = run(game + bonus.format(15) + bonus.format(20), "naspa-collins")
    assert deviations(two) == [] and two.scores_ok
    assert [c["points"] for c in two.challenges] == [5, 5]
    three = run(game + bonus.format(15) + ">bob: EIOUU?? (challenge) +10 25\n", "naspa-collins")
    assert deviations(three) == []
    four = run(game + "".join(bonus.format(15 + 5 * i) for i in range(4)), "naspa-collins")
    assert deviations(four) == [
        "a challenge bonus is 5 per word challenged; the play formed 3 words, so +5 after +15"
        " cannot be right (NASPA rules, Collins division: 5 points per word)"
    ]


def test_a_zero_point_play_is_a_scoreless_turn_at_home_004_pointgivning():
    """004 counts turns that score 0 points ("pointløse ture"): two blanks for 0 do not reset
    the count. Under dsf-2015 (no such rule) and in the English rulesets a play resets it."""
    text = ">ann: ??AEKRS -AE +0 0\n>bob: ABCDEFG - +0 0\n>ann: ??EKRST 8H ka +0 0\n"
    home = walk(parse_text(HEAD + text), rules("dk-home"), profile("dk-home"))
    assert [t.scoreless_in_a_row for t in home.turns] == [1, 2, 3] and home.scores_ok
    dsf = walk(parse_text(HEAD + text), rules("dsf-2015"), profile("dsf-2015"))
    assert dsf.turns[-1].scoreless_in_a_row == 0


def test_dsf_overtime_ends_the_game_only_past_5_minutes_000_5c():
    """000 §5c and §4.4.1c: more than 5 minutes of overtime ends (and loses) the game; 2
    minutes over do not end it, so end-of-game lines after them are out of place."""
    game = ">ann: AEKRSTU 8G KAT +12 12\n>bob: AEHIJMN H7 H.J +18 18\n"
    end = ">ann: AERSU (AERSU) -16 {}\n>bob: AEIMN (AEIMN) -18 {}\n"
    two = run(game + ">ann: AERSU (time) -20 -8\n" + end.format(-24, 0), "dsf-2015")
    assert two.ended is None
    assert "the game is not over" in deviations(two)[0]
    six = run(game + ">ann: AERSU (time) -60 -48\n" + end.format(-64, 0), "dsf-2015")
    assert deviations(six) == [] and six.ended == "overtime"
    assert six.lost_on_time == ["ann"] and six.winner == "bob"


def test_free_challenge_keeps_the_challengers_turn_004():
    """004 Almindelige varianter: under "gratis protest" a failed challenge costs nothing, so
    the challenger still plays next; without it the challenger loses the turn."""
    text = (
        ">ann: AEKRSTU 8G KAT +12 12\n>bob: AEHIJMN (challenge) +0 0\n>bob: AEHIJMN H7 H.J +18 18\n"
    )
    record = parse_text(HEAD + text)
    free = walk(record, rules("dk-home"), profile("dk-home"), free_challenge=True)
    assert deviations(free) == [] and free.challenges[0]["consequence"] == "none"
    plain = walk(record, rules("dk-home"), profile("dk-home"))
    assert deviations(plain) == ["not bob's turn: ann was due"]


def test_sbnl_exchange_after_the_opening_run_was_broken_003_ruilregel():
    """003 Ruilregel: Jan plays, exchanges (allowed: his previous turn laid letters), and
    exchanges again in his third turn: not an opening exchange any more, since a play broke
    the run, and the turn before put nothing down."""
    text = (
        ">ann: BDHNOSX 8F HOND +16 16\n>bob: AEIKRYZ I8 .AK +7 7\n"
        ">ann: BSXEEIL -X +0 16\n>bob: EIRYZLT -Z +0 7\n>ann: BSEEILQ -Q +0 16\n"
    )
    v = run(text, "sbnl-punten")
    assert deviations(v) == [
        "exchange not allowed: after the opening turns one may exchange only once at a time,"
        " after a turn that put at least one tile on the board (003 Ruilregel)"
    ]
    assert v.turns[-1].line == 7


def test_an_overfull_rack_says_what_the_rules_prescribe_000_4_3b_003():
    """A rack of 8 tiles: the player drew too many. 000 §4.3b: the opponent takes the extra
    tiles at random from the rack back to the bag; 003 Begin van het spel: one tile, unseen."""
    text = ">ann: AEKRSTUV 8G KAT +12 12\n"
    dsf = deviations(run(text, "dsf-2015"))
    assert dsf[0].startswith("rack AEKRSTUV has 8 tiles; ann holds 7 (86 in the bag)")
    assert dsf[0].endswith("puts them in the bag. (000 §4.3b)")
    sbnl = deviations(run(text, "sbnl-punten"))
    assert "takes one tile at random, without looking" in sbnl[0] and "003" in sbnl[0]


SBNL_OPENING = ">ann: BDHNOSX 8F HOND +16 16\n>bob: AEIKRYZ I8 .AK +7 7\n>ann: BSXEEIL -X +0 16\n"


def test_sbnl_a_player_who_just_exchanged_and_cannot_place_sits_out_003_einde():
    """003 Einde van het spel: a player left with letters that can no longer be placed may not
    use them, may not pass ("het is niet toegestaan een beurt over te slaan"), and the other
    plays on. Bob's last turn was an exchange, so 003 Ruilregel ("bij de voorafgaande beurt is
    minimaal één letter weggelegd") bars another at once, with 80 tiles in the bag or not; and
    since sitting out is no turn, his previous turn stays that exchange: he can never exchange
    again. Ann playing on is no slip, with or without a note that the jury ruled it."""
    text = SBNL_OPENING + (
        ">bob: EIRYZLT -Z +0 7\n>ann: BSEEILQ J10 SE +16 32\n>ann: BEILQRT K10 BE +20 52\n"
    )
    stuck = run(text, "sbnl-punten")
    assert deviations(stuck) == []
    assert stuck.turns[-1].notes[0].startswith("bob can neither place, exchange nor pass")
    assert "003 Einde van het spel" in stuck.turns[-1].notes[0]
    ruled = run(text + "#note jury: Bob kan niet meer leggen\n", "sbnl-punten")
    assert deviations(ruled) == []


def test_sbnl_a_player_who_may_still_exchange_is_not_stuck_003_ruilregel():
    """003 Ruilregel: with 16 or more tiles in the bag and a tile put down at his previous turn,
    Bob may exchange, so he has a move: Ann moving in his place is a slip, unless the record
    notes that the jury found him stuck (RECORDS.md)."""
    text = SBNL_OPENING + ">ann: BSEEILQ J10 SE +16 32\n"
    slip = run(text, "sbnl-punten")
    assert deviations(slip) == ["not ann's turn: bob was due"]
    ruled = run(text + "#note jury: Bob kan niet meer leggen\n", "sbnl-punten")
    assert deviations(ruled) == []
    assert ruled.turns[-1].notes[0].startswith("bob can neither place, exchange nor pass")


def test_ssf_loses_on_time_at_15_minutes_not_more_002():
    """002 Särskilda tävlingsregler: "ett tidsöverdrag på 15 minuter" loses, so the note says
    "at least 15", as DSF's says "more than 5" (000 §4.4.1c)."""
    game = ">ann: AEKRSTU 8G KAT +12 12\n>bob: AEHIJMN H7 H.J +18 18\n"
    ssf = run(game + ">ann: AERSU (time) -160 -148\n", "ssf-1999")
    assert (
        "at least 15 minutes over: the game is lost (002 (30 minutes; 10 points per started"
        " minute))" in ssf.turns[-1].notes
    )
    dsf = run(game + ">ann: AERSU (time) -60 -48\n", "dsf-2015")
    assert "more than 5 minutes over: the game is lost (000 §4.4.1)" in dsf.turns[-1].notes


def overfull(who: str = "bob") -> str:
    """A record that puts 225 tiles down (75 plays of CAT, none connected) in a set of 100,
    then `who` exchanges: the counted bag would be below 0."""
    lines = []
    for k, (row, col) in enumerate((r, c) for r in range(1, 16) for c in "ADGJM"):
        who = "ann" if k % 2 == 0 else "bob"
        lines.append(f">{who}: ACTXYZQ {row}{col} CAT +5 {5 * (k // 2 + 1)}\n")
    return "".join(lines) + f">{who}: ABCDEFG -ABC +0 {190 if who == 'ann' else 185}\n"


def test_an_end_rack_line_showing_a_rack_outside_the_set_is_a_deviation():
    """The rack shown on an end-of-game line is read like any rack shown: one the set cannot
    hold is a deviation of that line, not a walk that stops (`replay` printed a traceback,
    games/verify refused the whole record)."""
    passes = ">bob: AEIOTUU - +0 0\n>ann: XYZQ - +0 10\n" * 3
    text = ">ann: ACTXYZQ 8H CAT +10 10\n" + passes + ">ann: XYZ1Q (XYZQ) -32 -22\n"
    report = run(text, "wespa")
    assert report.ended == "scoreless"
    assert "rack XYZ1Q: '1' is not a tile of the English set" in deviations(report)


def test_an_exchange_with_more_tiles_down_than_the_set_holds_is_a_deviation():
    """With more tiles on the board than the set holds, an exchange is asked about an empty
    bag (a deviation), not about −128 tiles (the walk stopped with "the bag cannot hold fewer
    than 0 tiles"); so is SBNL's question whether a skipped player could exchange."""
    report = run(overfull(), "wespa")
    assert report.turns[-1].deviations[-1].startswith("exchange not allowed: ")
    sbnl = run(overfull(), "sbnl-punten")
    assert sbnl.turns[-1].deviations[-1].startswith("exchange not allowed: ")
    skipping = run(overfull("ann"), "sbnl-punten")  # bob is skipped: could he exchange?
    assert skipping.turns[-1].notes[0].startswith("bob can neither place, exchange nor pass")


THREE = HEAD + "#player3 cy Cy\n>ann: ABC 8H BAD +12 12\n"


def test_a_record_of_more_players_than_the_ruleset_is_for_is_refused():
    """The walk refuses it, so the service and the command line both do (it was the web's own
    check, and `adjudicator replay` walked such a record); a record without #player lines
    counts the players its moves name."""
    with pytest.raises(GameInputError) as refused:
        walk(parse_text(THREE), rules("naspa"), profile("naspa"))
    assert (refused.value.code, refused.value.field) == (Problem.PLAYER_COUNT, "players")
    assert refused.value.message == "naspa is for at most 2 players"
    moves = ">ann: ABC 8H BAD +12 12\n>bob: - +0 0\n>cy: - +0 0\n"
    with pytest.raises(GameInputError):
        walk(parse_text(moves), rules("naspa"), profile("naspa"))
    assert walk(parse_text(THREE), rules("dk-home"), profile("dk-home")).players == [
        "ann",
        "bob",
        "cy",
    ]


def test_replay_refuses_a_record_of_more_players_than_the_ruleset_is_for(tmp_path, capsys):
    path = tmp_path / "three.gcg"
    path.write_text(THREE, encoding="latin-1")
    assert main(["replay", str(path), "--no-lexicon"]) == 2
    err = capsys.readouterr().err
    assert f"adjudicator replay: {path}: naspa is for at most 2 players" in err
    assert "Traceback" not in err
    assert main(["replay", str(path), "--no-lexicon", "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data == {"file": str(path), "error": f"{path}: naspa is for at most 2 players"}
