"""tools/debian-packages, which `make test` and CI run first: it once gave up at once when
another apt held the lock (unattended-upgrades, a second `make test`), and the tests that need
Chromium, PostgreSQL or nginx then failed in CI. It now waits for the lock, saying so, up to
ADJUDICATOR_APT_WAIT seconds. Run here against a stand-in `apt-get` on PATH that reports the
lock held for its first calls, as apt does, so the machine's packages are never touched."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

from api_tests.conftest import ROOT

SCRIPT = ROOT / "tools" / "debian-packages"


def _stand_ins(folder: Path, held_for: int) -> Path:
    """`apt-get` that says the lock is held for its first `held_for` calls, then succeeds and
    logs its arguments; `id` that says root."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    calls = folder / "calls"
    (bin_dir / "apt-get").write_text(
        "#!/bin/sh\n"
        f'n=$(cat "{calls}" 2>/dev/null | wc -l)\n'
        f'echo "$*" >> "{calls}"\n'
        f'if [ "$n" -lt {held_for} ]; then\n'
        '  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2\n'
        "  exit 100\n"
        "fi\n"
        'echo "stand-in apt-get: $*"\n'
    )
    (bin_dir / "id").write_text("#!/bin/sh\necho 0\n")
    for tool in ("apt-get", "id"):
        (bin_dir / tool).chmod(stat.S_IRWXU)
    return bin_dir


def _run(folder: Path, wait: int) -> subprocess.CompletedProcess:
    bin_dir = _stand_ins(folder, held_for=2)
    return subprocess.run(
        [str(SCRIPT), "no-such-package=/nonexistent/file"],
        env={
            **os.environ,
            "PATH": f"{bin_dir}:{os.environ['PATH']}",
            "ADJUDICATOR_APT_WAIT": str(wait),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_held_apt_lock_is_waited_for_and_said(tmp_path):
    done = _run(tmp_path, wait=60)
    assert done.returncode == 0, done.stderr
    assert "another process holds apt's lock (held by process 4242 (apt-get))" in done.stderr
    calls = (tmp_path / "calls").read_text().splitlines()
    assert [c.split()[0] for c in calls] == ["update", "update", "update", "install"], calls
    assert "could not install" not in done.stderr


def test_a_lock_held_past_the_limit_gives_up_with_advice(tmp_path):
    done = _run(tmp_path, wait=0)
    assert done.returncode == 0  # the tests then skip with the same advice (or fail in CI)
    assert "apt's lock was still held" in done.stderr, done.stderr
    assert "apt-get install no-such-package" in done.stderr
