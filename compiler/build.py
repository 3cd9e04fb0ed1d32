"""normalise → filter → trie + manifest, for one recipe."""

from __future__ import annotations

import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from compiler import __version__
from compiler.artifact import FORMAT_NAME, FORMAT_VERSION, write_artifact
from compiler.errors import CompileError
from compiler.languages import LanguageProfile, load_profile
from compiler.normalise import Normaliser, Rejection
from compiler.recipe import Recipe
from compiler.sources import READERS, decode

PROGRESS_BYTES = 8 << 20  # sources smaller than this compile too fast to need a bar
DELTA_ABSENT = "delta-remove-absent"  # a removal of a word that was not there: a warning


@dataclass
class Rejected:
    file: str
    line: int
    entry: str
    reason: str


@dataclass
class BuildResult:
    recipe: Recipe
    profile: LanguageProfile
    words: list[str]
    sources: list[dict[str, Any]]
    rejected_counts: Counter
    rejected: list[Rejected] = field(default_factory=list)
    needs_blank: int = 0
    seconds: float = 0.0

    def manifest(self) -> dict[str, Any]:
        r = self.recipe
        return {
            "format": FORMAT_NAME,
            "format_version": FORMAT_VERSION,
            "id": r.id,
            "language": r.language,
            "title": r.title,
            "version": r.version,
            "license": r.license,
            "stand_in": r.stand_in,
            "description": r.description,
            "compiler": {"name": "scrabble-adjudicator lexicon", "version": __version__},
            "word_count": len(self.words),
            "needs_blank": self.needs_blank,
            "sources": self.sources,
            "rejected": dict(sorted(self.rejected_counts.items())),
            "profile": self.profile.to_dict(),
        }


def compile_recipe(recipe: Recipe, *, keep_rejected: bool = False, progress: bool = False) -> BuildResult:
    """Read every source in order and return the final sorted word list and its statistics."""
    started = time.perf_counter()
    try:
        profile = load_profile(recipe.language)
    except LookupError as exc:
        raise CompileError(str(exc.args[0]), file=str(recipe.file))
    normaliser = Normaliser(profile)
    entry = normaliser.entry
    words: set[str] = set()
    counts: Counter = Counter()
    rejected: list[Rejected] = []
    source_reports = []
    for source in recipe.sources:
        file = str(source.path)
        decoded = decode(source.path, source.encoding)
        read = kept = added = removed = 0
        entries = READERS[source.format](decoded.text, file)
        bar = None
        if progress and decoded.size >= PROGRESS_BYTES and sys.stderr.isatty():
            bar = tqdm(total=decoded.text.count("\n"), desc=source.declared_path, unit=" lines",
                       leave=False, mininterval=0.2)
        last_line = 0
        for number, text, op in entries:
            read += 1
            if bar is not None and number - last_line >= 20000:
                bar.update(number - last_line)
                last_line = number
            result = entry(text)
            if result.__class__ is Rejection:
                counts[result.reason] += 1
                if keep_rejected:
                    rejected.append(Rejected(source.declared_path, number, text, str(result)))
                continue
            kept += 1
            if op == "+":
                if result not in words:
                    words.add(result)
                    added += 1
            elif result in words:
                words.remove(result)
                removed += 1
            else:
                counts[DELTA_ABSENT] += 1
                if keep_rejected:
                    rejected.append(Rejected(source.declared_path, number, text, DELTA_ABSENT))
        if bar is not None:
            bar.close()
        report = {
            "path": source.declared_path,
            "sha256": decoded.sha256,
            "format": source.format,
            "encoding": source.encoding,
            "decoded_as": decoded.encoding,
            "entries": read,
            "kept": kept,
            "added": added,
        }
        if source.format == "delta":
            report["removed"] = removed
        source_reports.append(report)
    if not words:
        raise CompileError("the recipe produced no words at all", file=str(recipe.file))
    final = sorted(words)
    needs_blank = sum(1 for w in final if profile.blanks_needed(w))
    return BuildResult(
        recipe=recipe,
        profile=profile,
        words=final,
        sources=source_reports,
        rejected_counts=counts,
        rejected=rejected,
        needs_blank=needs_blank,
        seconds=time.perf_counter() - started,
    )


def build(recipe: Recipe, out_dir: Path, *, progress: bool = False) -> tuple[BuildResult, Path]:
    """Compile and write the artifact; `seconds` then covers the whole build, writes included."""
    started = time.perf_counter()
    result = compile_recipe(recipe, progress=progress)
    manifest_path = write_artifact(out_dir, recipe.id, result.words, result.manifest())
    result.seconds = time.perf_counter() - started
    return result, manifest_path
