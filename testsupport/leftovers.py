"""A pytest plugin (loaded by the root conftest.py): no process may outlive the test run, and
every run ends by saying how long it took and how loaded the machine was.

When a test process's session finishes (a pytest-xdist worker's, or the only one's), after
every fixture's teardown, a child process of it still alive is a leftover: a gunicorn, an
nginx or a browser a test started and never stopped. Each is named with its command line and
killed, and the run fails: a worker hands its list to the controller (`workeroutput`), which
reports them all. Processes that daemonised themselves (pg_ctl's postmaster) are not children
and are not seen; the clusters' fixtures stop them. (A child subreaper would adopt those too,
but then it must reap them at once, or a killed postmaster stays a zombie whose pid keeps its
lock file "in use" and the cluster cannot start again.)
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

GRACE = 10.0  # seconds a stopping process may take to go (a gunicorn's graceful stop takes ~1)


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
    return hasattr(config, "workerinput")  # a pytest-xdist worker: its controller reports


_started = pytest.StashKey[tuple[float, tuple[float, float, float]]]()
_left = pytest.StashKey[list[str]]()


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    config.stash[_left] = []
    if not _in_worker(config):
        config.stash[_started] = (time.monotonic(), os.getloadavg())


@pytest.hookimpl(trylast=True)  # after every fixture's teardown (and xdist's workers' exit)
def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    # a pytest-xdist controller's children are its workers, which check their own
    controller = config.pluginmanager.has_plugin("dsession")
    found = [] if controller else leftovers(os.getpid())
    described = [_describe(pid) for pid in found]
    for pid in found:
        _kill_tree(pid)
    if _in_worker(config):
        config.workeroutput["leftovers"] = described  # type: ignore[attr-defined]
        return
    config.stash[_left] = config.stash.get(_left, []) + described
    if config.stash[_left]:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """In the controller: a worker's leftovers, as it reported them."""
    left = getattr(node, "workeroutput", {}).get("leftovers", [])
    node.config.stash[_left] = node.config.stash.get(_left, []) + list(left)


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    if _in_worker(config) or _started not in config.stash:
        return
    began, load_before = config.stash[_started]
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
