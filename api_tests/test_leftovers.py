"""The suite fails when a test leaves a process behind (testsupport.leftovers), naming it, and
kills it: once, seven gunicorn processes outlived `make test` (test_front.py started a server,
then skipped for want of nginx before its `try`). Checked on a run of its own."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from api_tests.conftest import ROOT

LEAKY = textwrap.dedent(
    """
    import subprocess, sys

    def test_starts_a_server_and_skips():
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)  # LEAKED-MARK"])
    """
)


def _run(tmp_path, source: str, *options: str) -> subprocess.CompletedProcess:
    (tmp_path / "test_leaky.py").write_text(source)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "testsupport.leftovers",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            "-c",
            os.devnull,
            *options,
            str(tmp_path),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=180,
    )


def _still_running(mark: str) -> list[str]:
    out = subprocess.run(["pgrep", "-af", mark], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if "pgrep" not in line]


def test_a_process_left_behind_fails_the_run_and_is_named(tmp_path):
    for options in ((), ("-n", "1")):  # alone, and from a pytest-xdist worker
        done = _run(tmp_path, LEAKY, *options)
        assert done.returncode == 1, done.stdout + done.stderr
        assert "processes the tests left behind" in done.stdout, done.stdout
        assert "LEAKED-MARK" in done.stdout, done.stdout
        assert _still_running("LEAKED-MARK") == []


def test_a_clean_run_passes_and_says_its_time_and_load(tmp_path):
    done = _run(tmp_path, "def test_nothing():\n    pass\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "left behind" not in done.stdout
    assert "suite: 0 min" in done.stdout and "load average" in done.stdout, done.stdout
