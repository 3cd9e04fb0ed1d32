"""gunicorn's hooks in adjudicator/process/gunicorn_conf.py, called as gunicorn's master calls them."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector

from adjudicator import rundir

# A worker's metrics, as prometheus_client's multiprocess mode writes them: one file per process
# and kind, named with the pid (counter_<pid>.db, gauge_livesum_<pid>.db).
WORKER = """
from prometheus_client import Counter, Gauge
Counter("adjudicator_test_rulings", "rulings").inc(3)
Gauge("adjudicator_test_in_flight", "in flight", multiprocess_mode="livesum").set(2)
"""


@pytest.fixture
def conf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    return _settings_module(tmp_path, monkeypatch)


def _settings_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """A private copy of the settings module on temporary run and metrics directories.

    Importing it sets environment variables and makes folders, so it is never imported for the
    whole session: monkeypatch puts the environment back, and the copy stays out of sys.modules.
    """
    metrics = tmp_path / f"adjudicator-metrics-{os.getpid()}-test"  # this "master's"
    metrics.mkdir(exist_ok=True)
    monkeypatch.setenv("ADJUDICATOR_RUN_DIR", str(tmp_path / "run"))
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(metrics))
    spec = importlib.util.find_spec("adjudicator.process.gunicorn_conf")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.metrics_dir == str(metrics)
    return module


def scraped(metrics_dir: str) -> dict[str, float]:
    """What /metrics would count from the directory under gunicorn."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=metrics_dir)
    return {s.name: s.value for family in registry.collect() for s in family.samples}


def test_child_exit_drops_a_dead_workers_live_gauges_and_keeps_its_counts(
    conf: ModuleType,
) -> None:
    """A worker that died (no clean-exit mark) must stop adding to live gauges such as requests
    in flight, while what it counted still counts; the master also records the death."""
    worker = subprocess.Popen([sys.executable, "-c", WORKER])  # inherits the metrics directory
    assert worker.wait(timeout=30) == 0
    files = sorted(os.listdir(conf.metrics_dir))
    assert files == [f"counter_{worker.pid}.db", f"gauge_livesum_{worker.pid}.db"]
    before = scraped(conf.metrics_dir)
    assert before["adjudicator_test_in_flight"] == 2
    assert before["adjudicator_test_rulings_total"] == 3

    conf.child_exit(SimpleNamespace(), SimpleNamespace(pid=worker.pid))  # (server, worker)

    assert os.listdir(conf.metrics_dir) == [f"counter_{worker.pid}.db"]
    after = scraped(conf.metrics_dir)
    assert "adjudicator_test_in_flight" not in after
    assert after["adjudicator_test_rulings_total"] == 3
    assert rundir.abnormal_exits(conf.run_dir, window=60) == 1


# As gunicorn's master forks a worker: its own handlers (which only queue a signal) in place,
# `pre_fork`, the fork; in the child, the master's SIGQUIT arrives before the worker has set its
# handlers, then the worker sets them (`init_signals`) and would serve. Exit 3: it stopped.
FORK = """
import os, signal, sys, time
from types import SimpleNamespace
from gunicorn.config import Config
from adjudicator.process import gunicorn_conf
from adjudicator.process.gunicorn_worker import {cls}

queued = []
for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
    signal.signal(sig, lambda s, f: queued.append(s))  # gunicorn's Arbiter.signal
worker = {cls}(1, os.getpid(), [], None, 30, Config(), SimpleNamespace(info=print))
gunicorn_conf.pre_fork(SimpleNamespace(), worker)
pid = os.fork()
if pid == 0:
    try:
        os.kill(os.getpid(), signal.SIGQUIT)
        time.sleep(0.05)
        worker.tpool = SimpleNamespace(shutdown=lambda wait: None)
        worker.PIPE = os.pipe()
        os.set_blocking(worker.PIPE[1], False)
        worker.init_signals()
        time.sleep(2)  # serving
    except SystemExit:
        os._exit(3)
    os._exit(0)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status), sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])))
"""


@pytest.mark.parametrize("cls", ["OneWriteThreadWorker", "OneWriteSyncWorker"])
def test_a_stop_signal_before_the_workers_handlers_still_stops_it(tmp_path: Path, cls: str) -> None:
    """Ctrl-C just after start: the master's SIGQUIT can reach a worker between the fork and its
    `init_signals`, where the master's handler only queued it in the worker's copy of the queue.
    The worker then served on until the SIGKILL at `graceful_timeout` ("Perhaps out of
    memory?"). Held across the fork, the signal now stops it; the master blocks nothing after."""
    env = {**os.environ, "ADJUDICATOR_RUN_DIR": str(tmp_path / "run"), "TMPDIR": str(tmp_path)}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)  # its own, made in TMPDIR
    done = subprocess.run(
        [sys.executable, "-c", FORK.format(cls=cls)],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "3 []", done.stderr


# --- the access log (issue 30) ----------------------------------------------------------------


def test_the_access_log_is_off_by_default(conf_with, tmp_path) -> None:
    """nginx in front logs every request; gunicorn's own line costs 60-110 µs of a worker."""
    assert conf_with().accesslog is None
    assert conf_with(ADJUDICATOR_ACCESS_LOG="off").accesslog is None
    assert conf_with(ADJUDICATOR_ACCESS_LOG="-").accesslog == "-"
    path = str(tmp_path / "access.log")
    assert conf_with(ADJUDICATOR_ACCESS_LOG=path).accesslog == path


def test_an_access_log_in_no_directory_stops_the_start(conf_with, tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        conf_with(ADJUDICATOR_ACCESS_LOG=str(tmp_path / "missing" / "access.log"))
    assert stopped.value.code == 2
    assert "ADJUDICATOR_ACCESS_LOG" in capsys.readouterr().err


@pytest.fixture
def conf_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The settings module as read with these environment variables (else as `conf`)."""

    def load(**env: str) -> ModuleType:
        monkeypatch.delenv("ADJUDICATOR_ACCESS_LOG", raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return _settings_module(tmp_path, monkeypatch)

    return load


# --- a run directory that cannot be made --------------------------------------------------------


def test_a_run_directory_that_cannot_be_made_stops_the_start_naming_it(tmp_path: Path) -> None:
    """A file where the run directory should be (or no permission) was gunicorn's own
    "Error: [Errno 17] File exists", exit 1: now one line naming the setting, exit 2, and no
    metrics folder left behind."""
    taken = tmp_path / "run"
    taken.write_text("not a folder")
    env = {**os.environ, "ADJUDICATOR_RUN_DIR": str(taken), "TMPDIR": str(tmp_path)}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", "import adjudicator.process.gunicorn_conf"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"adjudicator: cannot start: ADJUDICATOR_RUN_DIR: cannot make {str(taken)!r}: File exists\n"
    )
    assert not list(tmp_path.glob("adjudicator-metrics-*"))
