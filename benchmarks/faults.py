"""Faults under load, heavier than the tests in api_tests/test_front.py and test_lexicon_swap.py:
more slow sockets, longer runs, repeated kills and swaps, and the same faults without nginx for
comparison. Real nginx (Debian's) and gunicorn processes on loopback.

Run by hand: `.venv/bin/python benchmarks/faults.py [--seconds 12]`; the latest output is in
benchmarks/faults.out.txt and the README.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from _harness import ensure_debian, worker_label  # noqa: E402

from adjudicator.tests.conftest import build_lexicon  # noqa: E402
from api_tests.conftest import LEXICON_DIR, start_server  # noqa: E402
from api_tests.front import SlowClients, start_nginx  # noqa: E402
from api_tests.load import CHALLENGE, MIX, SWEDISH_PROBE, Load, Outcome  # noqa: E402
from compiler.install import install  # noqa: E402
from lexicon import artifact  # noqa: E402

UNLIMITED = {"rate": 100000, "burst": 100000, "connections": 10000}
ADJUDICATOR = Path(sys.executable).with_name("adjudicator")


def netloc(server) -> str:
    return urlparse(server.url).netloc


def failures(outcomes: list[Outcome]) -> str:
    bad = [o for o in outcomes if not o.ok]
    kinds: dict[str, int] = {}
    for o in bad:
        kinds[o.error or str(o.status)] = kinds.get(o.error or str(o.status), 0) + 1
    detail = ", ".join(f"{k} ×{v}" for k, v in sorted(kinds.items()))
    return f"{len(outcomes):>6} requests {len(bad):>5} failed" + (f" ({detail})" if detail else "")


def latency(outcomes: list[Outcome]) -> str:
    times = sorted((o.end - o.start) * 1000 for o in outcomes if o.ok)
    if not times:
        return "no answers"
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    within = sum(1 for o in outcomes if o.ok and o.end - o.start < 1.0) / len(outcomes)
    return f"p50 {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, {within:.1%} within 1 s"


def slow_clients(tmp: Path, seconds: float, sockets: int) -> None:
    print(f"\n1. {sockets} slow sockets (1 byte/s: half headers, half bodies), legitimate load")
    server = start_server(tmp / "slow", ADJUDICATOR_ACCESS_LOG="/dev/null")
    try:
        host, port = "127.0.0.1", urlparse(server.url).port
        with SlowClients(host, port, count=sockets) as slow:
            load = Load(
                server.url, threads=2, pause=0.05, max_requests=100, max_seconds=seconds, timeout=2
            )
            with load:
                out = load.wait()
        print(f"   gunicorn alone  {slow.opened} open: {failures(out)}; {latency(out)}")
        front = start_nginx(tmp / "slow-nginx", [netloc(server)], workers=2, **UNLIMITED)
        try:
            port = urlparse(front.url).port
            with SlowClients(host, port, count=sockets) as slow:
                load = Load(front.url, threads=4, max_requests=100000, max_seconds=seconds)
                with load:
                    out = load.wait()
            print(f"   behind nginx    {slow.opened} open: {failures(out)}; {latency(out)}")
        finally:
            front.stop()
    finally:
        server.stop()


def worker_kills(tmp: Path, seconds: float) -> None:
    print(
        f"\n2. SIGKILL of a worker every 2 s for {seconds:g} s, under load (POSTs carry "
        "Idempotency-Key)"
    )
    for behind_nginx in (False, True):
        server = start_server(
            tmp / f"kill-{behind_nginx}",
            ADJUDICATOR_ACCESS_LOG="/dev/null",
            ADJUDICATOR_WORKERS="2",
        )
        front = (
            start_nginx(tmp / "kill-nginx", [netloc(server)], **UNLIMITED) if behind_nginx else None
        )
        kills = 0
        try:
            with Load(
                (front or server).url, threads=4, max_requests=10**6, max_seconds=seconds
            ) as load:
                end = time.monotonic() + seconds - 1
                while time.monotonic() < end:
                    time.sleep(2)
                    os.kill(server.workers()[0], signal.SIGKILL)
                    kills += 1
            label = "behind nginx  " if behind_nginx else "gunicorn alone"
            print(f"   {label}  {kills} kills: {failures(load.outcomes)}")
        finally:
            if front:
                front.stop()
            server.stop()


def _reload(server) -> tuple[int, float, float]:
    """Exit code, seconds for the whole command, seconds of the switch it reports (SIGHUP
    until every old worker has left)."""
    start = time.monotonic()
    done = subprocess.run(
        [str(ADJUDICATOR), "reload", "--run-dir", str(server.run_dir)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    took = time.monotonic() - start
    switch = re.search(r"reloaded in ([\d.]+) s", done.stdout)
    return done.returncode, took, float(switch.group(1)) if switch else float("nan")


def hot_swaps(tmp: Path, swaps: int) -> None:
    print(f"\n3. {swaps} hot swaps (install + adjudicator reload) under load behind nginx")
    deploy = tmp / "swap-deploy"
    install(sorted(LEXICON_DIR.glob("*.json")), deploy)
    builds = [
        LEXICON_DIR / "wswedish.json",
        build_lexicon(tmp / "swap-new", "wswedish", "sv", SWEDISH_PROBE) / "wswedish.json",
    ]
    truth = {}
    for b in builds:
        lex = artifact.load(b)
        ok = all(lex.normaliser.query(w) in lex for w in SWEDISH_PROBE)
        truth[lex.identity()["sha256"]] = "valid" if ok else "invalid"
    server = start_server(
        tmp / "swap", ADJUDICATOR_ACCESS_LOG="/dev/null", ADJUDICATOR_LEXICON_DIR=str(deploy)
    )
    front = start_nginx(tmp / "swap-nginx", [netloc(server)], **UNLIMITED)
    commands, switches, windows, late = [], [], [], 0
    try:
        with Load(
            front.url, mix=[CHALLENGE], threads=4, max_requests=10**6, max_seconds=swaps * 12
        ) as load:
            for i in range(swaps):
                time.sleep(2)
                build = builds[(i + 1) % 2]
                new_sha = artifact.read_manifest(build)["marisa"]["sha256"]
                install([build], deploy)
                issued = time.monotonic()
                code, took, switch = _reload(server)
                done = time.monotonic()
                assert code == 0, "reload failed"
                commands.append(took)
                switches.append(switch)
                time.sleep(1)
                seen = [o for o in list(load.outcomes) if o.start >= issued - 0.001]
                first_new = min((o.end for o in seen if o.sha == new_sha), default=done)
                last_old = max(
                    (o.end for o in seen if o.ok and o.sha != new_sha), default=first_new
                )
                windows.append(max(0.0, last_old - first_new))
                late += sum(1 for o in seen if o.start > done and o.sha != new_sha)
        out = load.outcomes
        wrong = sum(1 for o in out if o.ok and truth[o.sha] != o.body["ruling"])
        print(f"   {failures(out)}; answers from another build than named: {wrong}")
        print(
            f"   `adjudicator reload` took {min(commands):.2f}–{max(commands):.2f} s in all (checking "
            f"first); the switch itself, SIGHUP until the last old worker left, "
            f"{min(switches):.2f}–{max(switches):.2f} s"
        )
        print(
            f"   old and new answered side by side for {min(windows) * 1000:.0f}–{max(windows) * 1000:.0f} ms; "
            f"old answers to requests sent after the command returned: {late}"
        )
    finally:
        front.stop()
        server.stop()


def overwrites(tmp: Path, seconds: float) -> None:
    print(
        f"\n4. `cp` of another build over the served trie, in place, every 0.5 s for {seconds:g} s"
    )
    plain = tmp / "cp-lexicons"
    shutil.copytree(LEXICON_DIR, plain)
    other = build_lexicon(tmp / "cp-new", "wswedish", "sv", SWEDISH_PROBE) / "wswedish.marisa"
    original = (plain / "wswedish.marisa").read_bytes()
    served = artifact.load(plain / "wswedish.json")
    expected = (
        "valid" if all(served.normaliser.query(w) in served for w in SWEDISH_PROBE) else "invalid"
    )
    server = start_server(
        tmp / "cp", ADJUDICATOR_ACCESS_LOG="/dev/null", ADJUDICATOR_LEXICON_DIR=str(plain)
    )
    try:
        with Load(
            server.url, mix=[CHALLENGE], threads=4, max_requests=10**6, max_seconds=seconds
        ) as load:
            end = time.monotonic() + seconds - 0.5
            flip = 0
            while time.monotonic() < end:
                time.sleep(0.5)
                if flip % 2:
                    (plain / "wswedish.marisa").write_bytes(original)
                else:
                    shutil.copyfile(other, plain / "wswedish.marisa")
                flip += 1
        out = load.outcomes
        wrong = sum(
            1
            for o in out
            if o.ok and (o.sha != served.identity()["sha256"] or o.body["ruling"] != expected)
        )
        print(f"   {flip} overwrites: {failures(out)}; answers not from the named build: {wrong}")
    finally:
        server.stop()


def stop_instance(tmp: Path, seconds: float) -> None:
    print(f"\n5. two instances behind one nginx upstream; one stopped under load ({seconds:g} s)")
    for how in ("SIGTERM (systemctl stop)", "SIGKILL of master and workers"):
        (tmp / "a").mkdir(exist_ok=True)
        (tmp / "b").mkdir(exist_ok=True)
        a = start_server(tmp / "a", ADJUDICATOR_ACCESS_LOG="/dev/null", ADJUDICATOR_WORKERS="2")
        b = start_server(tmp / "b", ADJUDICATOR_ACCESS_LOG="/dev/null", ADJUDICATOR_WORKERS="2")
        front = start_nginx(tmp / "pair-nginx", [netloc(a), netloc(b)], **UNLIMITED)
        try:
            with Load(
                front.url, mix=MIX, threads=4, max_requests=10**6, max_seconds=seconds
            ) as load:
                time.sleep(seconds / 3)
                if how.startswith("SIGTERM"):
                    a.process.send_signal(signal.SIGTERM)
                else:
                    workers = a.workers()
                    a.process.kill()
                    for pid in workers:
                        os.kill(pid, signal.SIGKILL)
            print(f"   {how:<32} {failures(load.outcomes)}; {latency(load.outcomes)}")
        finally:
            front.stop()
            a.stop()
            b.stop()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=12)
    p.add_argument("--slow-sockets", type=int, default=200)
    p.add_argument("--swaps", type=int, default=5)
    args = p.parse_args()
    nginx_path = ensure_debian("nginx", "nginx")
    nginx = subprocess.run([nginx_path, "-v"], capture_output=True, text=True).stderr.strip()
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
        f"{nginx}; gunicorn workers: {worker_label()}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        os.environ["ADJUDICATOR_DATABASE_URL"] = f"sqlite:///{t / 'adjudicator.db'}"
        slow_clients(t, args.seconds, args.slow_sockets)
        worker_kills(t, args.seconds)
        hot_swaps(t, args.swaps)
        overwrites(t, args.seconds)
        stop_instance(t, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
