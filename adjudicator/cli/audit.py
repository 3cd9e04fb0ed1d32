"""`adjudicator audit`: verify, export or prune the audit log of rulings, or print its head."""

from __future__ import annotations

import argparse
import functools
import os
import sys
from datetime import UTC, datetime

from adjudicator import settings
from adjudicator.cli.common import (
    EXIT_DISAGREE,
    EXIT_OK,
    UsageError,
    add_database_option,
    add_group,
    opened_store,
)
from adjudicator.environment import terminal_locale
from adjudicator.pages.page_language import LANGUAGES


def add_audit(sub: argparse._SubParsersAction) -> None:
    actions = add_group(
        sub,
        "audit",
        run_audit,
        help="verify, export or prune the audit log of rulings, or print its head to note",
        description="Check the audit log's hash chain, print its head to note, write its "
        "entries out, or remove old ones.",
    )
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
    actions.add_parser(
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
    add_database_option(actions)


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


def _prune(args: argparse.Namespace) -> int:
    from adjudicator.audit import prune

    with opened_store(args) as store:
        try:
            with store.connection(write=True) as conn:
                done = prune.prune(conn, args.before, by=_system_user())
        except prune.PruneRefused as exc:
            print(exc)
            return EXIT_DISAGREE
    before = args.before.isoformat()
    if done.entry is None:
        print(f"nothing made before {before} to prune")
    else:
        print(
            f"pruned {done.entries} entries made before {before};"
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

    found = export.noting(chain.stored(conn), faults)
    binary = args.format == "xlsx"
    if args.format == "json":
        write = export.write_json
    else:
        zone = settings.read().zone
        lang = args.lang or terminal_language(terminal_locale())
        writer = sheet.write_xlsx if binary else sheet.write_csv
        found = (search.item(row) for row in found)
        write = functools.partial(writer, lang=lang, zone=zone)
    try:
        if args.out == "-":
            return write(found, sys.stdout.buffer if binary else sys.stdout)
        text = {} if binary else {"encoding": "utf-8", "newline": ""}
        with open(args.out, "wb" if binary else "w", **text) as out:
            return write(found, out)
    except BrokenPipeError:
        raise  # the reader went away (`| head`): main ends quietly, status 141
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror}") from None


def run_audit(args: argparse.Namespace) -> int:
    from adjudicator.audit import chain

    if args.action == "prune":
        if args.before is None:
            raise UsageError("audit prune needs --before DATE (an ISO date, e.g. 2027-01-01)")
        return _prune(args)
    faults: list[str] = []  # export: rows holding a value their column cannot
    noted = getattr(args, "head", None)
    with opened_store(args) as store:
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
