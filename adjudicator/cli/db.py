"""`adjudicator db`: create the store's database or migrate it, and say which revision it is at."""

from __future__ import annotations

import argparse

from adjudicator.cli.common import (
    EXIT_DISAGREE,
    EXIT_OK,
    add_database_option,
    add_group,
    opened_store,
)


def add_db(sub: argparse._SubParsersAction) -> None:
    actions = add_group(
        sub,
        "db",
        run_db,
        help="create or migrate the store's database",
        description="Create the store's database or migrate it to the newest schema, and say "
        "which revision it is at.",
    )
    actions.add_parser(
        "upgrade",
        help="create the database or migrate it to the newest schema",
        description="Create the database or migrate it to the newest schema. Safe to repeat; "
        "boxes sharing one PostgreSQL take turns.",
    )
    actions.add_parser(
        "current",
        help="the revision the database is at",
        description="Print the revision the database is at; exit 1 when it is not the newest.",
    )
    actions.add_parser(
        "heads",
        help="the newest revision this version ships",
        description="Print the newest schema revision this version ships (no database needed).",
    )
    add_database_option(actions, but=("heads",))


def run_db(args: argparse.Namespace) -> int:
    from adjudicator.store import migrate

    if args.action == "heads":
        print("\n".join(migrate.heads()))
        return EXIT_OK
    with opened_store(args, at_head=False) as store:
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
