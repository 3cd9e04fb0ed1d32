"""Challenge endpoint vs /healthz on the same gunicorn (2 workers), and per-worker memory.

Load generator: wrk from Debian (installed with apt-get when missing), 16 connections, run on
this same machine. The baseline is GET /healthz on the same server in the same run, so the
ratio measures what the challenge adds, not how fast this machine is.

Run by hand: `.venv/bin/python benchmarks/api.py [--seconds 10]`.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _server import Gunicorn, smaps  # noqa: E402

CONNECTIONS = 16
BODY = {"words": ["HEJ", "ORD", "QXZVQXZ"]}  # three lookups, one invalid: the usual case


def ensure_wrk() -> str:
    wrk = shutil.which("wrk")
    if wrk:
        return wrk
    print("wrk not found: installing Debian's wrk with apt-get …", file=sys.stderr)
    subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True)
    return shutil.which("wrk") or sys.exit("wrk could not be installed")


def run_wrk(wrk: str, url: str, seconds: int, body: dict | None = None) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        if body is not None:
            payload = json.dumps(body).replace("\\", "\\\\").replace('"', '\\"')
            script.write(
                f'wrk.method = "POST"\nwrk.body = "{payload}"\n'
                'wrk.headers["Content-Type"] = "application/json"\n'
            )
    out = subprocess.run(
        [wrk, "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", "-s", script.name, url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    Path(script.name).unlink()
    if "Non-2xx" in out:
        raise SystemExit(f"errors during the run:\n{out}")

    def latency(pct: str) -> float:
        value, unit = re.search(rf"^\s+{pct}%\s+([\d.]+)(\w+)", out, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    return {"rps": rps, "p50": latency("50"), "p99": latency("99")}


def private_kib(pid: int) -> int:
    # Private_Dirty: anonymous pages this worker alone holds. The tries' file-backed pages are
    # page cache: clean, and one physical copy however many workers map them.
    return smaps(pid)["Private_Dirty"]


def worker_memory(server: Gunicorn, warm: bool) -> list[dict[str, int]]:
    if warm:  # touch the tries in every worker before measuring
        for _ in range(40):
            for ruleset, words in (
                ("dsf-2015", ["HEJ"]),
                ("ssf-1999", ["HEJ"]),
                ("sbnl-punten", ["HALLO"]),
                ("naspa", ["HELLO"]),
            ):
                req = urllib.request.Request(
                    f"{server.url}/api/v1/rulesets/{ruleset}/challenge",
                    data=json.dumps({"words": words}).encode(),
                    headers={"Content-Type": "application/json"},
                )
                urllib.request.urlopen(req).read()
    return [
        {
            "pid": pid,
            "rss": smaps(pid)["Rss"],
            "pss": smaps(pid)["Pss"],
            "private": private_kib(pid),
        }
        for pid in server.worker_pids()
    ]


def measure_pair(wrk: str, server: Gunicorn, seconds: int) -> tuple[dict, dict]:
    """Interleave the two endpoints and keep each one's best round, to damp machine noise."""
    rounds = {"healthz": [], "challenge": []}
    for _ in range(3):
        rounds["healthz"].append(run_wrk(wrk, server.url + "/api/v1/healthz", seconds))
        rounds["challenge"].append(
            run_wrk(wrk, server.url + "/api/v1/rulesets/ssf-1999/challenge", seconds, BODY)
        )
    best = lambda rows: max(rows, key=lambda r: r["rps"])  # noqa: E731
    return best(rounds["healthz"]), best(rounds["challenge"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5, help="per round; 3 rounds each")
    args = parser.parse_args()
    wrk = ensure_wrk()
    with Gunicorn(workers=2) as server:
        healthz, challenge = measure_pair(wrk, server, args.seconds)
        loaded = worker_memory(server, warm=True)
    with (
        tempfile.TemporaryDirectory() as empty,
        Gunicorn(workers=2, lexicon_dir=Path(empty)) as bare,
    ):
        none = worker_memory(bare, warm=False)

    print(
        f"load generator: wrk, 2 threads, {CONNECTIONS} connections, best of 3 interleaved {args.seconds} s rounds;"
        " gunicorn 2 workers (sync)"
    )
    print(f"{'endpoint':<34}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}")
    print(
        f"{'GET /healthz (baseline)':<34}{healthz['rps']:>10.0f}{healthz['p50']:>10.2f}{healthz['p99']:>10.2f}"
    )
    print(
        f"{'POST …/ssf-1999/challenge (3 w)':<34}{challenge['rps']:>10.0f}{challenge['p50']:>10.2f}{challenge['p99']:>10.2f}"
    )
    ratio = challenge["rps"] / healthz["rps"]
    print(
        f"challenge/healthz throughput ratio: {ratio:.2f}  (target ≥ 0.85)  "
        f"{'OK' if ratio >= 0.85 else 'MISSED'}"
    )
    print(
        f"challenge p99: {challenge['p99']:.2f} ms  (target < 20 ms)  "
        f"{'OK' if challenge['p99'] < 20 else 'MISSED'}"
    )
    avg = lambda rows, k: sum(r[k] for r in rows) / len(rows)  # noqa: E731
    print(f"{'worker memory (KiB)':<34}{'RSS':>10}{'PSS':>10}{'priv-dirty':>11}")
    print(
        f"{'all bundled lexicons, warmed':<34}{avg(loaded, 'rss'):>10.0f}{avg(loaded, 'pss'):>10.0f}{avg(loaded, 'private'):>11.0f}"
    )
    print(
        f"{'no lexicons':<34}{avg(none, 'rss'):>10.0f}{avg(none, 'pss'):>10.0f}{avg(none, 'private'):>11.0f}"
    )
    extra = (avg(loaded, "private") - avg(none, "private")) / 1024
    print(
        f"private memory the lexicons add per worker: {extra:.2f} MiB  (target < 5 MiB)  "
        f"{'OK' if extra < 5 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
