"""`adjudicator directors|devices|keys`: the accounts and credentials, managed on the server."""

from __future__ import annotations

import argparse
import getpass
import sys
from datetime import datetime

from adjudicator.auth import devices, directors, keys, store_time
from adjudicator.bounds import MAX_ROW_ID
from adjudicator.cli.common import (
    EXIT_OK,
    UsageError,
    add_database_option,
    add_group,
    opened_store,
    rulesets,
)
from lexicon.console import print_table, text, whole_number


def _when(at: datetime | None) -> str:
    return "never" if at is None else at.strftime("%Y-%m-%d %H:%M:%S UTC")


# --- directors ------------------------------------------------------------------------------


def _read_password(from_stdin: bool) -> str:
    if from_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
        if not password:
            raise UsageError("no password on standard input")
        return password
    if not sys.stdin.isatty():
        raise UsageError("no terminal to ask for the password: use --password-stdin")
    first = getpass.getpass("Password: ")
    if getpass.getpass("Password again: ") != first:
        raise UsageError("the two passwords differ")
    return first


def run_directors(args: argparse.Namespace) -> int:
    with opened_store(args, upgrade_sqlite=True) as store:
        if args.action == "add":
            directors.check_name(args.name)  # before asking for a password
            password = _read_password(args.password_stdin)
            with store.connection(write=True) as conn:
                directors.add(conn, args.name, password, store_time.now())
            print(f"director {args.name!r} added")
        elif args.action == "passwd":
            with store.connection() as conn:  # before asking for a password
                if not directors.exists(conn, args.name):
                    raise UsageError(f"no director named {args.name!r}")
            password = _read_password(args.password_stdin)
            with store.connection(write=True) as conn:
                ended = directors.set_password(conn, args.name, password)
            if ended is None:  # removed while we asked
                raise UsageError(f"no director named {args.name!r}")
            print(f"password of director {args.name!r} changed; {ended} session(s) ended")
        elif args.action == "list":
            with store.connection() as conn:
                rows = directors.listed(conn, store_time.now())
            print_table(
                ["name", "created", "last login", "sessions"],
                [
                    [r["name"], _when(r["created_at"]), _when(r["last_login_at"]), r["sessions"]]
                    for r in rows
                ],
            )
        elif args.action == "remove":
            with store.connection(write=True) as conn:
                if not directors.remove(conn, args.name):
                    raise UsageError(f"no director named {args.name!r}")
            print(f"director {args.name!r} removed; their sessions ended")
        elif args.action == "unlock":
            with store.connection(write=True) as conn:
                cleared = directors.unlock(conn, args.name)
            print(f"{cleared} failed login(s) for {args.name!r} forgotten")
    return EXIT_OK


def add_directors(sub: argparse._SubParsersAction) -> None:
    actions = add_group(
        sub,
        "directors",
        run_directors,
        help="tournament directors' accounts",
        description="Tournament directors' accounts: a director signs in at /director to pair "
        "tablets and read the rulings.",
    )
    add = actions.add_parser(
        "add",
        help="add a director (asks for the password twice)",
        description="Add a director. The password is asked for twice on a terminal, or read "
        "from standard input with --password-stdin.",
    )
    add.add_argument("name", type=text, help="the director's name: letters, digits, . _ @ -")
    add.add_argument(
        "--password-stdin", action="store_true", help="read the password from standard input"
    )
    passwd = actions.add_parser(
        "passwd",
        help="change a director's password (asks twice) and end their sessions",
        description="Change a director's password and end every session they have open.",
    )
    passwd.add_argument("name", type=text, help="the director whose password to change")
    passwd.add_argument(
        "--password-stdin", action="store_true", help="read the new password from standard input"
    )
    actions.add_parser(
        "list",
        help="list directors with their last login",
        description="List the directors with when each last signed in.",
    )
    remove = actions.add_parser(
        "remove",
        help="remove a director and end their sessions",
        description="Remove a director, end their sessions and void any pairing code they made.",
    )
    remove.add_argument("name", type=text, help="the director to remove")
    unlock = actions.add_parser(
        "unlock",
        help="forget an account's failed logins",
        description="Forget a director's failed logins, so a locked account may sign in again.",
    )
    unlock.add_argument("name", type=text, help="the director whose failed logins to forget")
    add_database_option(actions)


# --- devices --------------------------------------------------------------------------------


def run_devices(args: argparse.Namespace) -> int:
    with opened_store(args, upgrade_sqlite=True) as store:
        at = store_time.now()
        if args.action == "list":
            with store.connection() as conn:
                rows = devices.listed(conn, at, include_revoked=args.all)
            print_table(
                ["id", "name", "ruleset", "state", "paired", "by", "last used"],
                [
                    [
                        r["id"],
                        r["name"],
                        r["ruleset"] or "any",
                        r["state"],
                        _when(r["created_at"]),
                        r["paired_by"] or "-",
                        _when(r["last_used_at"]),
                    ]
                    for r in rows
                ],
            )
        elif args.action == "revoke":
            with store.connection(write=True) as conn:
                if not devices.revoke(conn, args.id, at):
                    raise UsageError(f"no active device with id {args.id}")
            print(f"device {args.id} revoked")
    return EXIT_OK


def add_devices(sub: argparse._SubParsersAction) -> None:
    actions = add_group(
        sub,
        "devices",
        run_devices,
        help="paired judge devices",
        description="The judge tablets paired with this service: list them, revoke one.",
    )
    listing = actions.add_parser(
        "list",
        help="list active devices (--all: revoked too)",
        description="List the paired devices with their ruleset, state and last use.",
    )
    listing.add_argument("--all", action="store_true", help="revoked and expired devices too")
    revoke = actions.add_parser(
        "revoke",
        help="revoke a device at once",
        description="Revoke a device: its next request is refused, on every box.",
    )
    revoke.add_argument(
        "id", type=whole_number(1, MAX_ROW_ID), help="the device's id, from `devices list`"
    )
    add_database_option(actions)


# --- keys -----------------------------------------------------------------------------------


def run_keys(args: argparse.Namespace) -> int:
    with opened_store(args, upgrade_sqlite=True) as store:
        at = store_time.now()
        if args.action == "create":
            known = set(rulesets())
            with store.connection(write=True) as conn:
                made = keys.create(conn, args.name, args.role, args.scope or [], known, at)
            print(made.key)
            print(
                f"key {made.name!r} (id {made.id}) created: it is shown only now; "
                "send it as 'Authorization: Bearer <key>'",
                file=sys.stderr,
            )
        elif args.action == "list":
            with store.connection() as conn:
                rows = keys.listed(conn)
            print_table(
                ["id", "name", "role", "rulesets", "key", "state", "created", "last used"],
                [
                    [
                        r["id"],
                        r["name"],
                        r["role"],
                        r["scopes"] or "all",
                        r["hint"] + "…",
                        "revoked" if r["revoked_at"] else "active",
                        _when(r["created_at"]),
                        _when(r["last_used_at"]),
                    ]
                    for r in rows
                ],
            )
        elif args.action == "revoke":
            with store.connection(write=True) as conn:
                if not keys.revoke(conn, args.name, at):
                    raise UsageError(f"no active key named {args.name!r}")
            print(f"key {args.name!r} revoked")
    return EXIT_OK


def add_keys(sub: argparse._SubParsersAction) -> None:
    actions = add_group(
        sub,
        "keys",
        run_keys,
        help="API keys for apps",
        description="API keys for apps (a scoring or pairing program): create, list, revoke.",
    )
    create = actions.add_parser(
        "create",
        help="create a key; it is printed once",
        description="Create a key and print it once; only its hash is stored.",
    )
    # One role so far: --role is optional until there is a choice to make.
    create.add_argument(
        "--role", default=keys.ROLES[0], choices=keys.ROLES, help="what the key is for (app)"
    )
    create.add_argument(
        "--name", required=True, type=text, help="a name for lists and the audit log"
    )
    create.add_argument(
        "--scope",
        action="append",
        metavar="RULESET",
        help="a ruleset the key may use (repeat; default: all)",
    )
    actions.add_parser(
        "list",
        help="list keys with their last use",
        description="List the keys with their role, rulesets, state and last use (never the key).",
    )
    revoke = actions.add_parser(
        "revoke",
        help="revoke a key by name (or id)",
        description="Revoke a key by its name or id: its next request is refused.",
    )
    revoke.add_argument("name", type=text, help="the key's name (or its id)")
    add_database_option(actions)
