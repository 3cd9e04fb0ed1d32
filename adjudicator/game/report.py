"""Text report of a walked record: score disagreements and rule deviations in separate parts."""

from __future__ import annotations

from adjudicator.game.result import GameReport


def print_scores(report: GameReport, end: str = "\n\n") -> None:
    """The score part of `adjudicator replay`: recorded and computed score of every line."""
    lex = report.lexicon or "none"
    print(f"{report.file}  (language {report.language}, lexicon {lex})")
    print(f"{'line':>5}  {'player':<12} {'move':<20} {'rec':>5} {'calc':>5}  {'total':>11}  ")
    for t in report.turns:
        mark = "ok" if t.ok else "DIFFERS"
        totals = f"{t.recorded_total}/{t.computed_total}"
        print(
            f"{t.line:>5}  {t.player[:12]:<12} {t.move[:20]:<20} {t.recorded_score:>+5} "
            f"{t.computed_score:>+5}  {totals:>11}  {mark}"
        )
        if not t.total_ok:
            print("       ! the recorded total is not the previous total plus this score")
        for e in t.placement_lines + t.errors:
            print(f"       ! {e}")
        for i in t.info:
            print(f"       i {i}")
        for word in t.not_in_lexicon or ():  # the maintainer's own listing, never over HTTP
            print(f"       i not in {report.lexicon}: {word}")
    for nick, rec, calc in zip(
        report.players, report.recorded_totals, report.computed_totals, strict=True
    ):
        verdict = "agree" if rec == calc else "DIFFER"
        print(f"  {nick}: recorded {rec}, computed {calc}: {verdict}")
    bad = sum(1 for t in report.turns if not t.ok)
    print(f"  {len(report.turns)} turns, {report.plays} plays, {bad} disagreement(s)", end=end)


def print_rules(report: GameReport) -> None:
    """The rules part of `adjudicator replay`."""
    print(f"  rules ({report.ruleset}):")
    count = 0
    for turn in report.turns:
        for d in turn.rule_deviations:
            count += 1
            print(f"{turn.line:>5}  {turn.player[:12]:<12} {turn.text[:40]:<40} ! {d}")
    for d in report.deviations_at_end:
        count += 1
        print(f"{'end':>5}  ! {d}")
    if not count:
        print("       every exchange, pass, challenge, withdrawal and end line follows the rules")
    scores = ", ".join(f"{name} {total}" for name, total in report.final_scores.items())
    if report.ended:
        print(f"  game over: {report.ending_text}")
        if report.lost_on_time:
            print(f"  lost on time: {', '.join(report.lost_on_time)}")
        result = (
            f"winner {report.winner}"
            if report.winner
            else f"tie between {' and '.join(report.winners)}"
        )
        print(f"  final scores: {scores}; {result}")
    else:
        print(f"  the record stops before the end of the game; scores so far: {scores}")
    print(
        f"  {report.score_disagreements} score disagreement(s), "
        f"{report.rule_deviations} rule deviation(s)\n"
    )
