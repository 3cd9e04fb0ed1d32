"""`adjudicator replay`: replay GCG game records move by move and check every score."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from adjudicator import settings
from adjudicator.cli.common import EXIT_DISAGREE, EXIT_OK, UsageError, rulesets
from adjudicator.rulesets import Ruleset
from lexicon.console import EXIT_BAD_INPUT, day, folder


def add_replay(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="replay GCG game records and check every score",
        description="Replay GCG records move by move; compare recorded and computed scores "
        "and cumulative totals. Words missing from the lexicon are information, not errors.",
    )
    p.add_argument(
        "files",
        nargs="+",
        metavar="GAME.gcg",
        help="records to replay; each is reported, an unreadable one on standard error",
    )
    p.add_argument("--ruleset", default="naspa", help="ruleset id (default: naspa)")
    p.add_argument("--language", help="override the ruleset's language (da, en, nl, sv)")
    p.add_argument("--no-lexicon", action="store_true", help="check placement and scores only")
    p.add_argument(
        "--no-rules",
        action="store_true",
        help="report the scores only, not the ruleset's checks of exchanges, passes,"
        " challenges and the end of game",
    )
    p.add_argument(
        "--free-challenge",
        action="store_true",
        help="the home variant where a failed challenge costs nothing (dk-home, 004)",
    )
    p.add_argument(
        "--on",
        type=day,
        metavar="YYYY-MM-DD",
        help="the day the game was played: its edition in force rules (default: today, in the "
        "event's time zone, as the service would)",
    )
    p.add_argument(
        "--lexicon-dir",
        type=folder,
        help="compiled lexicons (default: $ADJUDICATOR_LEXICON_DIR or the instance folder's "
        "lexicons/)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="machine-readable report: one object, or a list with one entry per file (an "
        "unreadable file as {file, error})",
    )
    p.set_defaults(handler=run_replay)


def _load_lexicon(ruleset: Ruleset, args: argparse.Namespace):
    """The ruleset's edition in force on the day of the game (`--on`), or with --no-lexicon
    only its language profile: the service's profile comes from the compiled manifest, and so
    does the replay's. Editions not installed in the folder are not among those chosen from."""
    from adjudicator.catalogue import unavailable_reason
    from lexicon import editions
    from lexicon.artifact import load, read_profile

    config = settings.read()
    folder = Path(args.lexicon_dir or config.lexicon_dir)
    manifest = folder / f"{ruleset.lexicon}.json"
    if not manifest.exists():
        raise UsageError(
            f"lexicon {ruleset.lexicon!r} not found in {folder} (build it with "
            "`lexicon build lexicon_sources/*.toml --out instance/lexicons`)"
        )
    if args.no_lexicon:
        return None, read_profile(manifest)
    day = args.on or datetime.now(UTC).astimezone(config.zone).date()
    manifests = [folder / f"{i}.json" for i in ruleset.edition_ids]
    chosen = editions.in_force([editions.Installed.read(m) for m in manifests if m.exists()], day)
    if chosen is None:
        raise UsageError(f"ruleset {ruleset.id!r} has no edition in force on {day}")
    lexicon = load(chosen.manifest)
    reason = unavailable_reason(ruleset, lexicon)  # never a house build for a tournament ruleset
    if reason is not None:
        raise UsageError(f"ruleset {ruleset.id!r} cannot rule: its {reason}")
    return lexicon, lexicon.profile


def _rulesets_for(known: dict[str, Ruleset], language: str) -> str:
    """`; try --ruleset X (or Y)`: the rulesets that replay a record in `language`."""
    ids = sorted(r.id for r in known.values() if r.language == language)
    if not ids:
        return ""
    return f"; try --ruleset {ids[0]}" + (f" (or {', '.join(ids[1:])})" if ids[1:] else "")


def run_replay(args: argparse.Namespace) -> int:
    from adjudicator.game.errors import GameInputError
    from adjudicator.game.gcg import GcgError, LanguageMismatch, read, resolve_language
    from adjudicator.game.report import print_rules, print_scores
    from adjudicator.game.walk import walk
    from lexicon.languages import available_languages

    known = rulesets()  # as the service loads them
    if args.ruleset not in known:
        raise UsageError(f"unknown ruleset {args.ruleset!r}; known: {', '.join(sorted(known))}")
    ruleset = known[args.ruleset]
    language = args.language or ruleset.language
    if language not in available_languages():
        raise UsageError(
            f"unknown language {language!r}; known: {', '.join(available_languages())}"
        )
    if args.free_challenge and not ruleset.challenge.free_challenge_option:
        raise UsageError(f"{ruleset.id} has no free-challenge variant")
    lexicon, profile = _load_lexicon(ruleset, args)
    if profile.code != language:
        raise UsageError(f"lexicon {ruleset.lexicon!r} is {profile.code}, not {language}")
    reports: list = []  # a GameReport per file, or a {file, error} for one that could not be read
    for file in args.files:
        try:
            record = read(file)
            resolve_language(record, language, available_languages())
            reports.append(walk(record, ruleset, profile, lexicon, args.free_challenge))
        except (GcgError, GameInputError) as exc:
            hint = _rulesets_for(known, exc.language) if isinstance(exc, LanguageMismatch) else ""
            if isinstance(exc, GameInputError):  # a record its ruleset cannot play
                exc = GcgError(exc.message, file)
            elif exc.file is None:
                exc = GcgError(exc.reason, file, exc.line)
            print(f"adjudicator replay: {exc}{hint}", file=sys.stderr)
            reports.append({"file": str(file), "error": str(exc)})
    rules = not args.no_rules
    if args.json:
        data = [r if isinstance(r, dict) else r.to_dict(rules) for r in reports]
        json.dump(data[0] if len(data) == 1 else data, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        for report in reports:
            if isinstance(report, dict):
                continue  # already reported on standard error, in its turn
            print_scores(report, end="\n" if rules else "\n\n")
            if rules:
                print_rules(report)
    if any(isinstance(r, dict) for r in reports):  # a file that could not be read
        return EXIT_BAD_INPUT
    ok = all(r.ok if rules else r.scores_ok for r in reports)
    return EXIT_OK if ok else EXIT_DISAGREE
