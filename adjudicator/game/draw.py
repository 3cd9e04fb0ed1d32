"""Who starts: the draw for the first turn (docs/rules.md §12), from the tiles each player drew.

Each player draws one tile; the letter nearest the start of the language's alphabet starts
(000 §3.3a, 003 "Begin van het spel"). 004 Forberedelse says only "højeste bogstav først", which
reads either way: `dk-home` takes nearest A as the default and offers nearest the alphabet's end
(Å) as an option (`draw.nearest`, `draw.nearest_option`). What a blank does is ruleset data: it
beats every letter, in either reading (004: "blanke slår alt"), or does not count and is drawn
again (003: "De blanco blokjes tellen in dit geval niet mee"). Where the sources say nothing of a
blank (000 §3.3a names letters only; 002 names no draw method) the ruleset's reading is an
inference, and a request may take the other (`draw.blank_option`). Equal letters draw again, among
the tied players only (000 §3.3c). Under SSF the winner does not start but chooses: to start, or
how the board faces (002); 002 names no draw method, so the winner of a draw the players made
their own way may be given instead of tiles (`draw.given_winner_option`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

from adjudicator.engine.plain import Plain
from adjudicator.game.errors import GameInputError
from adjudicator.game.racks import BLANK, check_within_set, parse_rack
from adjudicator.game.rules import DRAW_BLANKS, DRAW_NEAREST, Rules
from adjudicator.problems import Problem
from lexicon.languages import LanguageProfile


class DrawRound(TypedDict):
    draws: dict[str, str]
    again: NotRequired[list[str]]
    why: str


# draw-order's answer as it is: its fields are the answer's keys and their types its schema
# (`adjudicator.web.answers`; the JSON encoder writes a dataclass by its fields).
@dataclass
class DrawOrder(Plain):
    ruleset: str
    decided: bool
    starts: str | None  # None under SSF, where the winner chooses
    chooses: str | None
    choices: list[Literal["start", "board_orientation"]]
    next_draw: list[str]  # who draws (again) next, when not decided
    rounds: list[DrawRound]
    settled_by: Literal["tiles", "given"]  # "given": the players' own draw, its winner named (002)
    nearest: Literal[DRAW_NEAREST]  # type: ignore[valid-type]  # the end of the alphabet that won
    blank: Literal[DRAW_BLANKS]  # type: ignore[valid-type]  # what a drawn blank did
    tiles_go_back: bool
    source: str

    @property
    def winner(self) -> str | None:
        return self.starts or self.chooses


def _answer(rules: Rules, winner: str | None, due: list[str], rounds: list, *how: str) -> DrawOrder:
    """The draw so far: `winner` (None: not decided) starts, or under SSF chooses (002); `how`:
    what settled it, and the readings of `nearest` and `blank` it took."""
    d = rules.draw
    who = [None, winner] if d.winner_chooses else [winner, None]
    choices = list(d.choices) if d.winner_chooses else []
    return DrawOrder(
        rules.id, winner is not None, *who, choices, due, rounds, *how, d.tiles_go_back, d.source
    )


def draw_order(
    rules: Rules,
    profile: LanguageProfile,
    players: list[str],
    rounds: list[Mapping[str, str]],
    nearest: str | None = None,
    winner: str | None = None,
    blank: str | None = None,
) -> DrawOrder:
    """Settle the draw from `rounds`: each maps the players who drew in that round to the tile
    drawn (a letter, `?` for a blank). Raises GameInputError naming `draws[i]` for a round that
    cannot be (the wrong players drawing, a tile the set lacks, a round after the decision).

    `nearest` ("start" or "end") is the end of the alphabet that wins: the ruleset's own unless
    it offers the other (`draw.nearest_option`). `winner` is the winner of a draw the players
    made their own way, where the ruleset takes one (`draw.given_winner_option`); tiles drawn
    as well must then make the same player the winner. `blank` ("beats_all" or "not_counted")
    is what a drawn blank does: the ruleset's own unless it offers the other
    (`draw.blank_option`)."""
    reading = _reading(rules, "nearest", nearest)
    blanks = _reading(rules, "blank", blank)
    if winner is not None:
        if not rules.draw.given_winner_option:
            raise GameInputError(
                f"{rules.id} settles who starts by the tiles drawn ({rules.draw.source});"
                " give the 'draws', not a winner",
                "winner",
            )
        if winner not in players:
            raise GameInputError(
                f"{winner!r} is not in 'players'", "winner", Problem.UNKNOWN_PLAYER
            )
        if not rounds:
            return _answer(rules, winner, [], [], "given", reading, blanks)
    result = _settle(rules, profile, players, rounds, reading, blanks)
    if winner is not None and (not result.decided or result.winner != winner):
        found = (
            f"make {result.winner} the winner"
            if result.decided
            else f"do not settle the draw yet ({', '.join(result.next_draw)} to draw next)"
        )
        raise GameInputError(f"the tiles drawn {found}, not {winner}", "winner")
    return result


# What a request may read otherwise, where the ruleset offers it (`draw.<name>_option`), and
# how the refusal names the ruleset's one reading.
_READINGS = {"nearest": "the draw: nearest the {} of the alphabet", "blank": "a drawn blank: {}"}


def _reading(rules: Rules, name: str, asked: str | None) -> str:
    """The reading of `draw.<name>` this draw takes; another than the ruleset's own only where
    it offers one: `nearest`, the end of the alphabet that wins (004's "højeste bogstav" reads
    either way; 000 §3.3a says "tættest på A"); `blank`, what a drawn blank does (000 §3.3a and
    002 are silent; 003 and 004 say it outright)."""
    own = getattr(rules.draw, name)
    if asked is None or asked == own:
        return own
    if not getattr(rules.draw, f"{name}_option"):
        what = _READINGS[name].format(own.replace("_", " "))
        raise GameInputError(f"{rules.id} has one reading of {what} ({rules.draw.source})", name)
    return asked


def _settle(
    rules: Rules,
    profile: LanguageProfile,
    players: list[str],
    rounds: list[Mapping[str, str]],
    nearest: str,
    blank: str,
) -> DrawOrder:
    """The draw as the tiles settle it, round by round."""
    alphabet = profile.alphabet if nearest == "start" else profile.alphabet[::-1]
    order = {letter: i for i, letter in enumerate(alphabet)}
    standing: dict[str, int] = {}  # each contender's counted draw: the letter's place, −1 blank
    contenders = list(players)
    due = list(players)  # who draws in the next round
    winner: str | None = None
    rounds_drawn: list[DrawRound] = []
    for i, drawn in enumerate(rounds):
        where = f"draws[{i}]"
        if not due:
            raise GameInputError(f"the draw was decided in round {i}; {where} is one too many",
                                 where)  # fmt: skip
        if sorted(drawn) != sorted(due):
            raise GameInputError(
                f"round {i + 1} is drawn by {', '.join(due)}, not {', '.join(drawn) or 'nobody'}",
                where,
            )
        tiles = {p: _tile(profile, t, f"{where}.{p}") for p, t in drawn.items()}
        check_within_set(profile, [(f"{where}.{p}", Counter([t])) for p, t in tiles.items()])
        again = [p for p, t in tiles.items() if t == BLANK and blank == "not_counted"]
        standing |= {p: -1 if t == BLANK else order[t] for p, t in tiles.items() if p not in again}
        entry: dict[str, Any] = {"draws": dict(drawn)}
        if again:
            due = again
            entry["again"] = again
            entry["why"] = "a blank does not count: that player draws again"
        else:
            best = min(standing[p] for p in contenders)
            tied = [p for p in contenders if standing[p] == best]
            if len(tied) == 1:
                winner, due = tied[0], []
                entry["why"] = f"{tied[0]} drew nearest the {nearest} of the alphabet" + (
                    " (a blank beats every letter)" if best == -1 else ""
                )
            else:
                contenders, due = tied, tied
                for p in tied:
                    del standing[p]
                entry["again"] = tied
                entry["why"] = "equal draws: the tied players draw again"
        rounds_drawn.append(entry)
    return _answer(rules, winner, due, rounds_drawn, "tiles", nearest, blank)


def _tile(profile: LanguageProfile, text: Any, where: str) -> str:
    if not isinstance(text, str) or len(text.strip()) != 1:
        raise GameInputError("a draw is one tile: a letter, or '?' for a blank", where,
                             Problem.WRONG_SHAPE)  # fmt: skip
    return next(iter(parse_rack(profile, text, where)))  # its one tile
