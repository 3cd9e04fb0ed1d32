"""The end of a game: rack adjustments, overtime, the loss on time, the winner
(docs/rules.md §10–§11).

Order: the ending's rack adjustment first (000 §5.1a, 002, 003, 004), then the overtime
penalties, then the loss on time. The winner has the highest final score among the players who
did not lose on time; equal best scores share the win (004: "ægte uafgjort deles").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from adjudicator.engine.plain import Plain
from adjudicator.game import overtime
from adjudicator.game.ending import describe
from adjudicator.game.errors import GameInputError
from adjudicator.game.racks import check_within_set, rack_text, rack_value
from adjudicator.game.rules import Rules
from adjudicator.problems import Problem
from lexicon.languages import LanguageProfile


@dataclass(frozen=True)
class Adjustment(Plain):
    kind: Literal["rack", "out_bonus", "overtime", "time_loss_spread"]
    points: int
    reason: str
    source: str


@dataclass
class PlayerEnd:
    """One player at the end of the game, before any adjustment."""

    name: str
    score: int
    rack: Counter[str] = field(default_factory=Counter)
    overtime_minutes: float = 0.0


@dataclass
class PlayerResult(Plain):
    name: str
    score_before: int
    rack: str
    rack_value: int
    adjustments: list[Adjustment]
    final_score: int
    lost_on_time: bool
    result: Literal["win", "tie", "loss"]  # `winners` decides


# final-score's answer as it is: its fields are the answer's keys and their types its schema
# (`adjudicator.web.answers`; the JSON encoder writes a dataclass by its fields).
@dataclass
class FinalScore(Plain):
    ruleset: str
    ending: str
    ending_text: str
    went_out: str | None
    players: list[PlayerResult]
    final_scores: dict[str, int]
    winner: str | None
    winners: list[str]
    tie: bool


def check_players(rules: Rules, players: list[PlayerEnd]) -> None:
    if not 2 <= len(players) <= rules.max_players:
        raise GameInputError(
            f"{rules.id} is played by 2{'' if rules.max_players == 2 else f' to {rules.max_players}'}"
            f" players, not {len(players)}",
            "players",
            Problem.PLAYER_COUNT,
        )
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise GameInputError("player names must differ", "players", Problem.DUPLICATE_PLAYER)


def final_score(
    rules: Rules,
    profile: LanguageProfile,
    players: list[PlayerEnd],
    ending: str,
    went_out: str | None = None,
    point_target: int | None = None,
) -> FinalScore:
    """Adjust the scores for the way the game ended. Raises GameInputError on input that
    cannot be true (an unknown ending, a player out with tiles left, more Z tiles than the set)."""
    check_players(rules, players)
    check_within_set(profile, [(f"players[{i}].rack", p.rack) for i, p in enumerate(players)])
    endings = rules.endings()
    if ending not in endings:
        raise GameInputError(
            f"under {rules.id} a game ends in one of: {', '.join(endings)}",
            "ending",
            Problem.UNKNOWN_ENDING,
        )
    out_index = _went_out(players, ending, went_out)
    if ending == "point_target":
        if point_target is not None and max(p.score for p in players) < point_target:
            raise GameInputError(
                f"nobody has reached the point target {point_target}",
                "point_target",
            )
    adjustments = rack_adjustments(rules, profile, ending, [p.rack for p in players], out_index)
    results: list[PlayerResult] = []
    for i, (p, adj) in enumerate(zip(players, adjustments, strict=True)):
        ot = overtime.overtime(rules, p.overtime_minutes, f"players[{i}].overtime_minutes")
        if ot.points:
            adj.append(
                Adjustment(
                    "overtime",
                    ot.points,
                    f"{ot.started_minutes} started minute(s) of overtime × "
                    f"{rules.clock.penalty_per_started_minute}",
                    rules.clock.source,
                )
            )
        final = p.score + sum(a.points for a in adj)
        rack, value = rack_text(p.rack), rack_value(profile, p.rack)
        results.append(
            PlayerResult(p.name, p.score, rack, value, adj, final, ot.lost_on_time, "loss")
        )
    if ending == "overtime" and not any(r.lost_on_time for r in results):
        raise GameInputError(
            f"the ending 'overtime' needs a player {overtime.loss_limit(rules)} over, and nobody is"
            f" ({rules.end.source}, {rules.clock.source})",
            "ending",
        )
    best = winners(rules, results)
    return FinalScore(
        rules.id,
        ending,
        describe(rules, ending),
        players[out_index].name if out_index is not None else None,
        results,
        {r.name: r.final_score for r in results},
        best[0] if len(best) == 1 else None,
        best,
        len(best) > 1,
    )


def _went_out(players: list[PlayerEnd], ending: str, went_out: str | None) -> int | None:
    names = [p.name for p in players]
    if ending != "out":
        if went_out is not None:
            raise GameInputError(
                f"'went_out' goes with the ending 'out', not {ending!r}", "went_out"
            )
        return None
    if went_out is None:
        raise GameInputError("say who went out", "went_out", Problem.MISSING_FIELD)
    if went_out not in names:
        raise GameInputError(f"no player named {went_out!r}", "went_out", Problem.UNKNOWN_PLAYER)
    index = names.index(went_out)
    if players[index].rack:
        raise GameInputError(
            f"{went_out} went out, so their rack must be empty, not {rack_text(players[index].rack)}",
            f"players[{index}].rack",
        )
    return index


def end_factor(rules: Rules, ending: str, went_out: bool) -> int:
    """How many times a rack's value the end of the game moves: for the player who went out
    (what they gain from the others' racks), or for a player left with tiles (what they lose)."""
    fin = rules.final
    if ending == "out":
        return fin.out_gains_factor if went_out else fin.own_rack_factor
    if ending == "point_target":
        return 0  # 004: the adjustment is skipped
    return fin.scoreless_own_rack_factor


def rack_adjustments(
    rules: Rules,
    profile: LanguageProfile,
    ending: str,
    racks: list[Mapping[str, int]],
    out_index: int | None,
) -> list[list[Adjustment]]:
    """Each player's rack adjustment for the way the game ended (000 §5.1a, 002, 003, 004): the
    one place that sums racks at the end of a game, for final-score and for a record's end
    lines alike."""
    source = rules.final.source
    values = [rack_value(profile, r) for r in racks]
    out: list[list[Adjustment]] = [[] for _ in racks]
    for i, (rack, value) in enumerate(zip(racks, values, strict=True)):
        went_out = ending == "out" and i == out_index
        factor = end_factor(rules, ending, went_out)
        times = "" if factor == 1 else f"{factor} × "
        others = sum(values) - value
        if went_out and factor and others:
            reason = f"went out: gains {times}the tiles left on the other racks ({others})"
            out[i].append(Adjustment("out_bonus", factor * others, reason, source))
        elif not went_out and factor and value:
            reason = f"tiles left {rack_text(rack)} worth {value}: loses {times}their value"
            out[i].append(Adjustment("rack", -factor * value, reason, source))
    return out


def winners(rules: Rules, results: list[PlayerResult]) -> list[str]:
    """Highest final score among those not lost on time; if all lost on time, nobody's loss
    counts. SSF: a loss on time is by the real spread, but at least 150 (002)."""
    in_time = [r for r in results if not r.lost_on_time] or results
    best = max(r.final_score for r in in_time)
    spread = rules.clock.loss_min_spread
    if spread and len(in_time) < len(results):
        for r in results:
            if r.lost_on_time and best - r.final_score < spread:
                points = r.final_score - (best - spread)
                r.adjustments.append(
                    Adjustment(
                        "time_loss_spread",
                        -points,
                        f"lost on time: the spread is the real one but at least {spread}",
                        rules.clock.source,
                    )
                )
                r.final_score -= points
    winners = [r.name for r in in_time if r.final_score == best]
    for r in results:
        r.result = "loss" if r.name not in winners else "win" if len(winners) == 1 else "tie"
    return winners
