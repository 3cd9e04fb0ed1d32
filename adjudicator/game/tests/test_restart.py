"""A restarted game (003 Verloop van het spel): "Indien de eerste speler – na driemaal te hebben
geruild – geen woord kan vormen, mag in overleg met de jury opnieuw worden gestart … De reeds
verstreken tijd wordt evenwel niet ingehaald". A record states it with `#note restart; jury: NAME`
on the line the restart follows (RECORDS.md)."""

from __future__ import annotations

import pytest

from adjudicator.game.gcg import parse_text
from adjudicator.game.restart import RestartNote, read_note
from adjudicator.game.walk import walk

from .helpers import profile, rules

HEAD = "#player1 Jan Jan\n#player2 Piet Piet\n"
OPENING = (
    ">Jan: CCQXYZW -CQX +0 0\n"
    ">Piet: BDHLNOS -BDH +0 0\n"
    ">Jan: CCWXYZQ -CWZ +0 0\n"
    ">Piet: EILNOST -LT +0 0\n"
    ">Jan: CCQXYZW -CQY +0 0\n"
)
RESTART = "#note restart; jury: Marieke de Vries\n"
# After the restart Piet may open: the totals start from 0 again.
AFTER = ">Piet: BDHLNOS 8F HOND +16 16\n>Jan: AEIKRST I8 .AK +7 7\n"


def run(text: str, ruleset: str = "sbnl-punten"):
    return walk(parse_text(HEAD + text), rules(ruleset), profile(ruleset))


def deviations(report) -> list[str]:
    return [d for t in report.turns for d in t.deviations] + report.deviations_at_end


def test_a_restart_after_three_exchanges_with_the_jury_003_verloop_van_het_spel():
    """003 Verloop van het spel: after the first player's third exchange, with the jury named,
    the game starts again from an empty board; the turns before are no part of the score."""
    report = run(OPENING + RESTART + AFTER)
    assert deviations(report) == [] and report.scores_ok
    assert report.recorded_totals == [7, 16] and report.computed_totals == [7, 16]
    assert report.restarts == [
        {
            "line": 7,
            "jury": "Marieke de Vries",
            "allowed": True,
            "code": "restart",
            "turns_voided": 5,
            "clock_reset": False,
            "seconds_used": None,
        }
    ]
    note = report.turns[4].notes[-1]
    assert "the game starts again" in note and "Marieke de Vries" in note
    assert "counts against the game's 90 minutes" in note  # "niet ingehaald"
    assert report.to_dict()["restarts"] == report.restarts
    # The board starts again: HOND at 8F is a first play on the centre square, not a slip.
    assert report.turns[5].errors == []


def test_the_board_is_empty_again_after_a_restart_003():
    """The picture of the game: the board after the restart line is empty."""
    boards: list = []
    text = parse_text(HEAD + OPENING + RESTART + AFTER)
    report = walk(text, rules("sbnl-punten"), profile("sbnl-punten"), boards=boards)
    assert boards[5].to_rows() == boards[0].to_rows()
    assert report.board.to_rows() != boards[0].to_rows()


def test_after_the_restart_the_exchanges_count_anew_003_ruilregel():
    """A restarted game is a new game: the first player may again exchange three times in a
    row (003 Ruilregel), which the old count would have refused."""
    report = run(OPENING + RESTART + OPENING)
    assert deviations(report) == []


def test_a_restart_needs_the_jury_003():
    """ "in overleg met de jury": a restart note that names no jury is a rule deviation."""
    report = run(OPENING + "#note restart\n" + AFTER)
    assert report.rule_deviations == 1
    assert deviations(report) == [
        "restart not allowed: a restart only with the jury's consent: name the jury"
        " (`#note restart; jury: NAME`) (003 Verloop van het spel)"
    ]
    # Still followed from an empty board: the scores after it agree.
    assert report.scores_ok and report.recorded_totals == [7, 16]


@pytest.mark.parametrize(
    ("lines", "code"),
    [
        (OPENING.splitlines(keepends=True)[:3], "too early"),  # two exchanges only
        (
            OPENING.splitlines(keepends=True)
            + [">Piet: EILNOST -EI +0 0\n", ">Jan: CCQXYZW -CQ +0 0\n"],
            "too late",
        ),
    ],
)
def test_a_restart_only_after_exactly_three_exchanges_003(lines, code):
    """ "na driemaal te hebben geruild": after the first player's third exchange, not before;
    a fourth exchange is not allowed anyway (003 Ruilregel), and then no restart either."""
    report = run("".join(lines) + RESTART + AFTER)
    restart = [d for d in deviations(report) if d.startswith("restart not allowed")]
    assert len(restart) == 1, deviations(report)
    assert "only after the first player exchanged 3 times" in restart[0]
    assert report.restarts[0]["code"] == f"restart_{code.replace(' ', '_')}"


def test_no_restart_once_a_word_is_on_the_board_003():
    """The first player could not form a word: with a word on the board the game has begun."""
    opening = OPENING.replace(">Piet: EILNOST -LT +0 0\n", ">Piet: EILNOST 8G LOT +6 6\n")
    report = run(opening + RESTART + AFTER)
    assert [d for d in deviations(report) if d.startswith("restart")] == [
        "restart not allowed: a restart only while no word stands on the board: the game has"
        " begun (003 Verloop van het spel)"
    ]


@pytest.mark.parametrize("ruleset", ["dsf-2015", "ssf-1999", "dk-home", "wespa", "naspa"])
def test_a_restart_under_another_ruleset_is_a_deviation(ruleset):
    """Only 003 knows a restart: under any other ruleset it is a rule deviation, counted in the
    report like the others."""
    text = (
        ">Jan: AAAEEEI -AAA +0 0\n>Piet: BDHLNOS -BDH +0 0\n>Jan: AEEEIOU -EEE +0 0\n"
        ">Piet: EILNOST -LT +0 0\n>Jan: AIOUUUU -UUU +0 0\n"
    )
    report = run(text + RESTART, ruleset)
    assert report.rule_deviations == len(deviations(report))
    assert any(f"{ruleset} has no restart" in d for d in deviations(report))
    assert report.restarts[0]["allowed"] is False


def test_the_time_already_used_is_not_given_back():
    """ "De reeds verstreken tijd wordt evenwel niet ingehaald": the clock is not reset, so a
    loss on time from before the restart stands (DSF's overtime, where a restart is itself a
    deviation, shows the clock account carrying over)."""
    text = ">Jan: AAAEEEI -AAA +0 0\n>Jan: AAAEEEI (time) -60 -60\n"
    report = run(text + RESTART + ">Piet: BDHLNOS 8F HOND +16 16\n", "dsf-2015")
    assert report.lost_on_time == ["Jan"]
    assert report.restarts[0]["clock_reset"] is False


def test_the_clock_account_keeps_the_time_used_003():
    """ "De reeds verstreken tijd wordt evenwel niet ingehaald, maar gaat in mindering op de
    maximale speeltijd": with the clock's reading on the note, the report says what is left of
    the 90 minutes (003 Algemeen)."""
    report = run(OPENING + "#note restart; jury: Marieke de Vries; clock: 6:40\n" + AFTER)
    assert deviations(report) == []
    assert report.restarts[0]["seconds_used"] == 400
    assert (
        "6:40 of the game's 90 minutes are used and stay used: 83:20 remain"
        in (report.turns[4].notes[-1])
    )


def test_the_text_report_says_where_the_game_restarted(capsys):
    from adjudicator.game.report import print_rules

    print_rules(run(OPENING + RESTART + AFTER))
    assert "restarted after line 7: 5 turn(s) left out" in capsys.readouterr().out


def test_a_restart_note_is_no_jury_finding_that_a_player_is_stuck_003():
    """A restart note names the jury, but says nothing of a player who can no longer place
    (003 Einde van het spel, RECORDS.md): a turn out of order stays a slip."""
    text = ">Jan: CCQXYZW -CQX +0 0\n>Jan: CCQXYZW -CQY +0 0\n" + RESTART
    found = deviations(run(text))
    assert "not Jan's turn: Piet was due" in found


def test_reading_the_note():
    """Only a note that opens with `restart` states one; the jury is what follows `jury:`."""
    assert read_note(["restart; jury: Marieke"]).jury == "Marieke"
    assert read_note(["Restart, jury:  Kees Bakker ; Jan had CCQXYZW"]).jury == "Kees Bakker"
    assert read_note(["restart"]).jury is None
    assert read_note(["restart; jury: Kees; clock: 12:05"]) == RestartNote("Kees", 725)
    assert read_note(["restart; jury: Kees; clock: 12"]).seconds_used is None
    assert read_note(["restart; jury:"]).jury is None
    assert read_note(["Jan wanted a restart"]) is None
    assert read_note(["restarted"]) is None
