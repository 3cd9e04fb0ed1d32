"""Golden files: the `adjudicator replay` output (text, JSON, and the scores-only text) of every
record and every hand-made game, under the ruleset RECORDS.md maps it to.

They were written before the game layer's walk was rewritten, so a change of output is seen
here; a rule fix that changes one names the difference in its commit. Rewrite them with
`GOLDEN_UPDATE=1 .venv/bin/pytest adjudicator/game/tests/test_golden.py` and read the diff.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from adjudicator.cli import main
from adjudicator.engine.tests.corpus import RECORDS, REPO

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
HANDMADE = HERE / "records"
TABLE = HERE.parent / "RECORDS.md"
UPDATE = bool(os.environ.get("GOLDEN_UPDATE"))
LEXICONS = os.environ.get("ADJUDICATOR_LEXICON_DIR") or str(REPO / "instance" / "lexicons")


def cases() -> list[tuple[Path, str]]:
    """(record, ruleset id or "—" for a refused record)."""
    rows = re.findall(r"^\| `([^`]+\.gcg)` \|[^|]*\| (`[^`]+`|—) \|", TABLE.read_text(), re.M)
    found = [(RECORDS / name, ruleset.strip("`")) for name, ruleset in rows]
    for path in sorted(HANDMADE.glob("*.gcg")):  # each #title says "… under RULESET"
        found.append((path, re.search(r"^#title .* under (\S+)", path.read_text("utf-8"), re.M)[1]))
    return found


def run(argv: list[str], capsys) -> str:
    code = main(argv)
    out = capsys.readouterr()
    return f"exit {code}\n--- stdout\n{out.out}--- stderr\n{out.err}"


@pytest.mark.parametrize(
    "path, ruleset", cases(), ids=lambda x: x.name if isinstance(x, Path) else x
)
@pytest.mark.parametrize("mode", ["text", "json", "scores"])
def test_output_matches_golden(path, ruleset, mode, capsys, monkeypatch):
    assert path.exists(), f"{path} is missing (records/SOURCES.md)"
    monkeypatch.chdir(path.parent)  # the report names the file as given: its bare name
    argv = ["replay", path.name, "--no-lexicon", "--lexicon-dir", LEXICONS]
    argv += ["--ruleset", ruleset if ruleset != "—" else "naspa"]
    argv += {"text": [], "json": ["--json"], "scores": ["--no-rules"]}[mode]
    got = run(argv, capsys)
    golden = GOLDEN / f"{path.stem}.{mode}"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(got, encoding="utf-8")
    assert got == golden.read_text(encoding="utf-8")
