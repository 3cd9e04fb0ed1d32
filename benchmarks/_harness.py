"""Benchmark harness: gunicorn started as `make serve` does, on a free port, and wrk to load it."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from adjudicator.settings import read as read_settings

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # testsupport/ is the checkout's: the wheel does not ship it
from testsupport.pgcluster import PostgresUnavailable, find_bindir  # noqa: E402

CONNECTIONS = 16
LEXICON_DIR = Path(os.environ.get("ADJUDICATOR_LEXICON_DIR", ROOT / "instance" / "lexicons"))


def worker_label() -> str:
    """gunicorn's worker class as `adjudicator.process.gunicorn_conf` picks it from the environment."""
    threads = read_settings().threads
    return f"gthread, {threads} threads each" if threads > 1 else "sync"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gunicorn:
    """gunicorn on a free port. Its store is `database_url`, else a throwaway SQLite file: a
    benchmark never writes thousands of rulings into the developer's own audit log."""

    def __init__(
        self,
        workers: int = 2,
        lexicon_dir: Path = LEXICON_DIR,
        database_url: str | None = None,
        app: str = "adjudicator.process.wsgi:app",
        extra_args: list[str] | None = None,
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._tmp = None
        if database_url is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="adjudicator-bench-")
            database_url = f"sqlite:///{self._tmp.name}/adjudicator.db"
        env = {
            **os.environ,
            "ADJUDICATOR_BIND": f"127.0.0.1:{self.port}",
            "ADJUDICATOR_WORKERS": str(workers),
            "ADJUDICATOR_LEXICON_DIR": str(lexicon_dir),
            "ADJUDICATOR_DATABASE_URL": database_url,
            "ADJUDICATOR_ACCESS_LOG": "off",  # the default: a line per request would dominate
            "ADJUDICATOR_LOG_LEVEL": "warning",
        }
        gunicorn = Path(sys.executable).with_name("gunicorn")
        self.process = subprocess.Popen(
            [str(gunicorn), "-c", "deploy/gunicorn.conf.py", *(extra_args or []), app],
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
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

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


def _which(command: str) -> str | None:
    return shutil.which(command) or shutil.which(command, path="/usr/sbin:/sbin")


def install_debian(package: str, present: str) -> None:
    """Debian's `package`, unless `present` (a glob) matches an executable: installed by
    tools/debian-packages, as `make test` installs the suite's (it says why when it cannot)."""
    subprocess.run([str(ROOT / "tools" / "debian-packages"), f"{package}={present}"], check=True)


def ensure_debian(command: str, package: str) -> str:
    """The path of `command`, installing Debian's `package` when it is missing."""
    found = _which(command)
    if found:
        return found
    install_debian(package, f"/usr/*bin/{command}")
    return _which(command) or sys.exit(
        f"{command} is missing: run `apt-get install {package}` as root"
    )


def ensure_postgres() -> None:
    """Debian's PostgreSQL server binaries, which a throwaway `Cluster` runs, installed when
    missing."""
    try:
        find_bindir()
    except PostgresUnavailable:
        install_debian("postgresql", "/usr/lib/postgresql/*/bin/initdb")
        try:
            find_bindir()
        except PostgresUnavailable as exc:
            sys.exit(str(exc))


def ensure_wrk() -> str:
    return ensure_debian("wrk", "wrk")


def machine_cpu() -> tuple[int, int]:
    """(all, idle) ticks of every core since boot, from /proc/stat."""
    ticks = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(ticks), ticks[3] + ticks[4]  # idle and iowait


def process_cpu(pids: list[int]) -> int:
    """User and system clock ticks these processes have used, from /proc/PID/stat."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone (a worker restarted): its ticks are lost to the figure
            continue
        total += int(fields[11]) + int(fields[12])
    return total


def run_wrk(
    wrk: str,
    url: str,
    seconds: int,
    body: dict | None = None,
    bearers: list[str] | None = None,
    pids: list[int] | None = None,
) -> dict[str, float]:
    """wrk against `url`; with `bearers`, each request carries the next of these credentials
    (`Authorization: Bearer …`), so that no one credential meets its rate limit.

    Besides throughput and latency: the share of the machine's CPU left idle during the run
    (near 0: the run was bound by CPU; well above: requests were waiting for something else),
    and with `pids` (the server's workers) the CPU they spent per request, in µs."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        if body is not None:
            payload = json.dumps(body).replace("\\", "\\\\").replace('"', '\\"')
            script.write(
                f'wrk.method = "POST"\nwrk.body = "{payload}"\n'
                'wrk.headers["Content-Type"] = "application/json"\n'
            )
        if bearers:
            script.write("bearers = {" + ",".join(f'"{b}"' for b in bearers) + "}\n")
            script.write(
                "n = 0\nrequest = function()\n  n = n + 1\n"
                '  wrk.headers["Authorization"] = "Bearer " .. bearers[n % #bearers + 1]\n'
                "  return wrk.format()\nend\n"
            )
    ticks, idle = machine_cpu()
    spent = process_cpu(pids or [])
    out = subprocess.run(
        [wrk, "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", "-s", script.name, url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ticks_after, idle_after = machine_cpu()
    spent = process_cpu(pids or []) - spent
    Path(script.name).unlink()
    if "Non-2xx" in out:
        raise SystemExit(f"errors during the run:\n{out}")

    def latency(pct: str) -> float:
        value, unit = re.search(rf"^\s+{pct}%\s+([\d.]+)(\w+)", out, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    return {
        "rps": rps,
        "p50": latency("50"),
        "p99": latency("99"),
        "idle": (idle_after - idle) / max(1, ticks_after - ticks),
        "cpu_us": spent * 1e6 / os.sysconf("SC_CLK_TCK") / max(1, requests),
    }


def against_healthz(
    wrk: str,
    server: Gunicorn,
    path: str,
    body: dict,
    seconds: int,
    rounds: int = 8,
    bearers: list[str] | None = None,
) -> tuple[dict[str, float], dict[str, float], float]:
    """GET /healthz and POST `path` on the same server, in adjacent pairs of runs.

    This machine is a VM with noisy neighbours: throughput drifts by ±15 % from one run to the
    next. So each pair is run back to back, in alternating order (drift cancels), the ratio is
    taken within the pair, and the median pair ratio is reported (with each endpoint's median
    run for the absolute figures, and the median of its runs' worker CPU per request).
    """
    base, target, ratios = [], [], []
    pids = server.worker_pids()
    for i in range(rounds):
        if i % 2:
            t = run_wrk(wrk, server.url + path, seconds, body, bearers, pids)
            b = run_wrk(wrk, server.url + "/api/v1/healthz", seconds, pids=pids)
        else:
            b = run_wrk(wrk, server.url + "/api/v1/healthz", seconds, pids=pids)
            t = run_wrk(wrk, server.url + path, seconds, body, bearers, pids)
        base.append(b)
        target.append(t)
        ratios.append(t["rps"] / b["rps"])
    middle = lambda values: sorted(values)[len(values) // 2]  # noqa: E731
    median = lambda rows: {  # noqa: E731
        **sorted(rows, key=lambda r: r["rps"])[len(rows) // 2],
        "cpu_us": middle([r["cpu_us"] for r in rows]),  # steadier than the median run's own
    }
    return median(base), median(target), middle(ratios)
