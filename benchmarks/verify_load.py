"""Challenge throughput while eight clients send `games/verify` records at the turn cap.

First the cost of one record at the cap in process (CPU time, median of 20), then over HTTP on
one gunicorn (2 workers): challenge throughput alone, and with 8 clients each sending the record
as soon as the previous answer came (honouring Retry-After when the worker's verify budget is
spent), in alternating pairs of rounds; the median pair ratio is the figure. wrk from Debian.

Run by hand: `.venv/bin/python benchmarks/verify_load.py [--seconds 5]`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import (  # noqa: E402
    CONNECTIONS,
    LEXICON_DIR,
    Gunicorn,
    ensure_wrk,
    run_wrk,
    worker_label,
)

from adjudicator import create_app  # noqa: E402
from adjudicator.bounds import MAX_TURNS  # noqa: E402
from adjudicator.tests.cap_record import cap_gcg, cap_turns  # noqa: E402

CHALLENGE = {"words": ["HEJ", "ORD", "QXZVQXZ"]}
CLIENTS = 8


def cpu_in_process(body: dict, rounds: int = 20) -> tuple[float, int]:
    client = create_app({"TESTING": True, "LEXICON_DIR": str(LEXICON_DIR)}).test_client()
    times, size = [], 0
    for _ in range(rounds):
        start = time.process_time()
        r = client.post("/api/v1/rulesets/naspa/games/verify", json=body)
        times.append(time.process_time() - start)
        assert r.status_code == 200, r.get_data(as_text=True)[:300]
        size = len(r.data)
    return statistics.median(times) * 1000, size


class VerifyClients:
    """CLIENTS threads, each sending the record again as soon as it is answered."""

    def __init__(self, url: str, body: bytes):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.body = body
        self.stop = threading.Event()
        self.counts = {"ok": 0, "busy": 0, "other": 0}
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, daemon=True) for _ in range(CLIENTS)]

    def run(self) -> None:
        while not self.stop.is_set():
            conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            conn.request(
                "POST",
                "/api/v1/rulesets/naspa/games/verify",
                self.body,
                {"Content-Type": "application/json"},
            )
            response = conn.getresponse()
            response.read()
            conn.close()
            kind = {200: "ok", 429: "busy"}.get(response.status, "other")
            with self.lock:
                self.counts[kind] += 1
            if response.status == 429:
                self.stop.wait(float(response.getheader("Retry-After", "1")))

    def __enter__(self) -> VerifyClients:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5, help="per wrk run")
    parser.add_argument("--rounds", type=int, default=8, help="pairs of runs")
    args = parser.parse_args()
    gcg = {"gcg": cap_gcg()}
    gcg_ms, gcg_size = cpu_in_process(gcg)
    turns_ms, turns_size = cpu_in_process(cap_turns())
    wrk = ensure_wrk()
    path = "/api/v1/rulesets/ssf-1999/challenge"
    alone, loaded, ratios = [], [], []
    counts = {"ok": 0, "busy": 0, "other": 0}
    with Gunicorn(workers=2) as server:
        body = json.dumps(gcg).encode()
        run_wrk(wrk, server.url + path, 1, CHALLENGE)  # warm up
        for i in range(args.rounds):
            order = ("alone", "loaded") if i % 2 == 0 else ("loaded", "alone")
            got = {}
            for kind in order:
                if kind == "alone":
                    got[kind] = run_wrk(wrk, server.url + path, args.seconds, CHALLENGE)
                else:
                    with VerifyClients(server.url, body) as clients:
                        time.sleep(0.5)  # the clients are sending before wrk starts
                        got[kind] = run_wrk(wrk, server.url + path, args.seconds, CHALLENGE)
                    for k, v in clients.counts.items():
                        counts[k] += v
            alone.append(got["alone"])
            loaded.append(got["loaded"])
            ratios.append(got["loaded"]["rps"] / got["alone"]["rps"])
    median = lambda rows: sorted(rows, key=lambda r: r["rps"])[len(rows) // 2]  # noqa: E731
    ratio = statistics.median(ratios)
    a, b = median(alone), median(loaded)
    print(f"record at the cap: {MAX_TURNS} lines, plays of 7 tiles forming 8 words, each withdrawn")
    print(f"  GCG form:  {gcg_ms:6.1f} ms CPU in process (median of 20), answer {gcg_size:,} bytes")
    print(
        f"  JSON form: {turns_ms:6.1f} ms CPU in process (median of 20), answer {turns_size:,} bytes"
    )
    target = "OK" if max(gcg_ms, turns_ms) < 100 else "MISSED"
    print(f"  target: well under 100 ms  {target}")
    print(
        f"http: wrk 2 threads, {CONNECTIONS} connections on {path}; gunicorn 2 workers"
        f" ({worker_label()});"
        f" {args.rounds} alternating pairs of {args.seconds} s rounds"
    )
    print(f"{'challenge':<34}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}")
    print(f"{'alone':<34}{a['rps']:>10.0f}{a['p50']:>10.2f}{a['p99']:>10.2f}")
    print(
        f"{f'with {CLIENTS} verify clients':<34}{b['rps']:>10.0f}{b['p50']:>10.2f}{b['p99']:>10.2f}"
    )
    print(
        f"verify answers during the loaded rounds: {counts['ok']} verified, {counts['busy']} told"
        f" to retry (429), {counts['other']} other"
    )
    print(
        f"loaded/alone challenge throughput (median pair ratio {', '.join(f'{r:.2f}' for r in sorted(ratios))}):"
        f" {ratio:.2f}  (target ≥ 0.8)  {'OK' if ratio >= 0.8 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
