"""What the service adds to a plain request: CPU per request in one process, against a bare Flask
app that reads a JSON body and answers JSON, measured in the same run.

Each path is a WSGI call into a real app (no sockets, no gunicorn): the bare app, `healthz`, a
challenge with the audit log's write taken out, a challenge audited in SQLite (open mode,
`synchronous=FULL`), the same with a new `Idempotency-Key` each time (looked up and stored in
the ruling's transaction), the same with open mode recording nothing
(`ADJUDICATOR_OPEN_MODE_AUDIT=none`), the same with an app key in tournament mode (looked up,
rate-counted and its last use noted in the store), and `moves/validate`. The rounds are
interleaved (every path once per round, in a rotating order) and each path's CPU time per
request (`process_time`, all threads of this process) is divided by the bare app's in the same
round; the median ratio is reported. What the apps built before the rounds is frozen out of the
garbage collector's reach, as gunicorn's workers have it (`gc.freeze()` before the fork). On two shared cores absolute times drift by ±15 % between runs; the ratio does not.

The floor (issue 38) is what a durable ruling cannot cost less than: an unaudited challenge
followed by one raw SQLite INSERT and COMMIT (`sqlite3`, no SQLAlchemy, a row the size of a
ruling's entry, the same journal mode and `synchronous`), in the same rounds. Targets: an
audited open challenge ≤ 1.4 × the floor, a tournament one (app key) ≤ 1.8 ×. `--synchronous
NORMAL` runs the service and the floor without the per-commit fsync, whose CPU on this disk
swings by 100 µs between runs; FULL is the service's default and what it ships with.

Older targets (issue 30), against the bare app: audited open ≤ 4.5×, tournament ≤ 5.5×.

Run by hand: `.venv/bin/python benchmarks/ruling_cost.py [--rounds 15] [--requests 300]
[--synchronous FULL|NORMAL] [--gunicorn]`. `--gunicorn` adds the ratios to healthz under gunicorn (wrk, as
benchmarks/store.py measures them).
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson
from flask import Flask, jsonify, request

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

LEXICON_DIR = Path(os.environ.get("ADJUDICATOR_LEXICON_DIR", ROOT / "instance" / "lexicons"))
CHALLENGE = "/api/v1/rulesets/ssf-1999/challenge"
CHALLENGE_BODY = {"words": ["HEJ", "ORD", "QXZVQXZ"]}  # three lookups, one invalid
VALIDATE = "/api/v1/rulesets/ssf-1999/moves/validate"
VALIDATE_BODY = {
    "board": ["." * 15] * 7 + ["." * 7 + "KATT" + "." * 4] + ["." * 15] * 7,
    "play": "9H OM",
    "rack": "OMEHSTA",
}
TARGETS = {"challenge, audited, open": 1.4, "challenge, tournament, app key": 1.8}  # × floor
FLOOR = "floor: unaudited + raw INSERT"
ENTRY_BYTES = 700  # about a challenge's audit entry as stored (its JSON, hashes and labels)
KEYS = 64  # app keys in turn, as a room of tablets


def bare_app() -> Flask:
    """The baseline: Flask reading a JSON body and answering JSON, nothing else."""
    app = Flask("bare")

    @app.post("/echo")
    def echo():
        body = request.get_json()
        return jsonify({"words": body["words"], "ok": True})

    return app


class Call:
    """One request, replayed against a WSGI app: the environ is rebuilt for each call (a body
    stream is read once) from bytes prepared up front."""

    def __init__(self, app, method: str, path: str, body=None, headers=None, expect=200):
        self.app = app
        self.method = method
        self.path = path
        self.data = orjson.dumps(body) if body is not None else b""
        self.headers = headers or (lambda i: {})
        self.expect = expect
        self.i = 0

    def environ(self) -> dict:
        self.i += 1
        env = {
            "REQUEST_METHOD": self.method,
            "PATH_INFO": self.path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(self.data),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": False,
            "wsgi.run_once": False,
            "HTTP_HOST": "127.0.0.1:8000",
        }
        if self.data:
            env["CONTENT_TYPE"] = "application/json"
            env["CONTENT_LENGTH"] = str(len(self.data))
        for name, value in self.headers(self.i).items():
            env["HTTP_" + name.upper().replace("-", "_")] = value
        return env

    def __call__(self) -> None:
        status = []
        body = self.app(self.environ(), lambda s, h, exc=None: status.append(s))
        try:
            for _ in body:
                pass
        finally:
            close = getattr(body, "close", None)
            if close:
                close()
        code = int(status[0].split()[0])
        if code != self.expect:
            raise SystemExit(f"{self.method} {self.path}: {status[0]} (expected {self.expect})")


SYNCHRONOUS = "FULL"  # --synchronous: the service's and the floor's


class Floor:
    """The floor: an unaudited challenge, then one row INSERTed and COMMITted on the raw driver."""

    def __init__(self, challenge: Call, path: Path):
        import sqlite3

        self.challenge = challenge
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
        self.db.execute(
            "CREATE TABLE rulings (seq INTEGER PRIMARY KEY, ruling_id TEXT UNIQUE, entry BLOB)"
        )
        self.i = 0

    def __call__(self) -> None:
        self.challenge()
        self.i += 1
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute(
            "INSERT INTO rulings (ruling_id, entry) VALUES (?, ?)",
            (f"{self.i:032x}", os.urandom(ENTRY_BYTES)),
        )
        self.db.execute("COMMIT")


def service(tmp: Path, name: str, **config):
    from adjudicator import create_app
    from adjudicator.store import migrate

    settings = {
        "LEXICON_DIR": str(LEXICON_DIR),
        "DATABASE_URL": f"sqlite:///{tmp / (name + '.db')}",
        "SQLITE_SYNCHRONOUS": SYNCHRONOUS,
        **config,
    }
    app = create_app(settings)
    migrate.upgrade(app.extensions["store"])
    return app


def app_keys(app, count: int) -> list[str]:
    from adjudicator import store
    from adjudicator.auth import keys, store_time

    with app.app_context(), store.connection(write=True) as conn:
        now = store_time.now()
        return [keys.create(conn, f"bench-{i}", "app", [], set(), now).key for i in range(count)]


def unwritten(app):
    """The audit log's write taken out: every ruling is still built, linked and hashed."""
    from adjudicator.audit import chain
    from adjudicator.audit.groupcommit import Batch
    from adjudicator.store.models import GENESIS_HASH

    class Unwritten:
        def submit(self, work):
            return work(None, Batch(chain.Head(0, GENESIS_HASH)))

    app.extensions["group_commit"] = Unwritten()
    return app


def paths(tmp: Path) -> dict[str, Callable[[], None]]:
    opened = service(tmp, "open", OPEN_MODE_AUDIT="all")  # the default, said: the row measures it
    tournament = service(tmp, "tournament", MODE="tournament", RATE_RULINGS_PER_MINUTE=10**9)
    keys = app_keys(tournament, KEYS)
    bearer = lambda i: {"Authorization": f"Bearer {keys[i % KEYS]}"}  # noqa: E731
    idempotency_key = lambda i: {"Idempotency-Key": f"bench-{i}"}  # noqa: E731  (new each time)
    unaudited = unwritten(service(tmp, "unaudited"))
    return {
        "bare Flask JSON POST": Call(
            bare_app(), "POST", "/echo", {"words": CHALLENGE_BODY["words"]}
        ),
        "healthz": Call(opened, "GET", "/api/v1/healthz"),
        "challenge, unaudited": Call(unaudited, "POST", CHALLENGE, CHALLENGE_BODY),
        FLOOR: Floor(Call(unaudited, "POST", CHALLENGE, CHALLENGE_BODY), tmp / "floor.db"),
        "challenge, audited, open": Call(opened, "POST", CHALLENGE, CHALLENGE_BODY),
        "challenge, audited, open, keyed": Call(
            opened, "POST", CHALLENGE, CHALLENGE_BODY, idempotency_key
        ),
        "challenge, open, not recorded": Call(
            service(tmp, "quiet", OPEN_MODE_AUDIT="none"), "POST", CHALLENGE, CHALLENGE_BODY
        ),
        "challenge, tournament, app key": Call(
            tournament, "POST", CHALLENGE, CHALLENGE_BODY, bearer
        ),
        "moves/validate": Call(opened, "POST", VALIDATE, VALIDATE_BODY),
    }


def cpu_us(call: Callable[[], None], n: int) -> float:
    start = time.process_time_ns()
    for _ in range(n):
        call()
    return (time.process_time_ns() - start) / n / 1000


def in_process(rounds: int, n: int) -> None:
    with tempfile.TemporaryDirectory(prefix="ruling-cost-") as tmp:
        calls = paths(Path(tmp))
        names = list(calls)
        for call in calls.values():  # warm: caches, lexicons, prepared statements
            for _ in range(max(20, n // 10)):
                call()
        # As a worker runs (gunicorn_conf.pre_fork): what was built before serving is out of
        # the collector's reach. Else a full collection (90 ms here, walking the apps' 140,000
        # objects) lands on whichever path runs then, and that round's ratios with it.
        gc.freeze()
        times: dict[str, list[float]] = {name: [] for name in names}
        ratios: dict[str, list[float]] = {name: [] for name in names}
        floors: dict[str, list[float]] = {name: [] for name in names}
        for r in range(rounds):
            order = names[r % len(names) :] + names[: r % len(names)]
            measured = {name: cpu_us(calls[name], n) for name in order}
            for name in names:
                times[name].append(measured[name])
                ratios[name].append(measured[name] / measured[names[0]])
                floors[name].append(measured[name] / measured[FLOOR])
    print(
        f"# in process, SQLite synchronous={SYNCHRONOUS}: CPU µs per request (median of {rounds}"
        f" interleaved rounds of {n} requests); × bare, × floor = median of the per-round ratios"
        " (range)"
    )
    print(f"{'path':<34} {'µs':>8} {'× bare':>8}  {'× floor (range)':<18}  target")
    for name in names:
        ratio = statistics.median(ratios[name])
        spread = sorted(floors[name])
        floor = f"{statistics.median(spread):.2f} ({spread[0]:.2f}–{spread[-1]:.2f})"
        target = ""
        if name in TARGETS:
            goal = TARGETS[name]
            verdict = "met" if statistics.median(spread) <= goal else "MISSED"
            target = f"≤ {goal}× floor ({verdict})"
        print(
            f"{name:<34} {statistics.median(times[name]):>8.0f} {ratio:>8.2f}  {floor:<18}  {target}"
        )


def under_gunicorn(seconds: int) -> None:
    from _harness import Gunicorn, against_healthz, ensure_wrk

    from adjudicator.store import Store, migrate

    wrk = ensure_wrk()
    print(f"\n# under gunicorn (2 workers, wrk, {seconds} s runs): throughput × healthz")
    with Gunicorn(workers=2) as server:
        for name, path, body in (
            ("challenge, audited, open", CHALLENGE, CHALLENGE_BODY),
            ("moves/validate", VALIDATE, VALIDATE_BODY),
        ):
            base, target, ratio = against_healthz(wrk, server, path, body, seconds, rounds=4)
            print(
                f"{name:<34} {target['rps']:>8.0f} req/s vs healthz {base['rps']:.0f}:"
                f" {ratio:.2f}×  (worker CPU {target['cpu_us']:.0f} vs {base['cpu_us']:.0f} µs)"
            )
    with tempfile.TemporaryDirectory(prefix="ruling-cost-") as tmp:
        url = f"sqlite:///{tmp}/t.db"
        store = Store(url)
        migrate.upgrade(store)
        from adjudicator.auth import keys, store_time

        with store.connection(write=True) as conn:
            now = store_time.now()
            bearers = [keys.create(conn, f"b{i}", "app", [], set(), now).key for i in range(1000)]
        store.dispose()
        saved = {
            k: os.environ.get(k)
            for k in ("ADJUDICATOR_MODE", "ADJUDICATOR_RATE_RULINGS_PER_MINUTE")
        }
        os.environ.update(
            ADJUDICATOR_MODE="tournament", ADJUDICATOR_RATE_RULINGS_PER_MINUTE="1000000000"
        )
        try:
            with Gunicorn(workers=2, database_url=url) as server:
                base, target, ratio = against_healthz(
                    wrk, server, CHALLENGE, CHALLENGE_BODY, seconds, rounds=4, bearers=bearers
                )
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        print(
            f"{'challenge, tournament, app key':<34} {target['rps']:>8.0f} req/s vs healthz"
            f" {base['rps']:.0f}: {ratio:.2f}×  (worker CPU {target['cpu_us']:.0f} vs"
            f" {base['cpu_us']:.0f} µs)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--gunicorn", action="store_true")
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL")
    args = parser.parse_args()
    global SYNCHRONOUS
    SYNCHRONOUS = args.synchronous
    print(
        f"# CPython {platform.python_version()}, {os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d')}"
    )
    in_process(args.rounds, args.requests)
    if args.gunicorn:
        under_gunicorn(args.seconds)


if __name__ == "__main__":
    main()
