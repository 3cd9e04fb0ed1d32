"""Text report of a verified game: score disagreements and rule deviations in separate parts."""

from __future__ import annotations

from adjudicator.game.verify import GameVerdict


def print_verdict(verdict: GameVerdict) -> None:
    """The rules part of `adjudicator replay` (the score part is printed by the CLI)."""
    print(f"  rules ({verdict.ruleset}):")
    count = 0
    for check in verdict.checks:
        for d in check.deviations:
            count += 1
            print(f"{check.line:>5}  {check.player[:12]:<12} {check.move[:40]:<40} ! {d}")
    for d in verdict.deviations_at_end:
        count += 1
        print(f"{'end':>5}  ! {d}")
    if not count:
        print("       every exchange, pass, challenge, withdrawal and end line follows the rules")
    scores = ", ".join(f"{name} {total}" for name, total in verdict.final_scores.items())
    if verdict.ended:
        print(f"  game over: {verdict.ending_text}")
        if verdict.lost_on_time:
            print(f"  lost on time: {', '.join(verdict.lost_on_time)}")
        result = (
            f"winner {verdict.winner}"
            if verdict.winner
            else f"tie between {' and '.join(verdict.winners)}"
        )
        print(f"  final scores: {scores}; {result}")
    else:
        print(f"  the record stops before the end of the game; scores so far: {scores}")
    print(
        f"  {verdict.score_disagreements} score disagreement(s), "
        f"{verdict.rule_deviations} rule deviation(s)\n"
    )
