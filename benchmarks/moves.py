"""Move validation and scoring speed, in process, on every play of the real records.

Measures, in one run on one machine:
- baseline: parsing each play's notation only (`notation.parse_parts`);
- evaluate: `evaluate_move` = parse + every placement check + words + scores (the engine's
  whole answer for one play, no lexicon);
- replay: reading and replaying whole records (GCG parsing, placement, scoring, board updates).

Target: a median play ≤ 50 µs. Run: `.venv/bin/python benchmarks/moves.py [--repeat 200]`.
Over HTTP: the validate endpoint's throughput against GET /healthz on the same gunicorn, in the
same run (wrk; target ≥ 0.75 × healthz).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

from adjudicator.engine.evaluate import evaluate_move
from adjudicator.engine.notation import parse_parts, render
from adjudicator.engine.tests.corpus import RECORDS, gcg_files
from adjudicator.game.gcg import GcgError, read, resolve_language
from adjudicator.game.walk import positions, walk
from adjudicator.rulesets import load_rulesets
from lexicon.languages import available_languages, load_profile

REPO = Path(__file__).resolve().parents[1]
TARGET_US = 50.0
RULES = load_rulesets()["naspa"]  # the records are English


def load_records():
    """Readable records with their profile; refused ones (Polish, odd encodings) skipped."""
    out = []
    for path in gcg_files():
        try:
            record = read(path)
            profile = load_profile(resolve_language(record, "en", available_languages()))
        except GcgError as exc:
            print(f"  skipped: {str(exc).replace(str(path), str(path.relative_to(REPO)))}")
            continue
        out.append((path, record, profile))
    return out


def per_play_us(cases, fn, repeat: int) -> list[float]:
    """Mean µs of `fn(case)` over `repeat` calls, for each case."""
    times = []
    clock = time.perf_counter_ns
    for case in cases:
        fn(case)  # warm caches
        start = clock()
        for _ in range(repeat):
            fn(case)
        times.append((clock() - start) / repeat / 1000)
    return times


def in_process_part(repeat: int) -> None:
    records = load_records()
    cases = []
    for _path, record, profile in records:
        for board, play in positions(record, RULES, profile):
            coord, word = render(play, board).split(" ")
            cases.append((profile, board, play, coord, word))
    if not cases:
        sys.exit(f"no records in {RECORDS}")

    def baseline(case):
        profile, board, _play, coord, word = case
        return parse_parts(coord, word, profile, board)

    def evaluate(case):
        profile, board, _play, coord, word = case
        return evaluate_move(profile, board, f"{coord} {word}")

    base = per_play_us(cases, baseline, repeat)
    full = per_play_us(cases, evaluate, repeat)

    rounds = max(1, repeat // 20)
    start = time.perf_counter()
    plays = 0
    for _ in range(rounds):
        for path, _record, profile in records:
            plays += walk(read(path), RULES, profile).plays
    elapsed = time.perf_counter() - start

    med_base, med_full = statistics.median(base), statistics.median(full)
    p95 = statistics.quantiles(full, n=20)[-1]
    print(f"records: {len(records)} readable, {len(cases)} plays; {repeat} calls per play")
    print(f"baseline  parse notation only      median {med_base:7.1f} µs/play")
    print(
        f"evaluate  parse+check+words+score  median {med_full:7.1f} µs/play  "
        f"(p95 {p95:.1f}, max {max(full):.1f}; {med_full / med_base:.1f}× baseline)"
    )
    print(f"          = {1e6 / statistics.mean(full):,.0f} plays validated+scored per second")
    print(
        f"replay    read+replay whole records {plays / elapsed:,.0f} plays/s "
        f"({rounds} rounds of {len(records)} files)"
    )
    verdict = "meets" if med_full <= TARGET_US else "MISSES"
    print(f"target    median ≤ {TARGET_US:.0f} µs/play: {verdict}")


# A mid-game position: KATT across row 8; the play forms OM across and KO, AM down.
HTTP_PATH = "/api/v1/rulesets/ssf-1999/moves/validate"
HTTP_BODY = {
    "board": ["." * 15] * 7 + ["." * 7 + "KATT" + "." * 4] + ["." * 15] * 7,
    "play": "9H OM",
    "rack": "OMEHSTA",
}
HTTP_TARGET = 0.75


def http_part(seconds: int) -> None:
    """The validate endpoint's throughput over HTTP against GET /healthz on the same server."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _harness import CONNECTIONS, Gunicorn, against_healthz, ensure_wrk

    wrk = ensure_wrk()
    with Gunicorn(workers=2) as server:
        healthz, validate, ratio = against_healthz(wrk, server, HTTP_PATH, HTTP_BODY, seconds)
    print(
        f"http      wrk, {CONNECTIONS} connections, gunicorn 2 workers, median of 8 "
        f"interleaved {seconds} s rounds"
    )
    print(
        f"          GET /healthz {healthz['rps']:,.0f} req/s (p99 {healthz['p99']:.1f} ms); "
        f"POST moves/validate {validate['rps']:,.0f} req/s (p99 {validate['p99']:.1f} ms)"
    )
    verdict = "meets" if ratio >= HTTP_TARGET else "MISSES"
    print(f"target    validate/healthz ≥ {HTTP_TARGET}: {ratio:.2f}, {verdict}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="calls per play (default 200)")
    parser.add_argument("--seconds", type=int, default=3, help="per HTTP run (8 pairs)")
    parser.add_argument("--no-http", action="store_true", help="skip the HTTP part")
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.system()}")
    in_process_part(args.repeat)
    if not args.no_http:
        http_part(args.seconds)


if __name__ == "__main__":
    main()
