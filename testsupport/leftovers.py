"""A pytest plugin (loaded by the root conftest.py): no process may outlive the test run, and
every run ends by saying how long it took and how loaded the machine was.

The run's main process makes itself a child subreaper (Linux `PR_SET_CHILD_SUBREAPER`): a
process a test started and never stopped (a gunicorn, an nginx, a daemonised postgres) is
reparented to it, instead of to init, when its own parent exits, as pytest-xdist's workers do
at the end. So when the session finishes, after every fixture's teardown and every worker's
exit, a child still alive is a leftover: named with its command line, killed, and the run
fails. Without the subreaper (another OS) only direct children are seen.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from pathlib import Path

import pytest

PR_SET_CHILD_SUBREAPER = 36
GRACE = 10.0  # seconds a stopping process may take to go (a gunicorn's graceful stop takes ~1)


def _subreaper() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def _describe(pid: int) -> str:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").strip()
        return f"{pid}: {cmdline.decode(errors='replace')[:200]}"
    except OSError:
        return f"{pid}: (gone)"


def _alive(pid: int) -> bool:
    """Alive and not a zombie; a zombie child is reaped here."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    if state == "Z":
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
        return False
    return True


def leftovers(pid: int, grace: float = GRACE) -> list[int]:
    """The live children of `pid` still there after `grace` seconds."""
    deadline = time.monotonic() + grace
    while True:
        alive = [c for c in _children(pid) if _alive(c)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


def _kill_tree(pid: int) -> None:
    for child in _children(pid):
        _kill_tree(child)
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def _in_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")  # a pytest-xdist worker: its controller checks


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if not _in_worker(config):
        config.stash[_started] = (time.monotonic(), os.getloadavg(), _subreaper())


_started = pytest.StashKey[tuple[float, tuple[float, float, float], bool]]()
_left = pytest.StashKey[list[str]]()


@pytest.hookimpl(trylast=True)  # after pytest-xdist has shut its workers down
def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    if _in_worker(config) or _started not in config.stash:
        return
    found = leftovers(os.getpid())
    config.stash[_left] = [_describe(pid) for pid in found]
    for pid in found:
        _kill_tree(pid)
    if found:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    if _in_worker(config) or _started not in config.stash:
        return
    began, load_before, _ = config.stash[_started]
    if left := config.stash.get(_left, []):
        terminalreporter.write_sep("=", "processes the tests left behind (killed)", red=True)
        for line in left:
            terminalreporter.write_line(line)
    seconds = time.monotonic() - began
    load_after = os.getloadavg()
    terminalreporter.write_line(
        f"suite: {int(seconds // 60)} min {seconds % 60:.0f} s wall on {os.cpu_count()} cores; "
        f"load average {load_before[0]:.1f} at the start, {load_after[0]:.1f} at the end "
        f"(5-minute {load_after[1]:.1f})"
    )
