"""The benchmark scripts still run: they are run by hand, not by the suite, so a rename in the
service broke one unnoticed (validation_cost.py imported `labelforms.canonical` long
after PRECIS replaced it). Each script must at least import what it names and parse its
options; the ones that measure in one process, on no server, run one small round."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
SCRIPTS = sorted(p.name for p in BENCHMARKS.glob("[a-z]*.py"))
ONE_ROUND = {
    "validation_cost.py": ["--rounds", "1", "--calls", "2"],
    "compile.py": ["--runs", "1", str(BENCHMARKS.parent / "lexicon_sources" / "wdutch.toml")],
}


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_every_script_is_found():
    assert len(SCRIPTS) >= 10 and set(ONE_ROUND) <= set(SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_a_benchmark_imports_what_it_names_and_reads_its_options(script):
    done = _run(script, "--help")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout


@pytest.mark.parametrize("script", sorted(ONE_ROUND))
def test_a_one_process_benchmark_runs_one_round(script):
    done = _run(script, *ONE_ROUND[script])
    # Exit 1 is a target missed (compile.py's, on a loaded machine): a measurement, not a fault.
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "×" in done.stdout  # the ratio against its baseline
