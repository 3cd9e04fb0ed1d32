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

    from adjudicator.audit.labels import FIELDS
    from adjudicator.store import labelforms
    from adjudicator.store.models import JuryWords, Ruling

    with opened_store(args) as store, store.connection() as conn:
        logged = conn.execute(
            sa.select(*(Ruling.__table__.c[c] for c in labelforms.COLUMNS)).distinct()
        ).all()
        counts = sa.select(JuryWords.event, JuryWords.game, JuryWords.player)
        counted = conn.execute(counts).mappings().all()
    # (field, label) pairs: each label of the log once, every label of a count
    in_log = {pair for row in logged for pair in zip(FIELDS, row, strict=True) if pair[1]}
    in_counts = [pair for row in counted for pair in row.items() if pair[1]]
    found = [("log", c) for c in labelforms.collisions(sorted(in_log))]
    found += [("jury count", c) for c in labelforms.collisions(in_counts)]
    for where, collision in found:
        print(f"{where}: {collision}")
    print(f"{len(found)} label(s) made one by their profiles" if found else "no collisions")
    return EXIT_DISAGREE if found else EXIT_OK
