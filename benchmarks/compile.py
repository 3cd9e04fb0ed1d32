"""Compile every bundled lexicon and compare with what no compiler can avoid.

For each recipe in `lexicon_sources/` this prints:

- entries read and words kept, the best-of-N end-to-end build time (read, decompress, decode,
  normalise, filter, count, build the trie, write both files) and the peak Python memory of one
  build (tracemalloc, measured in a separate run so it does not slow the timed ones);
- the artifact size (.marisa + .json);
- time ratio: the build time over a baseline measured in the same run: read and decompress the
  same source files, decode them, split the lines and build a marisa-trie (`marisa_trie.Trie`,
  default settings) from the raw lines, with no normalisation. The two alternate, and the
  ratio is the median of the ratios within each back-to-back pair (the machine drifts);
- size ratio: the artifact size over `xz -9` of the sorted final word list, one word a line.

Usage: `.venv/bin/python benchmarks/compile.py [--runs N] [RECIPE...]`
"""

from __future__ import annotations

import argparse
import lzma
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from importlib.metadata import version
from pathlib import Path

import marisa_trie

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler.build import build  # noqa: E402
from compiler.recipe import Recipe, load_recipe  # noqa: E402
from compiler.sources import decode  # noqa: E402

TARGETS = {"wdutch": {"seconds": 1.5, "time_ratio": 2.0, "size_ratio": 1.1}}


def baseline(recipe: Recipe) -> float:
    """Read + decode + split + trie of the raw lines: the floor a compiler cannot go below."""
    started = time.perf_counter()
    lines: list[str] = []
    for source in recipe.sources:
        lines += decode(source.path, source.encoding).text.splitlines()
    marisa_trie.Trie(lines).tobytes()
    return time.perf_counter() - started


def xz9(data: bytes) -> int:
    if shutil.which("xz"):
        return len(
            subprocess.run(["xz", "-9", "-c"], input=data, capture_output=True, check=True).stdout
        )
    return len(lzma.compress(data, preset=9))


def measure(recipe: Recipe, out: Path, runs: int) -> dict:
    build_times, base_times = [], []
    for _ in range(runs):  # interleaved, so both see the same machine
        base_times.append(baseline(recipe))
        started = time.perf_counter()
        result, manifest_path = build(recipe, out)
        build_times.append(time.perf_counter() - started)
    tracemalloc.start()
    build(recipe, out)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    trie_path = manifest_path.with_suffix(".marisa")
    size = trie_path.stat().st_size + manifest_path.stat().st_size
    word_list = b"".join(k + b"\n" for k in sorted(result.keys))  # UTF-8 sorts as the text
    xz = xz9(word_list)
    return {
        "id": recipe.id,
        "entries": sum(s["entries"] for s in result.sources),
        "words": result.word_count,
        "seconds": min(build_times),
        "baseline": min(base_times),
        # The VM drifts between runs; a ratio within each back-to-back pair, then the median.
        "ratio": statistics.median(b / a for a, b in zip(base_times, build_times, strict=True)),
        "peak_mib": peak / (1 << 20),
        "marisa": trie_path.stat().st_size,
        "size": size,
        "xz": xz,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("recipes", nargs="*", help="default: every lexicon_sources/*.toml")
    p.add_argument("--runs", type=int, default=9, help="timed pairs of runs per lexicon")
    args = p.parse_args(argv)
    paths = args.recipes or sorted(str(p) for p in (ROOT / "lexicon_sources").glob("*.toml"))
    print(
        f"# {platform.python_implementation()} {platform.python_version()}, "
        f"marisa-trie {version('marisa-trie')}, {os.cpu_count()} CPUs, {args.runs} alternating pairs of runs (seconds: best; time ×: median pair ratio)"
    )
    head = (
        f"{'lexicon':24} {'entries':>8} {'words':>8} {'seconds':>8} {'baseline':>8} "
        f"{'peak MiB':>8} {'artifact':>9} {'xz -9':>9} {'time ×':>7} {'size ×':>7}"
    )
    print(head)
    failures = []
    with tempfile.TemporaryDirectory(prefix="lexicon-bench-") as tmp:
        for path in paths:
            recipe = load_recipe(path)
            m = measure(recipe, Path(tmp), args.runs)
            time_ratio = m["ratio"]
            size_ratio = m["size"] / m["xz"]
            print(
                f"{m['id']:24} {m['entries']:>8} {m['words']:>8} {m['seconds']:>8.3f} "
                f"{m['baseline']:>8.3f} {m['peak_mib']:>8.1f} {m['size']:>9} {m['xz']:>9} "
                f"{time_ratio:>7.2f} {size_ratio:>7.3f}"
            )
            target = TARGETS.get(m["id"])
            if target:
                for name, value, limit in (
                    ("seconds", m["seconds"], target["seconds"]),
                    ("time ratio", time_ratio, target["time_ratio"]),
                    ("size ratio", size_ratio, target["size_ratio"]),
                ):
                    if value > limit:
                        failures.append(f"{m['id']}: {name} {value:.3f} > target {limit}")
    targets = ", ".join(
        f"{k}: < {t['seconds']} s, time × ≤ {t['time_ratio']}, size × ≤ {t['size_ratio']}"
        for k, t in TARGETS.items()
    )
    print(f"# targets ({targets}): " + ("all met" if not failures else "; ".join(failures)))
    print(
        "# artifact = .marisa + .json; time × = build / baseline within each pair, median; size × = artifact / xz -9"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
