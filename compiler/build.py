"""normalise → filter → trie + manifest, for one recipe."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from tqdm import tqdm

from compiler import artifact
from compiler.bulk import PlainReader
from compiler.recipe import Recipe
from compiler.sources import READERS, Entry, decode
from lexicon import __version__
from lexicon.artifact import FORMAT_NAME, FORMAT_VERSION, IN_FORCE_FROM
from lexicon.errors import LexiconError
from lexicon.languages import LanguageProfile, load_profile
from lexicon.limits import MAX_LETTERS
from lexicon.normalise import CAPITALISED, Normaliser, Rejection, is_folded

PROGRESS_BYTES = 8 << 20  # sources smaller than this compile too fast to need a bar
DELTA_ABSENT = "delta-remove-absent"  # a removal of a word that was not there: a warning


# An entry report's fields are the columns of its TSV (`lexicon rejected`, `lexicon folded`).
# Named tuples, not dataclasses: a big list drops 100,000 entries.
class Rejected(NamedTuple):
    file: str
    line: int
    entry: str
    reason: str  # a reason code, as counted in the manifest
    detail: str = ""  # the character at fault, quoted (`'/'`, `' '`), where there is one


class Folded(NamedTuple):
    """An entry kept as a different word than it spells: a letter folded (café → CAFE) or a
    joiner dropped (auto's → AUTOS)."""

    file: str
    line: int
    entry: str
    word: str


@dataclass
class BuildResult:
    recipe: Recipe
    profile: LanguageProfile
    keys: set[bytes]  # the words, UTF-8 encoded and unordered (the trie sorts them)
    sources: list[dict[str, Any]]
    rejected_counts: Counter
    rejected: list[Rejected] = field(default_factory=list)
    folded: int = 0  # entries kept as a different word than they spell (`Folded`)
    folded_entries: list[Folded] = field(default_factory=list)  # with `keep_rejected`
    needs_blank: int = 0
    # Words that need more blanks than the tile set has: kept, as the source lists them (the
    # federation's list says they are words), but no game can play them; reported and flagged.
    unplayable: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def word_count(self) -> int:
        return len(self.keys)

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
            "word_count": self.word_count,
            "needs_blank": self.needs_blank,
            "unplayable": len(self.unplayable),
            "folded": self.folded,
            "sources": self.sources,
            "rejected": dict(sorted(self.rejected_counts.items())),
            "profile": self.profile.to_dict(),
            # only an edition with a date says so: a build without one is as it always was
            **({IN_FORCE_FROM: r.in_force_from.isoformat()} if r.in_force_from else {}),
            # a house build says so; a tournament build's manifest is unchanged
            **({"filters_off": dict(r.filters_off)} if r.filters_off else {}),
        }


def _read_entries(
    entries: Iterable[Entry],
    entry: Callable[[str], str | Rejection],
    words: set[bytes],
    counts: Counter,
    rejected: list[Rejected] | None,
    file: str,
    tick: Callable[[int], object] | None = None,
    folded: list[Folded] | None = None,
) -> dict[str, int]:
    """The line-by-line reader: every entry in order, `+` adds and `-` removes."""
    read = kept = added = removed = changed = 0
    last_line = 0
    for number, text, op in entries:
        read += 1
        if tick is not None and number - last_line >= 20000:
            tick(number - last_line)
            last_line = number
        result = entry(text)
        if result.__class__ is Rejection:
            counts[result.reason] += 1
            if rejected is not None:
                rejected.append(Rejected(file, number, text, result.reason, result.detail))
            continue
        if is_folded(text, result):
            changed += 1
            if folded is not None:
                folded.append(Folded(file, number, text, result))
        result = result.encode("utf-8")
        if op == "+":
            kept += 1
            if result not in words:
                words.add(result)
                added += 1
        elif result in words:
            kept += 1
            words.remove(result)
            removed += 1
        else:  # removing what is not there: counted apart, neither kept nor applied
            counts[DELTA_ABSENT] += 1
            if rejected is not None:
                rejected.append(Rejected(file, number, text, DELTA_ABSENT))
    return {"entries": read, "kept": kept, "added": added, "removed": removed, "folded": changed}


def compile_recipe(
    recipe: Recipe,
    *,
    keep_rejected: bool = False,
    progress: bool = False,
    count_blanks: bool = True,
) -> BuildResult:
    """Read every source in order and return the final word set and its statistics.

    Plain sources are read by `compiler.bulk` (same result, faster); with `keep_rejected`,
    every entry goes through the line-by-line reader, which reports each by line. Without
    `count_blanks`, `needs_blank` is left for the caller (`build` counts it alongside the trie).
    """
    started = time.perf_counter()
    try:
        profile = load_profile(recipe.language)
    except LookupError as exc:
        raise LexiconError(
            str(exc.args[0]), file=str(recipe.file), line=recipe.language_line
        ) from exc
    if CAPITALISED in dict(recipe.filters_off):  # proper names kept (a house build)
        profile = dataclasses.replace(profile, drop_capitals=False)
    normaliser = Normaliser(profile)
    plain_reader = PlainReader(normaliser) if not keep_rejected else None
    result = BuildResult(recipe, profile, keys=set(), sources=[], rejected_counts=Counter())
    words = result.keys
    for source in recipe.sources:
        if not source.path.is_file():
            raise LexiconError(
                f"source file {source.declared_path!r} not found (looked for {source.path})",
                file=str(recipe.file),
                line=source.line,
            )
        decoded = decode(source.path, source.encoding)
        shown = progress and decoded.size >= PROGRESS_BYTES and sys.stderr.isatty()
        bar = tqdm(
            total=len(decoded.text),
            desc=source.declared_path,
            unit="char",
            unit_scale=True,
            leave=False,
            mininterval=0.2,
            disable=not shown,
        )
        tick = bar.update if shown else None
        with bar:
            if plain_reader is not None and source.format == "plain":
                stats = plain_reader.read(decoded.text, words, result.rejected_counts, tick)
            else:
                entries = READERS[source.format](decoded.text, str(source.path))
                stats = _read_entries(
                    entries,
                    normaliser.entry,
                    words,
                    result.rejected_counts,
                    result.rejected if keep_rejected else None,
                    source.declared_path,
                    tick,
                    result.folded_entries if keep_rejected else None,
                )
        result.folded += stats.pop("folded")
        if source.format != "delta":  # only a delta says what it removed
            stats.pop("removed", None)
        result.sources.append(
            {
                "path": source.declared_path,
                "sha256": decoded.sha256,
                "format": source.format,
                "encoding": source.encoding,
                "decoded_as": decoded.encoding,
                **stats,
            }
        )
    if not words:
        raise LexiconError("the recipe produced no words at all", file=str(recipe.file))
    if count_blanks:
        result.needs_blank, result.unplayable = blank_report(profile, b"\n".join(words))
    result.seconds = time.perf_counter() - started
    return result


def blank_report(profile: LanguageProfile, words: bytes) -> tuple[int, list[str]]:
    """(how many words need a blank, the sorted words that need more than the set has) for
    UTF-8 words one a line. Only the words that need a blank at all are counted one by one."""
    needing = profile.words_needing_blanks_utf8(words, MAX_LETTERS)
    unplayable = sorted(w for w in needing if profile.blanks_needed(w) > profile.blanks)
    return len(needing), unplayable


def _count_aside(profile: LanguageProfile, words: bytes) -> Callable[[], tuple[int, list[str]]]:
    """`blank_report` in a forked child; call the result to collect it.

    Counting and building the trie are a build's two big single-threaded steps, and neither
    needs the other: on two cores they overlap (the service runs where gunicorn does: fork is
    there).
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: count, report, leave without running the parent's exit hooks
        try:
            os.close(read_end)
            answer = json.dumps(blank_report(profile, words))
        except BaseException as exc:  # reported to the parent, which raises it as its own
            answer = f"error: {type(exc).__name__}: {exc}"
        finally:
            data = answer.encode()
            while data:  # a long list of unplayable words is more than one pipe buffer
                data = data[os.write(write_end, data) :]
            os._exit(0)
    os.close(write_end)

    def collect() -> tuple[int, list[str]]:
        with os.fdopen(read_end, "rb") as pipe:
            answer = pipe.read().decode()
        os.waitpid(pid, 0)
        if not answer.startswith("["):
            raise LexiconError(
                f"counting the words that need a blank failed: {answer or 'no answer'}"
            )
        count, unplayable = json.loads(answer)
        return count, unplayable

    return collect


def build(recipe: Recipe, out_dir: Path, *, progress: bool = False) -> tuple[BuildResult, Path]:
    """Compile and write the artifact; `seconds` then covers the whole build, writes included."""
    started = time.perf_counter()
    result = compile_recipe(recipe, progress=progress, count_blanks=False)
    collect = _count_aside(result.profile, b"\n".join(result.keys))
    try:
        image = artifact.trie_image(result.keys)
    finally:
        # always reap the child, even when the trie failed
        result.needs_blank, result.unplayable = collect()
    manifest_path = artifact.write_artifact(out_dir, recipe.id, image, result.manifest())
    result.seconds = time.perf_counter() - started
    return result, manifest_path
