"""Product code says why in its own words: no "(issue N)" tag, which a reader without the
tracker cannot follow (tests may cite the history they pin)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TAG = re.compile(r"\bissues? \d+(\.\d+| item)?", re.IGNORECASE)
SUFFIXES = {".py", ".js", ".css", ".html", ".toml", ".conf", ".sh", ".service"}


def test_product_code_has_no_issue_tags():
    found = []
    for top in ("adjudicator", "lexicon", "compiler", "deploy", "tools"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in SUFFIXES or "tests" in path.parts or not path.is_file():
                continue
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if TAG.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
