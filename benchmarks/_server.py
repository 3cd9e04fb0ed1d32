"""Start and stop gunicorn for benchmarks, exactly as `make serve` does, on a free port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEXICON_DIR = Path(os.environ.get("ADJUDICATOR_LEXICON_DIR", ROOT / "instance" / "lexicons"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gunicorn:
    def __init__(self, workers: int = 2, lexicon_dir: Path = LEXICON_DIR):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "ADJUDICATOR_BIND": f"127.0.0.1:{self.port}",
            "ADJUDICATOR_WORKERS": str(workers),
            "ADJUDICATOR_LEXICON_DIR": str(lexicon_dir),
            "ADJUDICATOR_ACCESS_LOG": "/dev/null",  # logging every request would dominate
            "ADJUDICATOR_LOG_LEVEL": "warning",
        }
        gunicorn = Path(sys.executable).with_name("gunicorn")
        self.process = subprocess.Popen(
            [str(gunicorn), "-c", "deploy/gunicorn.conf.py", "adjudicator:create_app()"],
            cwd=ROOT,
            env=env,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.url + "/api/v1/healthz", timeout=1).read()
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise SystemExit("gunicorn did not start") from None
                time.sleep(0.1)

    def worker_pids(self) -> list[int]:
        out = subprocess.run(
            ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True
        ).stdout
        return [int(p) for p in out.split()]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=15)

    def __enter__(self) -> Gunicorn:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def smaps(pid: int) -> dict[str, int]:
    """Memory of one process in KiB, from /proc/PID/smaps_rollup."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value, *_ = line.split()
        fields[name.rstrip(":")] = int(value)
    return fields
