"""The challenge endpoint with the audit log on, against /healthz, on SQLite and PostgreSQL.

Every challenge is written to the audit log (hash chain, append lock) and committed before the
answer; rulings waiting at the same moment share a commit (adjudicator.audit.groupcommit).
Targets (issue 12): on SQLite (`synchronous=FULL`, the default) challenge throughput ≥ 0.75 ×
healthz in the same run and p99 < 20 ms; on PostgreSQL ≥ 0.6 × healthz. gunicorn 2 workers as
`adjudicator serve` runs them (gthread, `ADJUDICATOR_THREADS` threads each), wrk with 16
connections, all on this machine; PostgreSQL is a throwaway cluster from Debian's binaries on a
unix socket, with its default fsync on commit (the binaries installed with apt-get when
missing). Each store is measured in open mode (anonymous
challenges: the issue's targets) and in tournament mode (each challenge with an app key, looked
up and rate-counted in the store first). The chain is verified after each run. A reference row
runs the same challenges with the audit log's write taken out (`_ceiling_app.py`): the most the
challenge could reach against healthz on this machine if writing the log cost nothing.
Each run also reports the share of the machine's CPU left idle: a run with none is bound by
CPU (its ratio to healthz is what it costs against healthz), one with a good deal is bound by
waiting (here, for commits); and the CPU gunicorn's workers spent per request (user and system,
not counting wrk or PostgreSQL's own processes): the 0.75 target needs a challenge to cost at
most 1.33 × healthz's figure, which the reference row shows the challenge does not even without
the audit log.
Durability under load: 16 client threads send challenges, note every ruling answered, and
gunicorn's master and workers are SIGKILLed mid-load (and on PostgreSQL the postmaster and its
backends, then crash recovery); every acknowledged ruling must then be in the verified chain.

Run by hand: `.venv/bin/python benchmarks/store.py [--seconds 3] [--only sqlite|postgresql]
[--mode open|tournament|both]`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _harness import (  # noqa: E402
    CONNECTIONS,
    Gunicorn,
    against_healthz,
    ensure_postgres,
    ensure_wrk,
    run_wrk,
    worker_label,
)
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

from adjudicator.audit import chain  # noqa: E402
from adjudicator.audit.groupcommit import Batch, GroupCommit  # noqa: E402
from adjudicator.store import Store, migrate  # noqa: E402
from testsupport.pgcluster import Cluster  # noqa: E402

BODY = {"words": ["HEJ", "ORD", "QXZVQXZ"]}  # three lookups, one invalid: the usual case
ENTRY = {  # a challenge's audit entry as the service writes it for BODY (anonymous caller)
    "kind": "challenge",
    "ruleset": "ssf-1999",
    "lexicon_id": "wswedish",
    "lexicon_sha256": "0" * 64,
    "caller_kind": "anonymous",
    "caller_id": "",
    "caller_name": "anonymous",
    **dict.fromkeys(("event", "round", "table_label", "game", "player", "play")),
    "words": [{"input": w, "word": w} for w in BODY["words"]],
    "verdict": "invalid",
    "consequence": {"kind": "challenger_loses_turn", "player_points": 0},
}
PATH = "/api/v1/rulesets/ssf-1999/challenge"
TARGETS = {"sqlite": 0.75, "postgresql": 0.6}
# The reference row: the same server with the audit log's write taken out (entries still built
# and hashed), so the ratio shows what the rest of a challenge costs against healthz.
CEILING_APP = "benchmarks._ceiling_app:app"
CEILING_NAME = "Reference: no audit write (benchmarks/_ceiling_app.py); open mode"
# Tournament mode: every challenge carries an app key, which is looked up (its last use noted)
# and rate-counted in the store before the ruling. The load is spread over KEYS keys, each
# under the default limit of 20 rulings a minute at these rates, as a room of tablets would be.
KEYS = 10_000
TOURNAMENT_ENV = {
    "ADJUDICATOR_MODE": "tournament",
    "ADJUDICATOR_RATE_RULINGS_PER_MINUTE": "10000000",
}


def app_keys(store: Store, count: int) -> list[str]:
    """`count` fresh app keys, made as `adjudicator keys create --role app` makes them."""
    from adjudicator.auth import keys, store_time

    now = store_time.now()
    with store.connection(write=True) as conn:
        return [keys.create(conn, f"bench-{i}", "app", [], set(), now).key for i in range(count)]


def measure(
    wrk: str, url: str, seconds: int, mode: str, app: str = "adjudicator.process.wsgi:app"
) -> dict:
    store = Store(url)
    migrate.upgrade(store)
    bearers = None
    saved = {name: os.environ.get(name) for name in TOURNAMENT_ENV}
    if mode == "tournament":
        bearers = app_keys(store, KEYS)
        os.environ.update(TOURNAMENT_ENV)
    try:
        with Gunicorn(workers=2, database_url=url, app=app) as server:
            healthz, challenge, ratio = against_healthz(
                wrk, server, PATH, BODY, seconds, bearers=bearers
            )
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    started = time.perf_counter()
    with store.connection() as conn:
        result = chain.verify(conn)
    verify_s = time.perf_counter() - started
    store.dispose()
    return {
        "healthz": healthz,
        "challenge": challenge,
        "ratio": ratio,
        "entries": result.entries,
        "intact": result.ok,
        "verify_s": verify_s,
    }


def commit_profile(wrk: str, url: str, seconds: int) -> dict:
    """Where a commit's time goes under load: a separate run with /metrics on (it costs every
    request a little, so it is not part of the ratio), read from the audit-commit histograms;
    then the same batches committed by this process alone, with no request threads beside it."""
    store = Store(url)
    migrate.upgrade(store)
    os.environ["ADJUDICATOR_METRICS"] = "1"
    try:
        with Gunicorn(workers=2, database_url=url) as server:
            run_wrk(wrk, server.url + PATH, seconds, BODY)
            with urllib.request.urlopen(server.url + "/metrics", timeout=10) as r:
                text = r.read().decode()
    finally:
        del os.environ["ADJUDICATOR_METRICS"]
    seen = {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name.startswith("adjudicator_audit_") and not sample.labels
    }
    commits = seen["adjudicator_audit_batch_rulings_count"]
    batch = seen["adjudicator_audit_batch_rulings_sum"] / commits
    held: list[float] = []
    writer = GroupCommit(store, observe=lambda rulings, waited, took: held.append(took))

    def work(conn, batch: Batch) -> None:
        batch.append({**ENTRY, "ruling_id": uuid.uuid4().hex})

    for _ in range(300):
        writer._transaction([work] * max(1, round(batch)))  # one leader's batch, no threads
    store.dispose()
    return {
        "commits": commits,
        "batch": batch,
        "waited_ms": 1000 * seen["adjudicator_audit_lock_wait_seconds_sum"] / commits,
        "held_ms": 1000 * seen["adjudicator_audit_lock_held_seconds_sum"] / commits,
        "alone_ms": 1000 * sorted(held)[len(held) // 2],
    }


def durability(url: str, seconds: float, cluster: Cluster | None = None) -> dict:
    """Challenges from CONNECTIONS threads until SIGKILL of gunicorn (all of it, at once) and,
    with `cluster`, of PostgreSQL right after; then every ruling a client was answered must be
    in the log, and the chain must verify."""
    store = Store(url)
    migrate.upgrade(store)
    acknowledged: list[str] = []
    stop = threading.Event()
    body = json.dumps(BODY).encode()

    def client(port: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        while not stop.is_set():
            try:
                conn.request("POST", PATH, body, {"Content-Type": "application/json"})
                response = conn.getresponse()
                answer = response.read()
                if response.status == 200:
                    acknowledged.append(json.loads(answer)["ruling_id"])  # list.append: atomic
            except (OSError, http.client.HTTPException):  # the kill: nothing acknowledged
                conn.close()
                time.sleep(0.05)
        conn.close()

    server = Gunicorn(workers=2, database_url=url)
    threads = [threading.Thread(target=client, args=(server.port,)) for _ in range(CONNECTIONS)]
    for t in threads:
        t.start()
    time.sleep(seconds)
    for pid in [*server.worker_pids(), server.process.pid]:
        os.kill(pid, signal.SIGKILL)
    if cluster is not None:
        cluster.kill()  # the postmaster and every backend
    answered = len(acknowledged)  # answers after this instant came from no process
    stop.set()
    for t in threads:
        t.join()
    server.process.wait(timeout=10)
    server.stop()
    store.dispose()  # its connections (PostgreSQL's) died with the cluster
    if cluster is not None:
        cluster.start()  # crash recovery replays the WAL
    with store.connection() as conn:
        result = chain.verify(conn)
        logged = {s.row["ruling_id"] for s in chain.stored(conn)}
    store.dispose()
    return {
        "acknowledged": answered,
        "missing": sum(1 for r in acknowledged[:answered] if r not in logged),
        "entries": result.entries,
        "intact": result.ok,
    }


def postgres_version(cluster: Cluster) -> str:
    out = subprocess.run([str(cluster.bindir / "postgres"), "--version"], capture_output=True)
    return out.stdout.decode().split()[2].split("-")[0]  # "postgres (PostgreSQL) 15.18-0+deb12u1)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=3, help="per run; 8 pairs of runs")
    parser.add_argument("--only", choices=sorted(TARGETS))
    parser.add_argument(
        "--mode",
        choices=["open", "tournament", "both"],
        default="both",
        help="open: anonymous challenges (the target); tournament: each with an app key",
    )
    args = parser.parse_args()
    modes = ["open", "tournament"] if args.mode == "both" else [args.mode]
    wrk = ensure_wrk()
    rows = []
    kills: list[tuple[str, dict]] = []
    if args.only in (None, "sqlite"):
        synchronous = os.environ.get("ADJUDICATOR_SQLITE_SYNCHRONOUS", "FULL").upper()
        for mode in modes:
            with tempfile.TemporaryDirectory(prefix="adjudicator-bench-") as tmp:
                url = f"sqlite:///{tmp}/adjudicator.db"
                name = f"SQLite, WAL, synchronous={synchronous}; {mode} mode"
                rows.append(("sqlite", name, measure(wrk, url, args.seconds, mode)))
            if mode == "open":
                with tempfile.TemporaryDirectory(prefix="adjudicator-bench-") as tmp:
                    url = f"sqlite:///{tmp}/adjudicator.db"
                    rows[-1][2]["profile"] = commit_profile(wrk, url, args.seconds)
        with tempfile.TemporaryDirectory(prefix="adjudicator-bench-") as tmp:
            kills.append(("SQLite", durability(f"sqlite:///{tmp}/adjudicator.db", args.seconds)))
        if "open" in modes:  # what the challenge costs with no store at all, for comparison
            with tempfile.TemporaryDirectory(prefix="adjudicator-bench-") as tmp:
                url = f"sqlite:///{tmp}/adjudicator.db"
                result = measure(wrk, url, args.seconds, "open", app=CEILING_APP)
                rows.append(("reference", CEILING_NAME, result))
    if args.only in (None, "postgresql"):
        ensure_postgres()
        cluster = Cluster().start()
        try:
            for mode in modes:
                url = cluster.create_database(f"bench_{mode}")
                name = f"PostgreSQL {postgres_version(cluster)}, fsync on; {mode} mode"
                rows.append(("postgresql", name, measure(wrk, url, args.seconds, mode)))
                if mode == "open":
                    url = cluster.create_database("bench_profile")
                    rows[-1][2]["profile"] = commit_profile(wrk, url, args.seconds)
            url = cluster.create_database("bench_durability")
            kills.append(("PostgreSQL", durability(url, args.seconds, cluster)))
        finally:
            cluster.stop()

    worker = worker_label()
    print(
        f"load generator: wrk, 2 threads, {CONNECTIONS} connections, median of 8 back-to-back"
        f" pairs of {args.seconds} s rounds; gunicorn 2 workers ({worker}); audit log on"
    )
    for kind, name, r in rows:
        h, c = r["healthz"], r["challenge"]
        print(f"\n{name}")
        print(
            f"  {'endpoint':<34}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'idle CPU':>10}"
            f"{'worker CPU µs/req':>19}"
        )
        for label, run in (("GET /healthz (baseline)", h), ("POST …/ssf-1999/challenge (3 w)", c)):
            print(
                f"  {label:<34}{run['rps']:>10.0f}{run['p50']:>10.2f}{run['p99']:>10.2f}"
                f"{100 * run['idle']:>9.0f}%{run['cpu_us']:>19.0f}"
            )
        if kind == "reference":
            print(f"  challenge/healthz throughput ratio: {r['ratio']:.2f}  (the ceiling)")
            continue
        target = TARGETS[kind]
        if name.endswith("tournament mode"):  # the targets are for the open service
            print(f"  challenge/healthz throughput ratio: {r['ratio']:.2f}  (no target)")
        else:
            print(
                f"  challenge/healthz throughput ratio: {r['ratio']:.2f}  (target ≥ {target})  "
                f"{'OK' if r['ratio'] >= target else 'MISSED'}"
            )
        if kind == "sqlite" and name.endswith("open mode"):
            print(
                f"  challenge p99: {c['p99']:.2f} ms  (target < 20 ms)  "
                f"{'OK' if c['p99'] < 20 else 'MISSED'}"
            )
        if "profile" in r:
            p = r["profile"]
            print(
                f"  commits (a separate {args.seconds} s run with /metrics on):"
                f" {p['batch']:.1f} rulings each; the append lock waited for {p['waited_ms']:.2f}"
                f" ms, then held {p['held_ms']:.2f} ms; the same batch held {p['alone_ms']:.2f} ms"
                " when committed by one process alone"
            )
        state = "intact" if r["intact"] else "BROKEN"
        print(
            f"  audit log: {r['entries']} entries written, chain {state},"
            f" verified in {r['verify_s']:.1f} s"
        )
    if kills:
        print(
            f"\nDurability: {CONNECTIONS} client threads challenging for {args.seconds} s, then"
            " SIGKILL of gunicorn's master and workers (PostgreSQL: and of the postmaster and its"
            " backends, then crash recovery)"
        )
    for store_name, k in kills:
        state = "intact" if k["intact"] else "BROKEN"
        verdict = "OK" if k["missing"] == 0 and k["intact"] else "LOST RULINGS"
        print(
            f"  {store_name}: {k['acknowledged']} rulings acknowledged, {k['missing']} of them"
            f" missing from the log ({k['entries']} entries, chain {state})  {verdict}"
        )


if __name__ == "__main__":
    main()
