"""The documentation site reads as one: every page is in the nav (and so on the home page,
generated from it), headings go down one level at a time, "below"/"above" point into the same
page, a newcomer can finish a tutorial or how-to page (length, sentence length), and each thing
is said once (no paragraph stands on two pages)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
MAX_PAGE_WORDS = 2000  # a tutorial or how-to page: about ten minutes' reading
MAX_SENTENCE_WORDS = 90
SHARED_PARAGRAPH_WORDS = 25  # a paragraph this long stands on one page only


def _nav_paths(node) -> set[str]:
    if isinstance(node, str):
        return {node}
    if isinstance(node, list):
        return set().union(*(_nav_paths(n) for n in node))
    if isinstance(node, dict):
        return set().union(*(_nav_paths(v) for v in node.values()))
    return set()


def _prose(text: str) -> str:
    """The page without code blocks, comments, tables and the generated markers."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("|"))


def _id(page: Path) -> str:
    return str(page.relative_to(DOCS))


def test_every_page_is_in_the_nav():
    config = yaml.load((REPO / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    assert {_id(p) for p in PAGES} == _nav_paths(config["nav"])


def test_the_readme_links_every_page_but_the_home():
    """A newcomer starts at the README: its documentation list names every page of the site
    (the home page lists them too, generated from the nav), so a page added is not left out."""
    readme = (REPO / "README.md").read_text("utf-8")
    linked = set(re.findall(r"\]\(docs/([^)#]+\.md)", readme))
    assert {_id(p) for p in PAGES} - {"index.md"} - linked == set()


@pytest.mark.parametrize("page", PAGES, ids=_id)
def test_headings_go_down_one_level_at_a_time(page):
    levels = [len(h) for h in re.findall(r"^(#+) ", _prose(page.read_text("utf-8")), re.M)]
    assert levels and levels[0] == 1 and levels.count(1) == 1, levels
    jumps = [(a, b) for a, b in zip(levels, levels[1:], strict=False) if b > a + 1]
    assert jumps == [], f"{_id(page)}: a heading skips a level: {jumps}"


@pytest.mark.parametrize("page", PAGES, ids=_id)
def test_below_and_above_point_into_the_same_page(page):
    text = page.read_text("utf-8")
    for words, target in re.findall(r"\[([^\]]*)\]\(([^)]*)\)", text):
        if re.search(r"\b(below|above)\b", words, re.I):
            assert target.startswith("#"), f"{_id(page)}: [{words}]({target}) leaves the page"


def _sentences(prose: str) -> list[str]:
    flat = re.sub(r"\n\s*(?:[-*]|\d+\.)\s+", "\n\n", prose)  # a list item starts anew
    found = []
    for paragraph in re.split(r"\n\s*\n|\n#+ ", flat):
        found += re.split(r"(?<=[.!?:;])\s+", re.sub(r"\s+", " ", paragraph))
    return found


@pytest.mark.parametrize(
    "page", [p for p in PAGES if p.parent.name in ("tutorial", "how-to")], ids=_id
)
def test_a_newcomer_can_finish_the_page(page):
    prose = _prose(page.read_text("utf-8"))
    assert len(re.findall(r"\w+", prose)) <= MAX_PAGE_WORDS, f"{_id(page)}: split it"
    long = [s[:80] for s in _sentences(prose) if len(re.findall(r"\w+", s)) > MAX_SENTENCE_WORDS]
    assert long == [], f"{_id(page)}: sentences over {MAX_SENTENCE_WORDS} words"


def test_each_paragraph_stands_on_one_page():
    seen: dict[str, str] = {}
    repeated = []
    for page in PAGES:
        for paragraph in re.split(r"\n\s*\n", _prose(page.read_text("utf-8"))):
            key = " ".join(re.findall(r"\w+", paragraph.lower()))
            if len(key.split()) < SHARED_PARAGRAPH_WORDS:
                continue
            if key in seen and seen[key] != _id(page):
                repeated.append((seen[key], _id(page), paragraph[:60]))
            seen.setdefault(key, _id(page))
    assert repeated == []
