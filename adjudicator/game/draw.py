"""Who starts: the draw for the first turn (docs/rules.md §12), from the tiles each player drew.

Each player draws one tile; the letter nearest the start of the language's alphabet starts
(000 §3.3a, 003 "Begin van het spel", 004 "Forberedelse"). What a blank does is ruleset data:
it beats every letter (004: "blanke slår alt") or does not count and is drawn again (003: "De
blanco blokjes tellen in dit geval niet mee"). Equal letters draw again, among the tied players
only (000 §3.3c). Under SSF the winner does not start but chooses: to start, or how the board
faces (002).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.game.errors import GameInputError
from adjudicator.game.racks import BLANK, check_within_set, parse_rack
from adjudicator.game.rules import Rules
from lexicon.languages import LanguageProfile


@dataclass
class DrawResult:
    ruleset: str
    decided: bool
    winner: str | None  # who starts, or (SSF) who chooses
    next_draw: list[str]  # who draws (again) next, when not decided
    rounds: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self, rules: Rules) -> dict[str, Any]:
        d = rules.draw
        chooses = d.winner_chooses
        return {
            "ruleset": self.ruleset,
            "decided": self.decided,
            "starts": None if chooses or not self.decided else self.winner,
            "chooses": self.winner if chooses and self.decided else None,
            "choices": list(d.choices) if chooses else [],
            "next_draw": self.next_draw,
            "rounds": self.rounds,
            "blank": d.blank,
            "tiles_go_back": d.tiles_go_back,
            "source": d.source,
        }


def draw_order(
    rules: Rules, profile: LanguageProfile, players: list[str], rounds: list[Mapping[str, str]]
) -> DrawResult:
    """Settle the draw from `rounds`: each maps the players who drew in that round to the tile
    drawn (a letter, `?` for a blank). Raises GameInputError naming `draws[i]` for a round that
    cannot be (the wrong players drawing, a tile the set lacks, a round after the decision)."""
    order = {letter: i for i, letter in enumerate(profile.alphabet)}
    standing: dict[str, int] = {}  # each contender's counted draw: the letter's place, −1 blank
    contenders = list(players)
    due = list(players)  # who draws in the next round
    result = DrawResult(rules.ruleset_id, False, None, due)
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
        again = []
        for p, t in tiles.items():
            if t == BLANK and rules.draw.blank == "not_counted":
                again.append(p)
                standing.pop(p, None)
            else:
                standing[p] = -1 if t == BLANK else order[t]
        entry: dict[str, Any] = {"draws": dict(drawn)}
        if again:
            due = again
            entry["again"] = again
            entry["why"] = "a blank does not count: that player draws again"
        else:
            best = min(standing[p] for p in contenders)
            tied = [p for p in contenders if standing[p] == best]
            if len(tied) == 1:
                result.decided, result.winner, due = True, tied[0], []
                entry["why"] = f"{tied[0]} drew nearest the start of the alphabet" + (
                    " (a blank beats every letter)" if best == -1 else ""
                )
            else:
                contenders, due = tied, tied
                for p in tied:
                    del standing[p]
                entry["again"] = tied
                entry["why"] = "equal draws: the tied players draw again"
        result.rounds.append(entry)
    result.next_draw = due
    return result


def _tile(profile: LanguageProfile, text: Any, where: str) -> str:
    if not isinstance(text, str) or len(text.strip()) != 1:
        raise GameInputError("a draw is one tile: a letter, or '?' for a blank", where,
                             "wrong_shape")  # fmt: skip
    tiles = parse_rack(profile, text, where)
    return next(iter(tiles))
