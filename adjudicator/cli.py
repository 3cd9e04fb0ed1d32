"""`adjudicator` command line. Each subcommand registers itself in one `add_*` function.

Exit codes: 0 all good, 1 a disagreement was found, 2 bad input (never a traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from adjudicator.rulesets import Ruleset, RulesetError, load_rulesets

EXIT_OK = 0
EXIT_DISAGREE = 1
EXIT_BAD_INPUT = 2
DEFAULT_LEXICON_DIR = "instance/lexicons"


class UsageError(Exception):
    """Bad input the user can fix; printed as one line, exit code 2."""


def load_ruleset(ruleset_id: str) -> Ruleset:
    """A ruleset as the service loads it: the bundled files, then `$ADJUDICATOR_RULESET_DIR`
    (with its `lexicons.toml`), checked field by field."""
    try:
        rulesets = load_rulesets(os.environ.get("ADJUDICATOR_RULESET_DIR") or None)
    except RulesetError as exc:
        raise UsageError(str(exc)) from None
    if ruleset_id not in rulesets:
        raise UsageError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(rulesets))}")
    return rulesets[ruleset_id]


# --- replay -------------------------------------------------------------------------------


def add_replay(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="replay GCG game records and check every score",
        description="Replay GCG records move by move; compare recorded and computed scores "
        "and cumulative totals. Words missing from the lexicon are information, not errors.",
    )
    p.add_argument("files", nargs="+", metavar="GAME.gcg")
    p.add_argument("--ruleset", default="naspa", help="ruleset id (default: naspa)")
    p.add_argument("--language", help="override the ruleset's language (da, en, nl, sv)")
    p.add_argument("--no-lexicon", action="store_true", help="check placement and scores only")
    p.add_argument(
        "--no-rules",
        action="store_true",
        help="skip the ruleset's checks of exchanges, passes, challenges and the end of game",
    )
    p.add_argument(
        "--lexicon-dir",
        help=f"compiled lexicons (default: $ADJUDICATOR_LEXICON_DIR or {DEFAULT_LEXICON_DIR})",
    )
    p.add_argument("--json", action="store_true", help="machine-readable report")
    p.set_defaults(handler=run_replay)


def _manifest(ruleset: Ruleset, args: argparse.Namespace) -> Path:
    folder = Path(
        args.lexicon_dir or os.environ.get("ADJUDICATOR_LEXICON_DIR") or DEFAULT_LEXICON_DIR
    )
    manifest = folder / f"{ruleset.lexicon_id}.json"
    if not manifest.exists():
        raise UsageError(
            f"lexicon {ruleset.lexicon_id!r} not found in {folder} (build it with "
            "`lexicon build lexicon_sources/*.toml --out instance/lexicons`)"
        )
    return manifest


def _load_lexicon(ruleset: Ruleset, args: argparse.Namespace):
    """The ruleset's compiled lexicon, or with --no-lexicon only its language profile: the
    service's profile comes from the compiled manifest, and so does the replay's."""
    from lexicon.artifact import load, read_profile
    from lexicon.errors import LexiconError

    manifest = _manifest(ruleset, args)
    try:
        if args.no_lexicon:
            return None, read_profile(manifest)
        lexicon = load(manifest)
        return lexicon, lexicon.profile
    except LexiconError as exc:
        raise UsageError(str(exc)) from None


def run_replay(args: argparse.Namespace) -> int:
    from adjudicator.engine.gcg import GcgError, read, resolve_language
    from adjudicator.engine.replay import replay
    from adjudicator.game.report import print_verdict
    from adjudicator.game.verify import verify
    from lexicon.languages import available_languages

    ruleset = load_ruleset(args.ruleset)
    language = args.language or ruleset.language
    if language not in available_languages():
        raise UsageError(
            f"unknown language {language!r}; known: {', '.join(available_languages())}"
        )
    lexicon, profile = _load_lexicon(ruleset, args)
    if profile.code != language:
        raise UsageError(f"lexicon {ruleset.lexicon_id!r} is {profile.code}, not {language}")
    reports = []
    for file in args.files:
        try:
            record = read(file)
            resolve_language(record, language, available_languages())
            if args.no_rules:
                report = replay(record, profile, lexicon)
            else:  # the game rules (adjudicator.game) replay the scores too
                report = verify(record, ruleset.rules, profile, lexicon)
        except GcgError as exc:
            if exc.file is None:
                exc = GcgError(exc.reason, file, exc.line)
            raise UsageError(str(exc)) from None
        reports.append(report)
    if args.json:
        data = [r.to_dict() for r in reports]
        json.dump(data[0] if len(data) == 1 else data, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        for report in reports:
            if args.no_rules:
                _print_report(report)
            else:
                _print_report(report.scores, end="\n")
                print_verdict(report)
    return EXIT_OK if all(r.ok for r in reports) else EXIT_DISAGREE


def _print_report(report, end: str = "\n\n") -> None:
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
        for e in t.errors:
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


# --- entry point ----------------------------------------------------------------------------

SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [add_replay]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="adjudicator", description="Scrabble adjudicator")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except UsageError as exc:
        print(f"adjudicator {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
