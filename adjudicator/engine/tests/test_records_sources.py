"""The public records carry their origin and licence: SOURCES.md names every one, and no other."""

from __future__ import annotations

import re

from adjudicator.engine.tests.corpus import RECORDS, gcg_files

SOURCES = RECORDS / "SOURCES.md"


def _tables() -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """(repository → licence, record → (repository, licence)) read from SOURCES.md."""
    text = SOURCES.read_text(encoding="utf-8")
    licences = dict(re.findall(r"^\| [^|`]+ \| `([\w.-]+/[\w.-]+)` \| ([^|]+?) \|", text, re.M))
    records = {
        name: (repo, licence.strip())
        for name, repo, licence in re.findall(
            r"^\| `([^`]+\.gcg)` \| `([\w.-]+/[\w.-]+):[^`]+` \| ([^|]+)\|", text, re.M
        )
    }
    return licences, records


def test_every_record_has_a_source_and_nothing_else_is_listed():
    _, records = _tables()
    assert set(records) == {p.name for p in gcg_files()}


def test_each_record_has_its_repositorys_licence():
    licences, records = _tables()
    assert set(licences) == {"domino14/macondo", "quackle/quackle", "woogles-io/liwords"}
    for name, (repo, licence) in records.items():
        assert licences[repo].startswith(licence), (name, repo, licence)
