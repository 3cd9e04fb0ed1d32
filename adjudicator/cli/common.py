"""What the `adjudicator` commands share: exit statuses, the usage error, the store to open.

Its own module, below the command line (`adjudicator.cli`) and each command's module, so that
none imports another's half-built module.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from adjudicator import settings

EXIT_OK = 0
EXIT_DISAGREE = 1  # bad input is 2: lexicon.console.EXIT_BAD_INPUT, both CLIs' runner


class UsageError(Exception):
    """Bad input the user can fix; printed as one line, exit code 2."""


def add_group(
    sub: argparse._SubParsersAction, name: str, handler, *, help: str, description: str
) -> argparse._SubParsersAction:
    """A command of ACTIONs (`adjudicator keys revoke NAME`): `handler` runs each, reading
    `args.action`. Add the actions to what this returns."""
    p = sub.add_parser(name, help=help, description=description)
    p.set_defaults(handler=handler)
    return p.add_subparsers(dest="action", required=True, metavar="ACTION")


def add_database_option(actions: argparse._SubParsersAction, but: tuple[str, ...] = ()) -> None:
    """`--database-url` on every action of a group but `but`, after its own arguments (so
    that help lists it last)."""
    for name, action in actions.choices.items():
        if name not in but:
            action.add_argument(
                "--database-url",
                help="the store (default: $ADJUDICATOR_DATABASE_URL or adjudicator.db in the "
                "instance folder, $ADJUDICATOR_INSTANCE_DIR)",
            )


def rulesets() -> dict:
    """The rulesets as the service loads them: the bundled files, then
    `$ADJUDICATOR_RULESET_DIR` (with its `lexicons.toml`), checked field by field."""
    from adjudicator.rulesets import load_rulesets

    return load_rulesets(settings.read().ruleset_dir)


@contextmanager
def opened_store(
    args: argparse.Namespace, *, at_head: bool = True, upgrade_sqlite: bool = False
) -> Iterator:
    """The store the service would use, from --database-url, the environment or the default,
    its connections closed at the end. `at_head`: at the newest schema, or a usage error that
    says to run `adjudicator db upgrade`; with `upgrade_sqlite`, an embedded SQLite database is
    first migrated here, as the service does at its start (any other must already be)."""
    from adjudicator.store import open_store

    store = open_store(settings.read(), args.database_url, upgrade=upgrade_sqlite, at_head=at_head)
    try:
        yield store
    finally:
        store.dispose()
