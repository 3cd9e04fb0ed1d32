"""`lexicon`: the maintainers' command line. Errors name file and line; no tracebacks."""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import replace
from datetime import date
from pathlib import Path

from compiler.build import BuildResult, Folded, Rejected, build, compile_recipe
from compiler.recipe import load_recipe
from lexicon import artifact, editions
from lexicon.console import add_version, day, print_table, run_handler
from lexicon.errors import LexiconError
from lexicon.normalise import REASONS, Rejection


def note(line: str) -> None:
    """A line for the user on standard error: standard output holds the command's data."""
    print(line, file=sys.stderr)


def print_summary(results: Sequence[BuildResult]) -> None:
    seen = {reason for r in results for reason in r.rejected_counts}
    seen |= {name for r in results for name, _ in r.recipe.filters_off}
    reasons = [r for r in REASONS if r in seen] + sorted(seen - set(REASONS))
    head = ["lexicon", "entries", "kept", "words"]
    head += [f"rej:{r}" for r in reasons] + ["folded", "need-blank", "unplayable", "seconds"]
    rows: list[list] = []
    for r in results:
        entries, kept = (sum(s[key] for s in r.sources) for key in ("entries", "kept"))
        off = dict(r.recipe.filters_off)  # a filter turned off shows `off`, not a count of 0
        rejected = ["off" if reason in off else r.rejected_counts[reason] for reason in reasons]
        rest = [r.folded, r.needs_blank, len(r.unplayable), f"{r.seconds:.2f}"]
        rows.append([r.recipe.id, entries, kept, r.word_count, *rejected, *rest])
    print_table(head, rows, counts=True)


def cmd_build(args: argparse.Namespace) -> int:
    """Read each recipe's sources, normalise and filter the words, and write the trie and its
    manifest into DIR."""
    results = []
    for path in args.recipes:
        recipe = load_recipe(path)
        if args.in_force_from is not None:  # the command line's date wins over the recipe's
            recipe = replace(recipe, in_force_from=args.in_force_from)
        result, manifest_path = build(recipe, Path(args.out), progress=not args.quiet)
        results.append(result)
        if not args.quiet:
            for source in result.sources:
                if source["encoding"] == "auto":
                    note(
                        f"{recipe.id}: {source['path']}: encoding auto: read as "
                        f"{source['decoded_as']}"
                    )
            note(f"wrote {manifest_path} and {manifest_path.with_suffix('.marisa').name}")
        if result.unplayable:  # said even with --quiet: a list no game can play is news
            note(unplayable_note(result))
        if recipe.filters_off:  # said even with --quiet: a house build is never a tournament's
            note(filters_off_note(result))
    print_summary(results)
    return 0


SHOWN_UNPLAYABLE = 20  # the note names this many; `lexicon lookup` flags any of them


def unplayable_note(result: BuildResult) -> str:
    """The words kept that need more blanks than the tile set has, each with how many."""
    profile, words = result.profile, result.unplayable
    shown = ", ".join(f"{w} ({profile.blanks_needed(w)})" for w in words[:SHOWN_UNPLAYABLE])
    more = f" and {len(words) - SHOWN_UNPLAYABLE} more" if len(words) > SHOWN_UNPLAYABLE else ""
    return (
        f"{result.recipe.id}: {len(words)} {'word needs' if len(words) == 1 else 'words need'} more blanks "
        f"than the tile set's {profile.blanks} and cannot be played (kept, as the source lists "
        f"them; `lexicon lookup` flags them): {shown}{more}"
    )


def filters_off_note(result: BuildResult) -> str:
    """Which filters the recipe turned off, and why: a house build, never a tournament list."""
    off = "; ".join(f"filter {name!r} off: {why}" for name, why in result.recipe.filters_off)
    return f"{result.recipe.id}: a house build (no tournament ruleset may use it): {off}"


def _write_tsv(out: str | None, kind: type[tuple], rows: Sequence[tuple], what: str) -> None:
    """`rejected`, `folded`: a header (the fields of `kind`, `Rejected` or `Folded`) and `rows`
    as TSV, to the file `out` (saying how many `what` it holds) or to standard output (no
    `out`, or -)."""
    to_file = out not in (None, "-")
    with open(out, "w", encoding="utf-8", newline="") if to_file else nullcontext(sys.stdout) as f:
        tsv = csv.writer(f, delimiter="\t", lineterminator="\n")  # quoted as needed
        tsv.writerows([kind._fields, *rows])
    if to_file:
        note(f"{len(rows)} {what} written to {out}")


def cmd_rejected(args: argparse.Namespace) -> int:
    """Write every entry the recipe's build would drop, with the file, line, reason and detail
    (the character at fault, or the length against the limit), as TSV."""
    result = compile_recipe(load_recipe(args.recipe), keep_rejected=True)
    _write_tsv(args.out, Rejected, result.rejected, "dropped entries")
    return 0


def cmd_folded(args: argparse.Namespace) -> int:
    """Write every entry the recipe's build keeps as a word it does not spell (a letter folded:
    café → CAFE; a joiner dropped: auto's → AUTOS), with the file, line and the word, as TSV."""
    result = compile_recipe(load_recipe(args.recipe), keep_rejected=True)
    _write_tsv(args.out, Folded, result.folded_entries, "folded entries")
    return 0


def _edition_name(lexicon: artifact.Lexicon) -> str:
    day = lexicon.in_force_from
    return f"{lexicon.id} ({'in force from ' + day.isoformat() if day else 'no date: always'})"


def cmd_diff(args: argparse.Namespace) -> int:
    """Print the words removed (-WORD) and added (+WORD) from build A to build B; a count on
    standard error, with a warning when they are different languages. With --in-force-among,
    give one build (the new edition): it is compared with the edition in force today (or --on
    a day) among the editions named."""
    if args.in_force_among:
        if args.b is not None:
            raise LexiconError("give one build (the new edition) with --in-force-among, not two")
        b = artifact.load(args.a)
        installed = [editions.Installed.read(path) for path in args.in_force_among]
        day = args.on or date.today()
        chosen = editions.in_force([e for e in installed if e.id != b.id], day)
        if chosen is None:
            raise LexiconError(f"none of the editions given is in force on {day.isoformat()}")
        a = artifact.load(chosen.manifest)  # only the edition compared against is loaded
        note(f"against the edition in force on {day.isoformat()}: {_edition_name(a)}")
        if editions.since(b) <= day:
            note(
                f"lexicon diff: note: {_edition_name(b)} would already be in force on {day.isoformat()}"
            )
    elif args.b is None:
        raise LexiconError("give two builds (A.json B.json), or one with --in-force-among")
    else:
        a, b = artifact.load(args.a), artifact.load(args.b)
    old, new = set(a.words()), set(b.words())
    added, removed = sorted(new - old), sorted(old - new)
    for word in removed:
        print(f"-{word}")
    for word in added:
        print(f"+{word}")
    note(f"{a.id} → {b.id}: {len(added)} added, {len(removed)} removed")
    if args.in_force_among and b.in_force_from is not None:
        note(f"{b.id} is used from {b.in_force_from.isoformat()} on, not before")
    if a.profile.code != b.profile.code:  # legal, but almost always the wrong pair of files
        note(
            f"lexicon diff: warning: {a.id} is {a.profile.english_name} ({a.profile.code}) and "
            f"{b.id} is {b.profile.english_name} ({b.profile.code}): every word differs"
        )
    return 0


EXIT_SOME_INVALID = 1  # `lookup`: at least one word is invalid or not a word form


def cmd_lookup(args: argparse.Namespace) -> int:
    """Normalise each word as the service does and say whether it is valid. Exit status: 0 all
    valid, 1 some invalid (or not a word form), 2 an error."""
    lex = artifact.load(args.artifact)
    all_valid = True
    for word in args.words:
        norm = lex.normaliser.query(word)
        if isinstance(norm, Rejection):
            print(f"{word}\t-\tnot a word form: {norm}")
            all_valid = False
            continue
        valid = norm in lex
        all_valid &= valid
        blanks = lex.profile.blanks_needed(norm)
        extra = f" (needs {blanks} blank{'s' if blanks > 1 else ''})" if blanks else ""
        if blanks > lex.profile.blanks:
            extra = (
                f" (needs {blanks} blanks; the tile set has {lex.profile.blanks}: "
                "it cannot be played)"
            )
        print(f"{word}\t{norm}\t{'valid' if valid else 'invalid'}{extra}")
    return 0 if all_valid else EXIT_SOME_INVALID


def cmd_verify(args: argparse.Namespace) -> int:
    """Check each build's format version, its trie's sha256 and that the trie reads."""
    for path in args.artifacts:
        lex = artifact.load(path)
        m = lex.manifest
        print(f"ok  {m['id']}  {m['word_count']} words  sha256 {m['marisa']['sha256'][:16]}…")
    return 0


def cmd_install(args: argparse.Namespace) -> int:
    """Verify every build first (format, version, sha256, readable trie); install none unless
    all pass. Tries go in as DIR/<sha256>.marisa (read-only, never rewritten), then each
    DIR/<id>.json is switched in one rename."""
    from compiler.install import install

    for done in install(args.builds, args.into):
        was = f"was {done.previous[:16]}…" if done.previous else "new"
        same = "  (unchanged)" if done.previous == done.sha256 else ""
        print(f"installed  {done.id}  sha256 {done.sha256[:16]}…  ({was}){same}")
    print(f"into {args.into}; the service serves it after `adjudicator reload`")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="lexicon",
        description=__doc__,
        epilog="Exit status: 0 success; 1 `lookup` found a word invalid; 2 an error (named on "
        "standard error, never a traceback).",
    )
    add_version(p)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(
        name: str, handler: Callable[[argparse.Namespace], int], help: str
    ) -> argparse.ArgumentParser:
        """`lexicon NAME`, run by `handler` and described by its docstring."""
        command = sub.add_parser(name, help=help, description=handler.__doc__)
        command.set_defaults(handler=handler)
        return command

    b = command("build", cmd_build, "compile recipes into DIR/<id>.marisa + DIR/<id>.json")
    b.add_argument("recipes", nargs="+", metavar="RECIPE", help="recipe files (TOML)")
    b.add_argument("--out", required=True, metavar="DIR", help="folder for the artifacts")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress bar or file notes")
    b.add_argument(
        "--in-force-from",
        type=day,
        metavar="YYYY-MM-DD",
        help="the date this edition is in force from (the manifest's `in_force_from`; wins over "
        "the recipe's); without one, a build is in force since always",
    )
    r = command(
        "rejected", cmd_rejected, "TSV of every dropped entry: file, line, entry, reason, detail"
    )
    f = command(
        "folded", cmd_folded, "TSV of every entry kept as a different word: file, line, entry, word"
    )
    for tsv in (r, f):
        tsv.add_argument("recipe", metavar="RECIPE", help="the recipe whose sources are read")
        tsv.add_argument(
            "--out", metavar="FILE.tsv", help="write here instead of standard output (- for it)"
        )
    d = command(
        "diff",
        cmd_diff,
        "words added and removed between two builds, or against the edition in force",
    )
    d.add_argument("a", metavar="A.json", help="the older build's manifest (or the new one)")
    d.add_argument("b", metavar="B.json", nargs="?", help="the newer build's manifest")
    d.add_argument(
        "--in-force-among",
        nargs="+",
        metavar="EDITION.json",
        help="the installed editions of the list (e.g. DIR/wdanish*.json): compare with the one "
        "in force, chosen by their dates",
    )
    d.add_argument("--on", type=day, metavar="YYYY-MM-DD", help="the day to choose it on (today)")
    lk = command("lookup", cmd_lookup, "normalise words and look them up")
    lk.add_argument("artifact", metavar="ARTIFACT", help="a compiled lexicon's manifest (.json)")
    lk.add_argument("words", nargs="+", metavar="WORD", help="words to look up")
    v = command("verify", cmd_verify, "check format version and checksum")
    v.add_argument("artifacts", nargs="+", metavar="ARTIFACT", help="manifests (.json) to check")
    i = command(
        "install",
        cmd_install,
        "verify builds, then install them into a deployment's lexicon directory",
    )
    i.add_argument("builds", nargs="+", metavar="BUILD.json", help="built manifests to install")
    i.add_argument("--into", required=True, metavar="DIR", help="the deployment's lexicon dir")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    return run_handler(
        parser().parse_args(argv),
        "lexicon: error",
        lambda exc: str(exc) if isinstance(exc, LexiconError) else None,
        interrupted="lexicon: interrupted; no partial artifact was left behind",
    )


if __name__ == "__main__":
    sys.exit(main())
