"""`adjudicator labels collisions`: the stored labels that their PRECIS profiles make one.

A director reads it after the store moved to the PRECIS labels (migration 0012), or at
any time: which spellings in the audit log are one player, table, event, game or round (`Anna`,
`ANNA`; `R3-T12`, `R3‐T12` with U+2010 HYPHEN), which labels hold a character the profiles now
refuse (shown without it), and which jury counts became one. Exit 1 when there is any.
"""

from __future__ import annotations

import argparse

from adjudicator.cli.common import (
    EXIT_DISAGREE,
    EXIT_OK,
    add_database_option,
    add_group,
    opened_store,
)


def add_labels(sub: argparse._SubParsersAction) -> None:
    actions = add_group(
        sub,
        "labels",
        run_labels,
        help="labels the PRECIS profiles make one",
        description="Report on the labels of rulings and jury counts in the store.",
    )
    actions.add_parser(
        "collisions",
        help="list stored labels that are one label under their profile",
        description="List the labels of the audit log's entries and of the jury counts that "
        "their PRECIS profiles make one (two spellings of one name or game, or a label "
        "holding a character the profile refuses, shown without it); exit 1 when there is "
        "any.",
    )
    add_database_option(actions)


def run_labels(args: argparse.Namespace) -> int:
    import sqlalchemy as sa

    from adjudicator.store import labelforms
    from adjudicator.store.models import JuryWords, Ruling

    names = dict(
        zip(labelforms.COLUMNS, ("event", "round", "table", "game", "player"), strict=True)
    )
    with opened_store(args) as store:
        with store.connection() as conn:
            logged = conn.execute(
                sa.select(*(Ruling.__table__.c[c] for c in labelforms.COLUMNS)).distinct()
            ).all()
            counted = conn.execute(
                sa.select(*(JuryWords.__table__.c[c] for c in ("event", "game", "player")))
            ).all()
    in_log = {
        (names[column], label)
        for row in logged
        for column, label in zip(labelforms.COLUMNS, row, strict=True)
        if label
    }
    in_counts = [
        (name, label)
        for row in counted
        for name, label in zip(("event", "game", "player"), row, strict=True)
        if label
    ]
    found = [("log", c) for c in labelforms.collisions(sorted(in_log))]
    found += [("jury count", c) for c in labelforms.collisions(in_counts)]
    for where, collision in found:
        print(f"{where}: {collision}")
    print(f"{len(found)} label(s) made one by their profiles" if found else "no collisions")
    return EXIT_DISAGREE if found else EXIT_OK
