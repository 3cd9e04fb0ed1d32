"""What the `adjudicator` commands share: exit statuses, the usage error, the store to open.

Its own module, below both the main command line (`adjudicator.cli`) and the accounts'
commands (`adjudicator.cli.accounts`), so neither imports the other's half-built module.
"""

from __future__ import annotations

import argparse

from adjudicator import settings

EXIT_OK = 0


EXIT_DISAGREE = 1


EXIT_BAD_INPUT = 2
ID_MAX = 2**63 - 1  # the stores' ids are 64-bit (PostgreSQL BIGINT, SQLite INTEGER)


class UsageError(Exception):
    """Bad input the user can fix; printed as one line, exit code 2."""


def add_database_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--database-url",
        help="the store (default: $ADJUDICATOR_DATABASE_URL or adjudicator.db in the instance "
        "folder, $ADJUDICATOR_INSTANCE_DIR)",
    )


def open_store(args: argparse.Namespace):
    """The store the service would use, from --database-url, the environment or the default."""
    from adjudicator.store import Store, StoreError, default_url

    found = settings.read()
    url = args.database_url or found.database_url or default_url(found.instance_dir)
    try:
        return Store(url, found.sqlite_synchronous)
    except StoreError as exc:
        raise UsageError(str(exc)) from None
