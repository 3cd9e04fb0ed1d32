"""Challenge endpoint vs /healthz on the same gunicorn (2 workers), and per-worker memory.

Load generator: wrk from Debian (installed with apt-get when missing), 16 connections, run on
this same machine. The baseline is GET /healthz on the same server in the same run, so the
ratio measures what the challenge adds, not how fast this machine is.

Run by hand: `.venv/bin/python benchmarks/api.py [--seconds 10]`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import (  # noqa: E402
    CONNECTIONS,
    Gunicorn,
    against_healthz,
    ensure_wrk,
    smaps,
    worker_label,
)

BODY = {"words": ["HEJ", "ORD", "QXZVQXZ"]}  # three lookups, one invalid: the usual case


def private_kib(pid: int) -> int:
    # Private_Dirty: anonymous pages this worker alone holds. The tries are built in the master
    # before the fork and only read by the workers: shared, one physical copy for all of them.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=3, help="per run; 8 pairs of runs")
    args = parser.parse_args()
    wrk = ensure_wrk()
    with Gunicorn(workers=2) as server:
        healthz, challenge, ratio = against_healthz(
            wrk, server, "/api/v1/rulesets/ssf-1999/challenge", BODY, args.seconds
        )
        loaded = worker_memory(server, warm=True)
    with (
        tempfile.TemporaryDirectory() as empty,
        Gunicorn(workers=2, lexicon_dir=Path(empty)) as bare,
    ):
        none = worker_memory(bare, warm=False)

    print(
        f"load generator: wrk, 2 threads, {CONNECTIONS} connections, median of 8 back-to-back pairs of {args.seconds} s rounds;"
        f" gunicorn 2 workers ({worker_label()})"
    )
    print(f"{'endpoint':<34}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}")
    print(
        f"{'GET /healthz (baseline)':<34}{healthz['rps']:>10.0f}{healthz['p50']:>10.2f}{healthz['p99']:>10.2f}"
    )
    print(
        f"{'POST …/ssf-1999/challenge (3 w)':<34}{challenge['rps']:>10.0f}{challenge['p50']:>10.2f}{challenge['p99']:>10.2f}"
    )
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
