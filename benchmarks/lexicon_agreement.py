"""How close an open English word list comes to the official ones, by their two-letter words.

NWL and CSW are licensed and cannot be shipped, but their two-letter words are published
(`benchmarks/data/two-letter-words.toml`, with their source). They are the words a game
turns on most (every parallel play forms some), and the ones a general dictionary gets
wrong most often (QI, ZA, XU are no dictionary's words; AB, ED, ER are abbreviations there).

Each list is read as the compiler reads it, through the English normaliser (capitalised
entries dropped, accents folded, 2–15 letters), and its two-letter words are compared with
each official list:

- found: official two-letter words the list has (of 107 for NWL, 127 for CSW);
- extra: two-letter words the list has that the official list does not;
- agreement: found / (official + extra), the share of the union both agree on (1.00 is the
  same list).

A list is a recipe (`lexicon_sources/*.toml`, compiled as `lexicon build` would), a compiled
manifest (`.json` with a `.marisa` beside it), a JSON array of words (as npm packages ship
them), or a plain word list, one word a line, optionally `.xz` or `.gz` compressed.

Usage: `.venv/bin/python benchmarks/lexicon_agreement.py [LIST...]` (default: the bundled
English recipes). The latest output is in `benchmarks/lexicon_agreement.out.txt`.
"""

from __future__ import annotations

import argparse
import gzip
import json
import lzma
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from compiler.build import compile_recipe  # noqa: E402
from compiler.recipe import load_recipe  # noqa: E402
from lexicon import artifact  # noqa: E402
from lexicon.errors import LexiconError  # noqa: E402
from lexicon.languages import load_profile  # noqa: E402
from lexicon.normalise import Normaliser, Rejection  # noqa: E402

OFFICIAL = ROOT / "benchmarks" / "data" / "two-letter-words.toml"


def official_lists(path: Path = OFFICIAL) -> dict[str, set[str]]:
    """{"NWL": {...}, "CSW": {...}} from the data file."""
    data = tomllib.loads(path.read_text("utf-8"))
    return {key.upper(): set(table["words"].split()) for key, table in data.items()}


def _lines(path: Path) -> Iterable[str]:
    raw = path.read_bytes()
    if path.suffix == ".xz":
        raw = lzma.decompress(raw)
    elif path.suffix == ".gz":
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8", errors="replace")
    if path.suffix == ".json" or path.name.endswith(".json.gz"):
        yield from json.loads(text)
        return
    for line in text.splitlines():
        yield line.split("#", 1)[0].strip()


def normalised(entries: Iterable[str]) -> set[str]:
    """The words the English normaliser makes of `entries`, as a build of them would hold."""
    normaliser = Normaliser(load_profile("en"))
    words = set()
    for entry in entries:
        if entry:
            word = normaliser.entry(entry)
            if not isinstance(word, Rejection):
                words.add(word)
    return words


def read_list(path: Path) -> set[str]:
    """The words of a recipe, manifest, JSON array or plain list (module docstring)."""
    if path.suffix == ".toml":
        return {key.decode("utf-8") for key in compile_recipe(load_recipe(path)).keys}
    if path.suffix == ".json":
        data = json.loads(path.read_text("utf-8"))
        if isinstance(data, dict):
            return set(artifact.load(path).words())
        return normalised(data)
    return normalised(_lines(path))


def compare(words: set[str], official: set[str]) -> tuple[int, int, float, list[str], list[str]]:
    """(found, extra, agreement, missing words, extra words) of `words`' two-letter words."""
    twos = {w for w in words if len(w) == 2}
    found, missing, extra = twos & official, sorted(official - twos), sorted(twos - official)
    return len(found), len(extra), len(found) / len(official | twos), missing, extra


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lists", nargs="*", type=Path, metavar="LIST")
    ap.add_argument("--names", help="comma-separated names for the lists, in order")
    ap.add_argument("--details", action="store_true", help="name the missing and extra words")
    args = ap.parse_args(argv)
    lists = args.lists or [
        p
        for p in sorted((ROOT / "lexicon_sources").glob("*.toml"))
        if tomllib.loads(p.read_text("utf-8")).get("language") == "en"
    ]
    names = args.names.split(",") if args.names else [p.name for p in lists]
    official = official_lists()
    head = ["list", "words", "twos"]
    for key, words in official.items():
        head += [f"{key} found/{len(words)}", f"{key} extra", f"{key} agree"]
    rows, details = [head], []
    for name, path in zip(names, lists, strict=True):
        try:
            words = read_list(path)
        except (OSError, ValueError, LexiconError) as exc:  # a missing file, bad JSON or recipe
            print(f"lexicon_agreement: error: {path}: {exc}", file=sys.stderr)
            return 2
        row = [name, str(len(words)), str(sum(1 for w in words if len(w) == 2))]
        for key, expected in official.items():
            found, extra, agree, missing, extra_words = compare(words, expected)
            row += [str(found), str(extra), f"{agree:.2f}"]
            details.append(f"{name} vs {key}: missing {' '.join(missing) or '-'}")
            details.append(f"{name} vs {key}: extra {' '.join(extra_words) or '-'}")
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for row in rows:
        print(
            "  ".join(
                [row[0].ljust(widths[0])]
                + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
            )
        )
    if args.details:
        print()
        print("\n".join(details))
    return 0


if __name__ == "__main__":
    sys.exit(main())
