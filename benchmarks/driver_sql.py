"""The hot statements sent straight to the driver (adjudicator.store.driver: the SQL each of
`audit.chain`, `auth.prepared` and `web.idempotency` writes once per dialect), against the same
statements through SQLAlchemy, in the same run.

Each round runs, on one SQLite connection in one write transaction rolled back at the end, the
statements of a tournament ruling's store work (the chain head read, the app key looked up,
the rate count's INSERT … SELECT, the old hits dropped) in three ways:
  driver   as the service runs them: plain SQL on the driver's cursor (`store.driver`)
  text     the same SQL as `sqlalchemy.text()` with named parameters (one text for every
           dialect: SQLAlchemy converts the placeholders and caches the compiled form)
  core     the same statements built with SQLAlchemy Core (`select`, `insert`, `delete`,
           made once and reused, so SQLAlchemy's statement cache applies; the count is a
           SELECT before the INSERT, as Core writes it)
The figure is CPU per statement set (`process_time`) as a ratio to the driver's in the same
round; median and range of the rounds. It is the saving that keeps the per-dialect SQL.

Run by hand: `.venv/bin/python benchmarks/driver_sql.py [--rounds 9] [--sets 500]`.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from adjudicator.audit import chain  # noqa: E402
from adjudicator.auth import keys, prepared, store_time  # noqa: E402
from adjudicator.auth.tokens import digest  # noqa: E402
from adjudicator.store import Store, driver, migrate  # noqa: E402
from adjudicator.store.credentials import ApiKey, RateHit  # noqa: E402
from adjudicator.store.models import AuditHead  # noqa: E402


def main() -> None:
    from datetime import timedelta

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--sets", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="driver-sql-") as tmp:
        store = Store(f"sqlite:///{tmp}/s.db")
        migrate.upgrade(store)
        with store.connection(write=True) as conn:
            key = keys.create(conn, "bench", "app", [], set(), store_time.now()).key
        hashed = digest(key)
        hits, api_keys, head = RateHit.__table__, ApiKey.__table__, AuditHead.__table__
        span = timedelta(seconds=60)
        core = {
            "head": sa.select(head.c.seq, head.c.hash).where(head.c.id == 1),
            "key": sa.select(
                api_keys.c.id, api_keys.c.name, api_keys.c.scopes, api_keys.c.last_used_at
            ).where(api_keys.c.key_hash == sa.bindparam("h"), api_keys.c.revoked_at.is_(None)),
            "count": sa.select(sa.func.count())
            .select_from(hits)
            .where(hits.c.key == sa.bindparam("k"), hits.c.at > sa.bindparam("since")),
            "add": sa.insert(hits),
            "drop": sa.delete(hits).where(
                hits.c.key == sa.bindparam("k"), hits.c.at <= sa.bindparam("since")
            ),
        }
        texts = {
            "head": sa.text("SELECT seq, hash FROM audit_head WHERE id = 1"),
            "key": sa.text(
                "SELECT id, name, scopes, last_used_at FROM api_keys"
                " WHERE key_hash = :h AND revoked_at IS NULL"
            ),
            "add": sa.text(
                "INSERT INTO rate_hits (key, at, tie) SELECT :k, :at, :tie WHERE (SELECT"
                " count(*) FROM rate_hits WHERE key = :k AND at > :since) < :limit"
            ).bindparams(
                sa.bindparam("at", type_=hits.c.at.type),
                sa.bindparam("since", type_=hits.c.at.type),
            ),
            "drop": sa.text("DELETE FROM rate_hits WHERE key = :k AND at <= :since").bindparams(
                sa.bindparam("since", type_=hits.c.at.type)
            ),
        }

        def by_driver(conn, now):
            sql = prepared.statements(conn)
            driver.one(conn, chain._sql(conn).lock_head)
            driver.one(conn, sql.key_by_hash, (hashed,))
            at, since = sql.to_db(now), sql.to_db(now - span)
            tie = random.getrandbits(63)
            driver.change(conn, sql.add_hit_if_room, ("k", at, tie, "k", since, 10**9))
            driver.change(conn, sql.drop_old_hits, ("k", since))

        def by_text(conn, now):
            conn.execute(texts["head"]).one()
            conn.execute(texts["key"], {"h": hashed}).one()
            tie = random.getrandbits(63)
            params = {"k": "k", "at": now, "tie": tie, "since": now - span, "limit": 10**9}
            conn.execute(texts["add"], params)
            conn.execute(texts["drop"], {"k": "k", "since": now - span})

        def by_core(conn, now):
            conn.execute(core["head"]).one()
            conn.execute(core["key"], {"h": hashed}).one()
            (used,) = conn.execute(core["count"], {"k": "k", "since": now - span}).one()
            if used < 10**9:
                tie = random.getrandbits(63)
                conn.execute(core["add"], {"key": "k", "at": now, "tie": tie})
            conn.execute(core["drop"], {"k": "k", "since": now - span})

        ways = {"driver": by_driver, "text": by_text, "core": by_core}
        ratios: dict[str, list[float]] = {name: [] for name in ways}
        times: dict[str, list[float]] = {name: [] for name in ways}
        for r in range(args.rounds):
            names = list(ways)
            order = names[r % 3 :] + names[: r % 3]
            measured = {}
            for name in order:
                with store.connection(write=True) as conn:
                    now = store_time.now()
                    for _ in range(20):  # warm
                        ways[name](conn, now)
                    started = time.process_time_ns()
                    for i in range(args.sets):
                        ways[name](conn, now + timedelta(microseconds=i))
                    measured[name] = (time.process_time_ns() - started) / args.sets / 1000
                    conn.rollback()
            for name in names:
                times[name].append(measured[name])
                ratios[name].append(measured[name] / measured["driver"])
        store.dispose()
    print(
        f"# CPython {platform.python_version()}, {os.cpu_count()} CPUs,"
        f" {time.strftime('%Y-%m-%d')}, SQLAlchemy {sa.__version__}; {args.rounds} rounds of"
        f" {args.sets} statement sets (4 statements: head, key, rate count, drop; core: 5)"
    )
    print(f"{'way':<8}{'µs per set':>12}  × driver (range)")
    for name in ways:
        spread = sorted(ratios[name])
        print(
            f"{name:<8}{statistics.median(times[name]):>12.0f}  {statistics.median(spread):.2f}"
            f" ({spread[0]:.2f}–{spread[-1]:.2f})"
        )


if __name__ == "__main__":
    main()
