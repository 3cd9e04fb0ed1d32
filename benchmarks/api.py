"""Challenge endpoint vs /healthz on the same gunicorn (2 workers), and per-worker memory.

Load generator: wrk from Debian (installed with apt-get when missing), 16 connections, run on
this same machine. The baseline is GET /healthz on the same server in the same run, so the
ratio measures what the challenge adds, not how fast this machine is.

Memory: private dirty pages per worker on a server with every bundled lexicon against one with
none, both fresh and warmed with the same requests (tries looked up through games/verify, which
writes nothing to the store); then what answering challenges adds on top (the store's engine
and connections, the audit log's path), reported apart because it is not the lexicons'.

Run by hand: `.venv/bin/python benchmarks/api.py [--seconds 10]`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import urllib.error
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


WARM_WORDS = (
    ("dsf-2015", "HEJ"),
    ("ssf-1999", "HEJ"),
    ("sbnl-punten", "HALLO"),
    ("naspa", "HELLO"),
)


def post(url: str, body: dict) -> None:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        urllib.request.urlopen(req).read()
    except urllib.error.HTTPError as refused:  # a server without lexicons refuses: same path
        refused.read()


def warm_without_store(server: Gunicorn) -> None:
    """The same requests to either server: GETs, and a one-play record per ruleset through
    games/verify, which looks words up in the tries (where there are tries) and writes nothing
    to the store. Challenges would write the audit log, whose cost is no lexicon's."""
    for _ in range(40):
        for path in ("/api/v1/healthz", "/api/v1/lexicons", "/api/v1/rulesets"):
            urllib.request.urlopen(server.url + path).read()
        for ruleset, word in WARM_WORDS:
            record = {
                "players": ["A", "B"],
                "turns": [{"player": "A", "type": "play", "move": f"8H {word}", "rack": word}],
            }
            post(f"{server.url}/api/v1/rulesets/{ruleset}/games/verify", record)


def challenge_every_lexicon(server: Gunicorn) -> None:
    for _ in range(40):
        for ruleset, word in WARM_WORDS:
            post(f"{server.url}/api/v1/rulesets/{ruleset}/challenge", {"words": [word]})


def worker_memory(server: Gunicorn) -> list[dict[str, int]]:
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
    # Memory on fresh servers, warmed alike; the verify budget off, so no warm-up is refused.
    os.environ["ADJUDICATOR_VERIFY_TIME_SHARE"] = "1"
    with Gunicorn(workers=2) as server:
        warm_without_store(server)
        loaded = worker_memory(server)
        challenge_every_lexicon(server)
        ruled = worker_memory(server)
    with (
        tempfile.TemporaryDirectory() as empty,
        Gunicorn(workers=2, lexicon_dir=Path(empty)) as bare,
    ):
        warm_without_store(bare)
        none = worker_memory(bare)

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
        f"{'no lexicons, warmed alike':<34}{avg(none, 'rss'):>10.0f}{avg(none, 'pss'):>10.0f}{avg(none, 'private'):>11.0f}"
    )
    print(
        f"{'all lexicons, then 160 challenges':<34}{avg(ruled, 'rss'):>10.0f}{avg(ruled, 'pss'):>10.0f}{avg(ruled, 'private'):>11.0f}"
    )
    extra = (avg(loaded, "private") - avg(none, "private")) / 1024
    print(
        f"private memory the lexicons add per worker: {extra:.2f} MiB  (target < 5 MiB)  "
        f"{'OK' if extra < 5 else 'MISSED'}"
    )
    store = (avg(ruled, "private") - avg(loaded, "private")) / 1024
    print(f"and what answering challenges adds (the store, the audit log's path): {store:.2f} MiB")


if __name__ == "__main__":
    main()
