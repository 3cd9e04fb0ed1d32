"""Which argon2id parameters a director's login can afford (issue 36.9): every row of OWASP's
Password Storage Cheat Sheet table for argon2id (each as strong as the others) against
argon2-cffi's default (RFC 9106 low-memory: 64 MiB, t=3, p=4), then a whole login with the
parameters the service uses (`adjudicator.auth.passwords`), right, wrong and unknown name.

Rounds are interleaved (every row once per round, in a rotating order); each row's wall time
per verify (`time.perf_counter`) is taken per round and the medians are printed in milliseconds
and as ratios to the default's. A login is `POST /director/login` through the app in process on
a scratch SQLite store (the lockout's write, argon2, the session's write): its medians, and the
wrong and unknown logins' as ratios to the right one's, which must be about 1 (the answer's
time says nothing of whether the password or the name was wrong). The target: a login under
0.5 s on the 2-core event laptop, loaded or not.

Run: `.venv/bin/python benchmarks/argon2_params.py [--rounds 9]`.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from argon2 import PasswordHasher  # noqa: E402

from adjudicator.auth import passwords  # noqa: E402

PASSWORD = "correct horse battery staple"
BUDGET_S = 0.5  # a whole login, on this machine


def _rows() -> list[tuple[str, PasswordHasher]]:
    default = PasswordHasher()
    rows = [(f"default m={default.memory_cost // 1024} MiB t={default.time_cost} "
             f"p={default.parallelism}", default)]  # fmt: skip
    for i, (m, t, p) in enumerate(passwords.OWASP_ROWS):
        mark = "  (used)" if i == passwords.CHOSEN else ""
        label = f"OWASP m={m // 1024} MiB t={t} p={p}{mark}"
        rows.append((label, passwords.make_hasher(m, t, p)))
    return rows


def verify_times(rounds: int) -> list[tuple[str, float]]:
    """Each row's median seconds per verify of the right password."""
    rows = _rows()
    hashes = [hasher.hash(PASSWORD) for _, hasher in rows]
    times: list[list[float]] = [[] for _ in rows]
    for r in range(rounds):
        order = list(range(len(rows)))
        order = order[r % len(order) :] + order[: r % len(order)]
        for i in order:
            started = time.perf_counter()
            rows[i][1].verify(hashes[i], PASSWORD)
            times[i].append(time.perf_counter() - started)
    return [(label, statistics.median(t)) for (label, _), t in zip(rows, times, strict=True)]


def login_times(rounds: int) -> dict[str, float]:
    """Median seconds of a whole login: right, wrong password, unknown name."""
    from dataclasses import replace

    from adjudicator import create_app, store
    from adjudicator.auth import directors, lockout, store_time
    from adjudicator.store import Store, migrate

    folder = tempfile.mkdtemp(prefix="argon2-bench-")
    url = f"sqlite:///{folder}/adjudicator.db"
    migrate.upgrade(Store(url))
    # the wrong ones must not lock the account
    lockout.LOGIN = replace(lockout.LOGIN, attempts=10 * rounds, account_attempts=100 * rounds)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": url,
            "MODE": "tournament",
            "LEXICON_DIR": str(ROOT / "instance" / "lexicons"),
        }
    )
    with app.app_context(), store.connection(write=True) as conn:
        directors.add(conn, "anna", PASSWORD, store_time.now())
    client = app.test_client()
    cases = {
        "right": ("anna", PASSWORD),
        "wrong": ("anna", PASSWORD + "x"),
        "unknown": ("bo", PASSWORD),
    }
    expected = {"right": 303, "wrong": 401, "unknown": 401}
    times: dict[str, list[float]] = {case: [] for case in cases}
    names = list(cases)
    for r in range(rounds):
        for case in names[r % 3 :] + names[: r % 3]:
            name, password = cases[case]
            started = time.perf_counter()
            answer = client.post("/director/login", data={"name": name, "password": password})
            times[case].append(time.perf_counter() - started)
            assert answer.status_code == expected[case], (case, answer.status_code)
    return {case: statistics.median(t) for case, t in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"argon2_params: {args.rounds} interleaved rounds; wall time per verify, medians; "
        f"load average {load:.1f} on {os.cpu_count()} CPUs"
    )
    print(f"python {platform.python_version()}, argon2-cffi {version('argon2-cffi')}, "
          f"{platform.machine()}")  # fmt: skip
    print()
    found = verify_times(args.rounds)
    base = found[0][1]
    print(f"{'parameters':<36}{'verify':>10}{'ratio':>9}")
    for label, seconds in found:
        print(f"{label:<36}{seconds * 1000:>8.0f} ms{seconds / base:>8.2f}×")
    print()
    logins = login_times(args.rounds)
    right = logins["right"]
    m, t, p = passwords.OWASP_ROWS[passwords.CHOSEN]
    print(f"a whole login with m={m // 1024} MiB t={t} p={p} (budget {BUDGET_S:.1f} s)")
    for case, seconds in logins.items():
        verdict = "within" if seconds < BUDGET_S else "OVER"
        print(
            f"  {case:<8}{seconds * 1000:>7.0f} ms{seconds / right:>7.2f}× the right one's,"
            f" {seconds / BUDGET_S:.2f}× the budget ({verdict})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
