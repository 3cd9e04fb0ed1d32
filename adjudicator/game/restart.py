"""A restarted game (003 Verloop van het spel; docs/rules.md §8).

"Indien de eerste speler – na driemaal te hebben geruild – geen woord kan vormen, mag in overleg
met de jury opnieuw worden gestart met het spel. De reeds verstreken tijd wordt evenwel niet
ingehaald, maar gaat in mindering op de maximale speeltijd."

GCG has no line for it, so a record states it with a note on the line the restart follows
(adjudicator/game/RECORDS.md): `#note restart; jury: NAME` (a JSON turn's `note` the same), and
`; clock: MM:SS` for the playing time used so far. The turns before it are no part of the game's
score and the board starts empty again; the clock is not set back (`time_left`). Whether the ruleset allows it here is `restart_verdict`, one function of the
ruleset data (`[restart]`) and the game so far.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.game.kinds import EXCHANGE, TURNS
from adjudicator.game.rules import Rules, Verdict
from adjudicator.messages import Said, joined

_RESTART = re.compile(r"\s*restart\b(?P<rest>.*)", re.IGNORECASE | re.DOTALL)
_JURY = re.compile(r"\bjury\s*:\s*(?P<name>[^;\n]*)", re.IGNORECASE)
# The time the game had run when it restarted, as the clock showed it: `clock: 12:30`.
_CLOCK = re.compile(r"\bclock\s*:\s*(?P<m>\d{1,3}):(?P<s>[0-5]\d)\b", re.IGNORECASE)


@dataclass(frozen=True)
class RestartNote:
    """A note saying the game starts again; `jury`: the jury member it names (None: none);
    `seconds_used`: the playing time already used, where the note gives it (`clock: 12:30`)."""

    jury: str | None
    seconds_used: int | None = None


def read_note(notes: list[str]) -> RestartNote | None:
    """The restart a line's notes state, or None. `restart` must open the note, so a note that
    merely mentions the word (`#note Jan wanted a restart`) is not one."""
    for note in notes:
        if match := _RESTART.match(note):
            jury = _JURY.search(match["rest"])
            name = jury["name"].strip() if jury else ""
            clock = _CLOCK.search(match["rest"])
            used = int(clock["m"]) * 60 + int(clock["s"]) if clock else None
            return RestartNote(name or None, used)
    return None


def is_restart_note(note: str) -> bool:
    return _RESTART.match(note) is not None


def restart_verdict(
    rules: Rules,
    first_player: str | None,
    first_turns: list[str],
    board_empty: bool,
    note: RestartNote,
) -> Verdict:
    """May the game start again here (003 Verloop van het spel)? `first_turns`: the kinds of
    the first player's turns since the game (last) started; `board_empty`: no tile stands on
    the board. Only the ruleset's `[restart]` allows it, only once the first player has
    exchanged `after_exchanges` times and done nothing else, with nothing on the board, and,
    where the ruleset asks for it, with a jury member named."""
    rule = rules.restart
    if not rule.allowed:
        said = Said("restart_not_allowed", ruleset=rules.id)
        return Verdict(False, "restart_not_allowed", said, rule.source)
    need = rule.after_exchanges
    if first_turns != [EXCHANGE] * need:
        who = first_player or Said("restart_first_player")
        said = Said("restart_timing", need=need, who=who, done=_turns_said(first_turns))
        code = "restart_too_early" if len(first_turns) < need else "restart_too_late"
        return Verdict(False, code, said, rule.source)
    if not board_empty:
        said = Said("restart_board_not_empty")
        return Verdict(False, "restart_board_not_empty", said, rule.source)
    if rule.jury_consent and note.jury is None:
        said = Said("restart_without_jury")
        return Verdict(False, "restart_without_jury", said, rule.source)
    said = Said("restart_with_jury", jury=note.jury) if note.jury else Said("restart_done")
    return Verdict(True, "restart", said, rule.source)


def _turns_said(kinds: list[str]) -> Said:
    """The first player's turns so far, each named in the page's language: `exchange, pass`."""
    named = [Said(f"restart_turn_{k}") if k in TURNS else k for k in kinds]
    if not named:
        return Said("restart_nothing")
    return joined("restart_list", named)


def time_left(rules: Rules, seconds_used: int | None) -> Said:
    """What the clock account says after a restart (003: "gaat in mindering op de maximale
    speeltijd"): the time used stays used. With the time used unknown (`seconds_used` None),
    or no game clock, it says only that the time counts on, or is not given back."""
    clock = rules.clock
    if seconds_used is not None and clock.minutes:
        left = max(0, clock.minutes * 60 - seconds_used)
        return Said(
            "restart_time_left", used=_mmss(seconds_used), minutes=clock.minutes, left=_mmss(left)
        )
    if clock.shared and clock.minutes:
        return Said("restart_time_counts", minutes=clock.minutes)
    return Said("restart_time_not_given_back")


def _mmss(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"
