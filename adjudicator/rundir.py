"""An instance's run directory: its pidfile, control socket, last reload and worker-exit log.

Each gunicorn instance gets its own (`ADJUDICATOR_RUN_DIR`, by default `run/<bind>` in the
instance folder, `ADJUDICATOR_INSTANCE_DIR`), so two instances on one box never share a control
socket or pidfile, and a command started in any folder finds them. The gunicorn hooks in
`deploy/gunicorn.conf.py` write here; `readyz` and `adjudicator reload` read it.

A worker that leaves through Python (a graceful stop, a reload, `max_requests`) marks its exit
as clean; the master, reaping a worker without that mark, records an abnormal exit (SIGKILL,
SIGSEGV, the OOM killer). A worker killed for a timeout (SIGABRT) records itself.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

PIDFILE = "gunicorn.pid"
CONTROL_SOCKET = "gunicorn.ctl"
EXITS = "worker-exits.log"
LAST_RELOAD = "last-reload.json"


def _clean_mark(run_dir: str, pid: int) -> Path:
    return Path(run_dir) / f"clean-exit.{pid}"


def mark_clean_exit(run_dir: str, pid: int) -> None:
    """In the worker, as it leaves through Python."""
    _clean_mark(run_dir, pid).touch()


def record_abnormal(run_dir: str, pid: int, how: str) -> None:
    with open(Path(run_dir) / EXITS, "a", encoding="utf-8") as fh:
        fh.write(f"{time.time():.3f} {pid} {how}\n")


def record_exit(run_dir: str, pid: int) -> None:
    """In the master, as it reaps a worker: no clean mark means the worker died abnormally."""
    try:
        _clean_mark(run_dir, pid).unlink()
    except FileNotFoundError:
        record_abnormal(run_dir, pid, "died")


def abnormal_exits(run_dir: str | None, window: float) -> int:
    """Abnormal worker exits in the last `window` seconds (0 without a run directory)."""
    if not run_dir:
        return 0
    try:
        lines = (Path(run_dir) / EXITS).read_text(encoding="utf-8").splitlines()
    except OSError:
        return 0
    since = time.time() - window
    return sum(1 for line in lines if line and float(line.split()[0]) >= since)


def write_last_reload(run_dir: str, report: dict[str, Any]) -> None:
    path = Path(run_dir) / LAST_RELOAD
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(report, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)


def read_last_reload(run_dir: str) -> dict[str, Any] | None:
    try:
        return json.loads((Path(run_dir) / LAST_RELOAD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
