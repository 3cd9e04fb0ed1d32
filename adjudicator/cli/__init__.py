"""`adjudicator` command line. Each subcommand registers itself in one `add_*` function.

Exit codes: 0 all good, 1 a disagreement was found, 2 bad input (never a traceback); a command
over several inputs reports each and exits with the worst.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from adjudicator import settings
from adjudicator.cli.accounts import add_devices, add_directors, add_keys
from adjudicator.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_DISAGREE,
    EXIT_OK,
    UsageError,
    add_database_option,
    open_store,
)
from adjudicator.environment import environment_for_child, terminal_locale
from adjudicator.pages.page_language import LANGUAGES
from adjudicator.rulesets import Ruleset, RulesetError, load_rulesets
from adjudicator.settings import ConfigError
from lexicon.console import add_version, closed_pipe_safe, folder, seconds, whole_number


def load_ruleset(ruleset_id: str) -> Ruleset:
    """A ruleset as the service loads it: the bundled files, then `$ADJUDICATOR_RULESET_DIR`
    (with its `lexicons.toml`), checked field by field."""
    try:
        rulesets = load_rulesets(settings.read().ruleset_dir)
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


def _manifest(ruleset: Ruleset, args: argparse.Namespace) -> Path:
    folder = Path(args.lexicon_dir or settings.read().lexicon_dir)
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


def _rulesets_for(language: str) -> str:
    """`; try --ruleset X (or Y)`: the rulesets that replay a record in `language`."""
    rulesets = load_rulesets(settings.read().ruleset_dir)
    ids = sorted(r.id for r in rulesets.values() if r.language == language)
    if not ids:
        return ""
    return f"; try --ruleset {ids[0]}" + (f" (or {', '.join(ids[1:])})" if ids[1:] else "")


def run_replay(args: argparse.Namespace) -> int:
    from adjudicator.game.gcg import GcgError, LanguageMismatch, read, resolve_language
    from adjudicator.game.report import print_rules, print_scores
    from adjudicator.game.walk import walk
    from lexicon.languages import available_languages

    ruleset = load_ruleset(args.ruleset)
    language = args.language or ruleset.language
    if language not in available_languages():
        raise UsageError(
            f"unknown language {language!r}; known: {', '.join(available_languages())}"
        )
    if args.free_challenge and not ruleset.rules.challenge.free_challenge_option:
        raise UsageError(f"{ruleset.id} has no free-challenge variant")
    lexicon, profile = _load_lexicon(ruleset, args)
    if profile.code != language:
        raise UsageError(f"lexicon {ruleset.lexicon_id!r} is {profile.code}, not {language}")
    reports: list = []  # a GameReport per file, or a {file, error} for one that could not be read
    unreadable = 0
    for file in args.files:
        try:
            record = read(file)
            resolve_language(record, language, available_languages())
            reports.append(walk(record, ruleset.rules, profile, lexicon, args.free_challenge))
        except GcgError as exc:
            hint = _rulesets_for(exc.language) if isinstance(exc, LanguageMismatch) else ""
            if exc.file is None:
                exc = GcgError(exc.reason, file, exc.line)
            print(f"adjudicator replay: {exc}{hint}", file=sys.stderr)
            reports.append({"file": str(file), "error": str(exc)})
            unreadable += 1
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
    if unreadable:
        return EXIT_BAD_INPUT
    replayed = [r for r in reports if not isinstance(r, dict)]
    ok = all(r.ok if rules else r.scores_ok for r in replayed)
    return EXIT_OK if ok else EXIT_DISAGREE


# --- serve ----------------------------------------------------------------------------------


def add_serve(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="run the HTTP service under gunicorn with the shipped settings",
        description="Run the service under gunicorn with the settings shipped in the package "
        "(adjudicator/process/gunicorn_conf.py: lexicons loaded once before forking, no access log "
        "unless ADJUDICATOR_ACCESS_LOG names one, never with bodies). Options override the ADJUDICATOR_* environment variables.",
    )
    p.add_argument(
        "--bind",
        type=setting_option(settings.bind),
        metavar="HOST:PORT",
        help="address(es) to listen on, comma-separated (default: $ADJUDICATOR_BIND or "
        "127.0.0.1:8000)",
    )
    p.add_argument(
        "--workers",
        type=whole_number(*settings.bounds("WORKERS")),
        metavar="N",
        help="worker processes (default: $ADJUDICATOR_WORKERS or 2 per core, at most 4)",
    )
    p.add_argument(
        "--lexicon-dir",
        type=folder,
        metavar="DIR",
        help="compiled lexicons to load (default: $ADJUDICATOR_LEXICON_DIR or the instance "
        "folder's lexicons/)",
    )
    p.set_defaults(handler=run_serve)


def setting_option(check):
    """An argparse type that checks an option as its setting's declaration does."""

    def parse(value: str) -> str:
        try:
            return check(value)
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def run_serve(args: argparse.Namespace) -> int:
    """Replace this process with gunicorn: signals (TERM, HUP, INT) then reach its master.
    Every setting is checked first (adjudicator.settings): a bad one is exit status 2 here,
    naming its variable, not a traceback from gunicorn nor a 500 later."""
    options: dict[str, str] = {}
    if args.bind is not None:  # checked as the setting is (argparse)
        options["BIND"] = args.bind
    if args.workers is not None:  # within the setting's bounds (argparse)
        options["WORKERS"] = str(args.workers)
    if args.lexicon_dir is not None:  # an existing folder, made absolute (argparse)
        options["LEXICON_DIR"] = args.lexicon_dir
    env = environment_for_child(**options)
    settings.read(env)  # ConfigError: exit 2 (`_run`)
    # gunicorn, quiet about a Ctrl-C while it starts (adjudicator.process.gunicorn_main). SIGINT stays
    # blocked across the exec until gunicorn_main is ready for it: a Ctrl-C meanwhile waits.
    argv = [
        sys.executable,
        "-m",
        "adjudicator.process.gunicorn_main",
        "-c",
        "python:adjudicator.process.gunicorn_conf",
    ]
    sys.stdout.flush()
    sys.stderr.flush()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        os.execve(sys.executable, [*argv, "adjudicator.process.wsgi:app"], env)
    finally:  # reached only when the exec failed: this process keeps its Ctrl-C
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return EXIT_OK  # not reached: execve does not return


# --- db -------------------------------------------------------------------------------------


@contextmanager
def opened_store(args: argparse.Namespace) -> Iterator:
    """`open_store`, its errors as one-line usage errors, its connections closed at the end."""
    from adjudicator.store import StoreError

    store = open_store(args)
    try:
        yield store
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    finally:
        store.dispose()


def add_db(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "db",
        help="create or migrate the store's database",
        description="Create the store's database or migrate it to the newest schema, and say "
        "which revision it is at.",
    )
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    upgrade = actions.add_parser(
        "upgrade",
        help="create the database or migrate it to the newest schema",
        description="Create the database or migrate it to the newest schema. Safe to repeat; "
        "boxes sharing one PostgreSQL take turns.",
    )
    current = actions.add_parser(
        "current",
        help="the revision the database is at",
        description="Print the revision the database is at; exit 1 when it is not the newest.",
    )
    actions.add_parser(
        "heads",
        help="the newest revision this version ships",
        description="Print the newest schema revision this version ships (no database needed).",
    )
    for action in (upgrade, current):
        add_database_option(action)
    p.set_defaults(handler=run_db)


def run_db(args: argparse.Namespace) -> int:
    from adjudicator.store import migrate

    if args.action == "heads":
        print("\n".join(migrate.heads()))
        return EXIT_OK
    with opened_store(args) as store:
        if args.action == "upgrade":
            migrate.upgrade(store)
        revisions = migrate.current(store)
    where = store.url.render_as_string()
    if args.action == "upgrade":
        print(f"{where}: at {', '.join(revisions)} (newest)")
    else:
        state = ", ".join(revisions) or "empty (never migrated)"
        newest = set(revisions) == set(migrate.heads())
        print(f"{state}{' (newest)' if newest else ''}")
        if not newest:
            return EXIT_DISAGREE
    return EXIT_OK


# --- reload -------------------------------------------------------------------------------


def add_reload(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "reload",
        help="check the installed lexicons and rulesets, then switch a running instance to them",
        description="Load the instance's lexicon and ruleset directories exactly as it will "
        "(its own environment and working directory, read from /proc); if anything fails, "
        "signal nothing and exit 2. Otherwise send SIGHUP and wait until every old worker "
        "has left, then print what is served.",
    )
    p.add_argument(
        "--run-dir",
        help="the instance's run directory (default: $ADJUDICATOR_RUN_DIR, else "
        "run/<first address of $ADJUDICATOR_BIND or 127.0.0.1:8000> in the instance folder, "
        "$ADJUDICATOR_INSTANCE_DIR)",
    )
    p.add_argument("--timeout", type=seconds(3600), default=30, help="seconds to wait (default 30)")
    p.set_defaults(handler=run_reload)


def _master_pid(run_dir: Path) -> int:
    from adjudicator.rundir import PIDFILE

    try:
        pid = int((run_dir / PIDFILE).read_text().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        raise UsageError(f"no running instance with a pidfile in {run_dir}") from None
    return pid


def _workers(master: int) -> set[int]:
    """The master's child processes, from /proc."""
    children = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            children.add(int(stat.parent.name))
    return children


def _check_as_instance(master: int) -> tuple[dict, dict]:
    """Load the lexicons and rulesets as the instance would (its ADJUDICATOR_* environment and
    working directory): the lexicons it would serve, and those that would fail."""
    import logging

    from adjudicator.lexicon_registry import LexiconRegistry
    from adjudicator.rulesets import RulesetError, load_rulesets

    proc = Path(f"/proc/{master}")
    try:
        raw = (proc / "environ").read_bytes().split(b"\0")
        cwd = os.readlink(proc / "cwd")
    except OSError as exc:
        raise UsageError(f"cannot read the instance's environment: {exc.strerror}") from None
    env = dict(item.decode().split("=", 1) for item in raw if b"=" in item)
    saved_cwd = os.getcwd()
    try:
        os.chdir(cwd)  # its relative folders are its working directory's
        try:
            config = settings.read(env)  # the instance's settings, as its app read them
        except ConfigError as exc:
            raise UsageError(f"not reloaded: the instance's settings: {exc}") from None
        try:
            load_rulesets(config.ruleset_dir)
        except RulesetError as exc:
            raise UsageError(f"not reloaded: {exc}") from None
        reg = LexiconRegistry(os.path.abspath(config.lexicon_dir))
        quiet = logging.getLogger("adjudicator.reload-check")  # failures are printed below
        quiet.propagate = False
        quiet.addHandler(logging.NullHandler())
        reg.load_all(quiet)
    finally:
        os.chdir(saved_cwd)
    return {i: lex.identity()["sha256"] for i, lex in reg.loaded.items()}, reg.failed


def run_reload(args: argparse.Namespace) -> int:
    import time

    from adjudicator.rundir import read_last_reload

    run_dir = Path(args.run_dir or settings.read().run_directory)
    master = _master_pid(run_dir)
    installed, failed = _check_as_instance(master)
    if failed:
        for name, why in sorted(failed.items()):
            print(f"adjudicator reload: {name}: {why}", file=sys.stderr)
        raise UsageError("not reloaded: fix or reinstall the lexicons above; nothing changed")
    old = _workers(master)
    started = time.time()
    os.kill(master, signal.SIGHUP)
    deadline = time.monotonic() + args.timeout
    while time.monotonic() < deadline:
        report = read_last_reload(str(run_dir))
        current = _workers(master)
        if report and report["time"] >= started and current and not current & old:
            break
        time.sleep(0.05)
    else:
        print(f"adjudicator reload: not finished after {args.timeout:g} s", file=sys.stderr)
        return EXIT_DISAGREE
    took = time.time() - started
    for lexicon_id, sha in sorted(report["lexicons"].items()):
        print(f"serving  {lexicon_id}  sha256 {sha[:16]}…")
    if not report["ok"] or report["failed"] or report["lexicons"] != installed:
        print(
            f"adjudicator reload: refused: {report['error'] or report['failed']}", file=sys.stderr
        )
        return EXIT_DISAGREE
    print(f"reloaded in {took:.2f} s: workers {sorted(old)} replaced by {sorted(current)}")
    return EXIT_OK


# --- audit ----------------------------------------------------------------------------------


def add_audit(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "audit",
        help="verify, export or prune the audit log of rulings, or print its head to note",
        description="Check the audit log's hash chain, print its head to note, write its "
        "entries out, or remove old ones.",
    )
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    verify = actions.add_parser(
        "verify",
        help="check the hash chain",
        description="Walk the hash chain and name every entry that was edited, removed or "
        "inserted, every row outside the chain or holding a value its column cannot, and a "
        "checkpoint without the prune entry that made it (exit 1). Reads one snapshot: "
        "rulings written meanwhile are not half seen.",
    )
    verify.add_argument(
        "--head",
        type=noted_head,
        metavar="SEQ:HASH",
        help="a head noted earlier (`audit head`): also check that the log still extends it, "
        "and list the prunes since",
    )
    head = actions.add_parser(
        "head",
        help="print the chain's head (SEQ:HASH) to note or print at each round",
        description="Verify the chain, then print its head as SEQ:HASH on standard output and, "
        "on standard error, what to do with it: note or print it at the end of each round; "
        "`audit verify --head SEQ:HASH` later checks that the log still extends it, outside "
        "anything the database holds (exit 1, and no head, when the chain does not verify).",
    )
    export = actions.add_parser(
        "export",
        help="write every entry as a spreadsheet (CSV, xlsx) or as JSON",
        description="Write every row, in chain order, as the rulings page's download writes "
        "it (CSV or xlsx, in a language, times in ADJUDICATOR_TIME_ZONE with their offset "
        "from UTC) or as the exact record (JSON) (exit 1 when a row holds a value its column "
        "cannot: it is written as stored and named).",
    )
    export.add_argument(
        "--format", choices=["csv", "xlsx", "json"], default="csv", help="csv, xlsx or json"
    )
    export.add_argument("--out", default="-", help="a file (default: standard output)")
    export.add_argument(
        "--lang",
        choices=sorted(LANGUAGES),
        default=None,
        help="for a spreadsheet: its language and locale (da, nl, sv: ';' between a CSV's"
        " fields; en: ','); default: the terminal's (LC_ALL, LC_MESSAGES, LANG), else en",
    )
    prune = actions.add_parser(
        "prune",
        help="remove the oldest entries, leaving a checkpoint and a prune entry",
        description="Remove the entries made before DATE from the start of the log, leaving a "
        "checkpoint that `verify` checks the rest against, and record the prune as an entry "
        "of the chain at its head (exit 1, nothing removed, when the chain does not verify).",
    )
    prune.add_argument(
        "--before",  # required, checked by run_audit: a missing date is a usage error, exit 2
        type=past_time,
        help="required: an ISO date or time (UTC unless it names a zone), e.g. 2027-01-01,"
        " not in the future",
    )
    for action in (verify, head, export, prune):
        add_database_option(action)
    p.set_defaults(handler=run_audit)


def past_time(value: str) -> datetime:
    """`--before`: an ISO date or time, as the naive UTC time the store keeps; not later than
    now (a prune removes what was made before a date that has passed)."""
    from adjudicator.store import utcnow

    try:
        when = datetime.fromisoformat(value)
        if when.tzinfo is not None:
            when = when.astimezone(UTC).replace(tzinfo=None)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be an ISO date or time (e.g. 2027-01-01), not {value!r}"
        ) from None
    except OverflowError:  # 0001-01-01T00:00:00+14:00 is before the year 1 in UTC
        raise argparse.ArgumentTypeError(
            f"{value!r} is outside the years 1 to 9999 in UTC"
        ) from None
    if when > utcnow():
        raise argparse.ArgumentTypeError(f"{value!r} is in the future")
    return when


def noted_head(value: str):
    """`--head SEQ:HASH`, as `audit head` prints it."""
    from adjudicator.audit.chain import parse_head

    try:
        return parse_head(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _system_user() -> str:
    """Who prunes, for the prune's entry: the system user running the command."""
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):  # a uid with no name
        return f"uid {os.getuid()}"


def _prune(args: argparse.Namespace, before: datetime) -> int:
    from adjudicator.audit import prune
    from adjudicator.store import migrate

    with opened_store(args) as store:
        migrate.require_head(store)
        try:
            with store.connection(write=True) as conn:
                done = prune.prune(conn, before, by=_system_user())
        except prune.PruneRefused as exc:
            print(exc)
            return EXIT_DISAGREE
    if done.entry is None:
        print(f"nothing made before {before.isoformat()} to prune")
    else:
        print(
            f"pruned {done.entries} entries made before {before.isoformat()};"
            f" checkpoint seq {done.seq} hash {done.hash}; recorded as entry seq"
            f" {done.entry.seq}, the new head: {done.entry.seq}:{done.entry.hash}"
        )
    return EXIT_OK


def terminal_language(locale: str) -> str:
    """The page language a POSIX locale names (`da_DK.UTF-8` → da), else English: what `audit
    export` writes in when no --lang is given, as a page follows the browser's."""
    code = locale.split(".")[0].split("_")[0].lower()
    return code if code in LANGUAGES else "en"


def _export(args: argparse.Namespace, conn, faults: list[str]) -> int:
    """`audit export`: every row to `--out` in `--format`; the number written."""
    from adjudicator.audit import chain, export, search, sheet
    from adjudicator.pages.times import event_zone

    found = export.noting(chain.stored(conn), faults)
    binary = args.format == "xlsx"
    if args.format == "json":
        write = export.write_json
    else:
        zone = event_zone(settings.read().time_zone)
        lang = args.lang or terminal_language(terminal_locale())
        writer = sheet.write_xlsx if binary else sheet.write_csv
        found = (search.item(row) for row in found)
        write = functools.partial(writer, lang=lang, zone=zone)
    try:
        if args.out == "-":
            return write(found, sys.stdout.buffer if binary else sys.stdout)
        with open(args.out, "wb" if binary else "w", **({} if binary else _TEXT)) as out:
            return write(found, out)
    except BrokenPipeError:
        raise  # the reader went away (`| head`): main ends quietly, status 141
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror}") from None


_TEXT = {"encoding": "utf-8", "newline": ""}


def run_audit(args: argparse.Namespace) -> int:
    from adjudicator.audit import chain
    from adjudicator.store import migrate

    if args.action == "prune":
        if args.before is None:
            raise UsageError("audit prune needs --before DATE (an ISO date, e.g. 2027-01-01)")
        return _prune(args, args.before)
    faults: list[str] = []  # export: rows holding a value their column cannot
    noted = getattr(args, "head", None)
    with opened_store(args) as store:
        migrate.require_head(store)
        with store.snapshot() as conn:  # the rows, checkpoints and head as at one moment
            if args.action == "export":
                count = _export(args, conn, faults)
            else:
                result = chain.verify(conn, noted)
    if args.action == "export":
        for fault in faults:
            print(fault, file=sys.stderr)
        malformed = f"; {len(faults)} malformed value(s), written as stored" if faults else ""
        print(f"{count} entries exported{malformed}", file=sys.stderr)
        return EXIT_DISAGREE if faults else EXIT_OK
    for problem in result.problems:
        print(problem)
    verdict = "intact" if result.ok else f"BROKEN ({len(result.problems)} problem(s))"
    if args.action == "head":
        if not result.ok:
            print(f"chain {verdict}: no head to note", file=sys.stderr)
            return EXIT_DISAGREE
        print(f"{result.head_seq}:{result.head_hash}")
        print(
            f"The audit log's head: {result.entries} entries, chain intact. Note or print the"
            " line above at the end of each round (with the time); later, `adjudicator audit"
            f" verify --head {result.head_seq}:{result.head_hash}` checks that the log still"
            " extends it: no entry up to it changed or removed, but by a prune, which the log"
            " records.",
            file=sys.stderr,
        )
        return EXIT_OK
    pruned = f" (pruned up to seq {result.pruned})" if result.pruned else ""
    if noted is not None:
        for prune in result.prunes:
            if prune.seq > noted.seq:
                print(f"since the noted head: {prune.describe()}")
        extends = "extends" if result.ok else "checked against"
        pruned += f"; {extends} the noted head seq {noted.seq}"
    print(
        f"{result.entries} entries{pruned}; chain {verdict}; head seq {result.head_seq}"
        f" hash {result.head_hash}"
    )
    return EXIT_OK if result.ok else EXIT_DISAGREE


# --- entry point ----------------------------------------------------------------------------

SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [
    add_replay,
    add_serve,
    add_db,
    add_audit,
    add_reload,
]


def subcommands() -> list[Callable[[argparse._SubParsersAction], None]]:
    """SUBCOMMANDS, then who is asking (issue 12): directors, devices and keys
    (adjudicator.cli.accounts, which shares adjudicator.cli.common with this module)."""
    from adjudicator.cli.labels import add_labels

    return [*SUBCOMMANDS, add_directors, add_devices, add_keys, add_labels]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="adjudicator",
        description="Scrabble adjudicator: the HTTP service, game records and the store",
        epilog="Exit status: 0 all good; 1 a disagreement was found; 2 bad input.",
    )
    add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in subcommands():
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return closed_pipe_safe(lambda: _run(args))


def _run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from adjudicator.store import describe_error

    try:
        return args.handler(args)
    except (UsageError, ConfigError) as exc:  # ConfigError: a bad ADJUDICATOR_* value
        print(f"adjudicator {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        raise  # an OSError too, but not an error of ours: closed_pipe_safe ends quietly
    except OSError as exc:  # a file or folder named on the line that cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"adjudicator {args.command}: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SQLAlchemyError as exc:  # the database went away, or its schema is damaged
        print(
            f"adjudicator {args.command}: the database failed: {describe_error(exc)}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
