"""Each piece of the service's speed machinery, measured with and without it, in the same run.

The pieces: group commit (adjudicator.audit.groupcommit) and the number of gunicorn workers a
2-core machine gets by default (adjudicator.settings `default_workers`). A shared-memory
connection balancer was measured here too and removed (docs/explanation/benchmarks.md). Each
variant is a gunicorn on a fresh SQLite store (WAL, `synchronous=FULL`, the default),
challenged over keep-alive connections by `clients` concurrent clients (one client process,
non-blocking sockets: it costs little CPU beside the workers'), for `--seconds` a run. The variants run in rounds, in a rotating order,
and each variant's figures are divided by the reference variant's in the same round: on two
shared cores absolute figures drift between runs, ratios within a round much less. The median
of the rounds is reported, with the range.

Figures per variant: rulings a second, and the mean time a client waited for each answer
(clients / rulings a second: with one client, the latency group commit must not raise); CPU the
workers spent per ruling (user and system, from /proc); and commits per ruling, read from
/metrics (`adjudicator_audit_batch_rulings`): with `synchronous=FULL` each commit is one fsync
of the WAL, so this is fsyncs per ruling. Below each table, each round's commits per ruling
with the split of the connections over the workers (gunicorn's accept: whichever worker wakes
first takes a connection, and often one takes 15 of 16): a worker with one connection has one
ruling in flight, which it commits alone.

Variants (each a switch here, none a setting of the service):
  reference        `adjudicator serve` as shipped: default workers, group commit
  workers=N        the same with N workers
  no group commit  each ruling committed alone (benchmarks/_ungrouped_app.py)

Run by hand: `.venv/bin/python benchmarks/machinery.py [--seconds 3] [--rounds 5]
[--clients 1,4,16] [--variants reference,workers=4,...] [--mode open|tournament]`.
"""

from __future__ import annotations

import argparse
import os
import platform
import selectors
import socket
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _harness import Gunicorn, process_cpu  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402

from adjudicator.settings import default_workers  # noqa: E402
from adjudicator.store import Store, migrate  # noqa: E402

PATH = "/api/v1/rulesets/ssf-1999/challenge"
BODY = orjson.dumps({"words": ["HEJ", "ORD", "QXZVQXZ"]})
KEYS = 2_000
APP = "adjudicator.process.wsgi:app"
VARIANTS = {
    # name: (workers or None for the default, extra gunicorn arguments, app)
    "reference": (None, [], APP),
    "workers=1": (1, [], APP),
    "workers=2": (2, [], APP),
    "workers=3": (3, [], APP),
    "workers=4": (4, [], APP),
    "no group commit": (None, [], "benchmarks._ungrouped_app:app"),
}


def request_bytes(port: int, bearer: str | None) -> bytes:
    head = (
        f"POST {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(BODY)}\r\n"
    )
    if bearer:
        head += f"Authorization: Bearer {bearer}\r\n"
    return (head + "\r\n").encode() + BODY


def load(
    port: int,
    clients: int,
    seconds: float,
    bearers: list[str] | None,
    midway: Callable[[], None] | None = None,
) -> int:
    """`clients` keep-alive connections, each sending the next challenge as soon as the last is
    answered, for `seconds`; the number answered (every answer must be a 200). `midway` is
    called once, half way through, with every connection open."""
    selector = selectors.DefaultSelector()
    requests = [request_bytes(port, b) for b in (bearers or [None])]
    state = {}
    sent = 0
    for _ in range(clients):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(requests[sent % len(requests)])
        sent += 1
        sock.setblocking(False)
        state[sock] = bytearray()
        selector.register(sock, selectors.EVENT_READ)
    answered = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if midway is not None and time.monotonic() > deadline - seconds / 2:
            midway()
            midway = None
        for key, _ in selector.select(timeout=1):
            sock = key.fileobj
            buf = state[sock]
            chunk = sock.recv(65536)
            if not chunk:
                raise SystemExit("the server closed a connection")
            buf += chunk
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                continue
            head = bytes(buf[:end]).lower()
            length = int(head.split(b"content-length:", 1)[1].split(b"\r\n", 1)[0])
            if len(buf) < end + 4 + length:
                continue
            if not head.startswith(b"http/1.1 200"):
                raise SystemExit(f"answer: {bytes(buf[: end + 4 + length])!r}")
            del buf[: end + 4 + length]
            answered += 1
            sock.setblocking(True)
            sock.sendall(requests[sent % len(requests)])
            sock.setblocking(False)
            sent += 1
    for sock in state:
        selector.unregister(sock)
        sock.close()
    return answered


def commits(url: str) -> tuple[float, float]:
    """(commits, rulings committed) so far, from the server's /metrics."""
    with urllib.request.urlopen(url + "/metrics", timeout=10) as r:
        text = r.read().decode()
    seen = {
        s.name: s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name.startswith("adjudicator_audit_batch_rulings") and not s.labels
    }
    return seen["adjudicator_audit_batch_rulings_count"], seen[
        "adjudicator_audit_batch_rulings_sum"
    ]


def split(pids: list[int], port: int) -> str:
    """How many of the established connections to `port` each worker holds, most first
    ("15/1"), from /proc: the sockets each process has open, and the kernel's TCP table."""
    owner = {}
    for pid in pids:
        fds = Path(f"/proc/{pid}/fd")
        for fd in fds.iterdir() if fds.exists() else ():
            try:
                link = os.readlink(fd)
            except OSError:
                continue
            if link.startswith("socket:["):
                owner[link[len("socket:[") : -1]] = pid
    held = dict.fromkeys(pids, 0)
    for path in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(path).read_text().splitlines()[1:]:
            fields = line.split()
            established = fields[3] == "01"
            if established and int(fields[1].rsplit(":", 1)[1], 16) == port and fields[9] in owner:
                held[owner[fields[9]]] += 1
    return "/".join(str(n) for n in sorted(held.values(), reverse=True))


class Server:
    """One variant's gunicorn on its own store, kept across rounds."""

    def __init__(self, name: str, tmp: Path, mode: str):
        workers, args, app = VARIANTS[name]
        self.workers = workers or default_workers()
        url = f"sqlite:///{tmp}/{name.replace(' ', '_').replace('=', '')}.db"
        store = Store(url)
        migrate.upgrade(store)
        self.bearers = None
        if mode == "tournament":
            from adjudicator.auth import keys, store_time

            with store.connection(write=True) as conn:
                now = store_time.now()
                self.bearers = [
                    keys.create(conn, f"b{i}", "app", [], set(), now).key for i in range(KEYS)
                ]
        store.dispose()
        self.server = Gunicorn(
            workers=self.workers, database_url=url, app=app, extra_args=args
        ).__enter__()

    def run(self, clients: int, seconds: float) -> dict[str, float | str]:
        pids = self.server.worker_pids()
        load(self.server.port, clients, 0.3, self.bearers)  # warm: connections, caches
        c0, r0 = commits(self.server.url)
        cpu0 = process_cpu(pids)
        started = time.monotonic()
        seen = []
        probe = lambda: seen.append(split(pids, self.server.port))  # noqa: E731
        answered = load(self.server.port, clients, seconds, self.bearers, probe)
        took = time.monotonic() - started
        cpu = process_cpu(pids) - cpu0
        c1, r1 = commits(self.server.url)
        return {
            "rps": answered / took,
            "cpu_us": cpu * 1e6 / os.sysconf("SC_CLK_TCK") / max(1, answered),
            "commits": (c1 - c0) / max(1, r1 - r0),
            "split": seen[0] if seen else "?",
        }

    def stop(self) -> None:
        self.server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clients", default="1,4,16")
    parser.add_argument("--variants", default="reference,workers=1,workers=4,no group commit")
    parser.add_argument("--mode", choices=["open", "tournament"], default="open")
    args = parser.parse_args()
    names = [n.strip() for n in args.variants.split(",")]
    for name in names:
        if name not in VARIANTS:
            parser.error(f"unknown variant {name!r}: one of {', '.join(VARIANTS)}")
    client_counts = [int(c) for c in args.clients.split(",")]
    saved = {
        k: os.environ.get(k)
        for k in ("ADJUDICATOR_METRICS", "ADJUDICATOR_MODE", "ADJUDICATOR_RATE_RULINGS_PER_MINUTE")
    }
    os.environ["ADJUDICATOR_METRICS"] = "1"  # the commit counts; the same cost for every variant
    if args.mode == "tournament":
        os.environ["ADJUDICATOR_MODE"] = "tournament"
        os.environ["ADJUDICATOR_RATE_RULINGS_PER_MINUTE"] = "1000000000"
    print(
        f"# CPython {platform.python_version()}, {os.cpu_count()} CPUs,"
        f" {time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.1f};"
        f" {args.mode} mode, SQLite synchronous=FULL, {args.rounds} rounds of {args.seconds:g} s"
    )
    print(f"# reference: {default_workers()} workers (the default here), group commit")
    with tempfile.TemporaryDirectory(prefix="machinery-") as tmp:
        servers: dict[str, Server] = {}
        try:
            for name in names:
                servers[name] = Server(name, Path(tmp), args.mode)
            for clients in client_counts:
                runs: dict[str, list[dict]] = {n: [] for n in names}
                for r in range(args.rounds):
                    order = names[r % len(names) :] + names[: r % len(names)]
                    for name in order:
                        runs[name].append(servers[name].run(clients, args.seconds))
                report(names, runs, clients)
        finally:
            for server in servers.values():
                server.stop()
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def report(names: list[str], runs: dict[str, list[dict]], clients: int) -> None:
    ref = runs[names[0]]
    print(f"\n{clients} concurrent clients")
    print(
        f"  {'variant':<18}{'rulings/s':>10}  {'× ref (range)':<18}{'ms/answer':>10}"
        f"{'CPU µs/ruling':>15}"
        f"  {'× ref (range)':<18}{'commits/ruling':>15}"
    )
    for name in names:
        rows = runs[name]

        def ratio(key: str, rows=rows) -> str:
            values = sorted(row[key] / base[key] for row, base in zip(rows, ref, strict=True))
            return f"{statistics.median(values):.2f} ({values[0]:.2f}–{values[-1]:.2f})"

        med = lambda key, rows=rows: statistics.median(row[key] for row in rows)  # noqa: E731
        print(
            f"  {name:<18}{med('rps'):>10.0f}  {ratio('rps'):<18}"
            f"{clients * 1e3 / med('rps'):>10.2f}{med('cpu_us'):>15.0f}"
            f"  {ratio('cpu_us'):<18}{med('commits'):>15.2f}"
        )
    if clients > 1:
        print("  commits per ruling by round, with the connections per worker:")
        for name in names:
            rounds = ", ".join(f"{row['commits']:.2f} ({row['split']})" for row in runs[name])
            print(f"  {name:<18}{rounds}")


if __name__ == "__main__":
    main()
