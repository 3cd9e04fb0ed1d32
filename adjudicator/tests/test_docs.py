"""The repository stands alone: its rules document answers every citation of it, and no file
leans on material outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RULES = REPO / "docs" / "rules.md"
SKIP_DIRS = {".git", ".venv", "instance", "build", "test-output", "node_modules", "__pycache__"}
SKIP_DIRS |= {".pytest_cache", ".ruff_cache", ".hypothesis"}
TEXT = {".py", ".md", ".toml", ".json", ".txt", ".cfg", ".ini", ".html", ".js", ".css", ".sh"}

# `docs/rules.md §6`, `docs/rules.md §10–§11`, `[docs/rules.md](docs/rules.md) §6–§12`,
# `docs/rules.md §8, §9`, `[docs/rules.md §2](docs/rules.md#2-tile-sets)`.
CITATION = re.compile(r"docs/rules\.md(?:\]\(docs/rules\.md\))?\s+((?:§[\d.]*\d(?:[–,]\s*)?)+)")
ANCHOR = re.compile(r"docs/rules\.md#([\w-]+)")


def _text_files() -> list[Path]:
    out = []
    for path in REPO.rglob("*"):
        parts = set(path.relative_to(REPO).parts)
        if parts & SKIP_DIRS or any(p.endswith(".egg-info") for p in parts):
            continue
        if path.is_file() and (path.suffix in TEXT or path.name in {"Makefile", "run"}):
            out.append(path)
    return out


def _sections() -> set[str]:
    return set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", RULES.read_text(encoding="utf-8"), re.M))


def _anchors() -> set[str]:
    """GitHub's anchors for the document's headings."""
    headings = re.findall(r"^#{2,3} (.+)$", RULES.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}


def test_the_rules_document_has_the_numbered_sections_it_promises():
    sections = _sections()
    assert {str(n) for n in range(1, 14)} <= sections
    assert {"1.1", "1.2", "1.3", "2.1", "2.5", "4.3", "6.3"} <= sections


def test_every_citation_of_the_rules_document_names_a_section_it_has():
    sections, anchors = _sections(), _anchors()
    cited = 0
    for path in _text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for run in CITATION.findall(text):
            for number in re.findall(r"§([\d.]*\d)", run):
                cited += 1
                assert number in sections, f"{path.relative_to(REPO)} cites §{number}"
        for anchor in ANCHOR.findall(text):
            assert anchor in anchors, f"{path.relative_to(REPO)} links #{anchor}"
    assert cited > 20  # the code and tests do cite it


def test_no_file_refers_to_material_beside_the_repository():
    beside = "../" + "shared"
    for path in _text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        assert beside not in text, path.relative_to(REPO)
        assert "/work/" + "shared" not in text, path.relative_to(REPO)


def test_rules_are_cited_from_the_documents_own_home():
    """The old digest outside the repository is gone: cite docs/rules.md instead."""
    old = re.compile(r"(?<![\w/])" + "RULES" + r"\.md")
    for path in _text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        assert not old.search(text), (
            f"{path.relative_to(REPO)} cites the old digest, not docs/rules.md"
        )


def test_the_first_plays_two_letters_are_not_cited_to_dsf_3_3d():
    """DSF 2015 §3.3d says only that the first word covers the centre square ("så et af
    bogstaverne rammer det midterste felt"); the two letters are SBNL's ("Verloop van het spel":
    "twee of meer letters"). docs/rules.md §5 cites each claim to its own source."""
    text = RULES.read_text("utf-8")
    bullet = re.search(r"^- The first play covers.*?(?=^- )", text, re.S | re.M).group(0)
    bullet = " ".join(bullet.split())
    centre, letters = bullet.split(" and has at least two letters ", 1)
    assert "§3.3d" in centre
    cited = letters.split(")", 1)[0]
    assert cited.startswith('(SBNL Puntenscrabble, "Verloop van het spel"'), cited
    assert "§3.3d asks only that the centre square be covered" in letters
