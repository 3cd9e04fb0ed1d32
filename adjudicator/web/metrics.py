"""`/metrics` in the Prometheus text format, for operators only (`ADJUDICATOR_METRICS=1`).

Counted: requests per endpoint (the route's template, never the path sent), method and status;
their latency per endpoint; rulings per ruleset, kind and verdict, one per ruling, i.e. one per
play under the `play` policy and never per word; the audit log's commits (rulings per commit, the
wait for its append lock and the time it held it). No word is ever a label. The loaded lexicons'
and rulesets' identities are info metrics built at scrape time from what this process serves.

Under gunicorn the counts live in `prometheus_client`'s multiprocess mode: the gunicorn settings
give each instance a fresh `PROMETHEUS_MULTIPROC_DIR` before the app is imported, mark dead
workers on `child_exit`, and every worker's scrape adds up the files of all workers.

Off by default, and then not even routed: rulings per verdict say what other tables were told,
and the latencies differ from run to run, so the endpoint is no part of the public API (nor of
the disclosure test, which compares two services' answers byte for byte). When on, it answers
only clients in `ADJUDICATOR_METRICS_ALLOW` (networks; loopback by default).
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterator

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from adjudicator.environment import multiprocess_metrics_dir
from adjudicator.problems import Problem
from adjudicator.settings import current_settings
from adjudicator.web.access import public
from adjudicator.web.errors import ApiError

REQUESTS = Counter(
    "adjudicator_requests",
    "HTTP requests answered, by route template, method and status",
    ["endpoint", "method", "status"],
)
LATENCY = Histogram(
    "adjudicator_request_duration_seconds",
    "Time from request to answer inside the app, by route template",
    ["endpoint"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
RULINGS = Counter(
    "adjudicator_rulings",
    "Rulings given, one per ruling (per play under the play policy), never per word",
    ["ruleset", "kind", "verdict"],
)
# The audit log's group commit (adjudicator.audit.groupcommit), one observation per transaction:
# how many rulings shared it, how long it waited for the append lock (another process's or box's
# append) and how long it held it (its rows, the head, the commit with its fsync). The lock is the
# service's one point of contention; these show whether it is keeping up.
AUDIT_BATCH = Histogram(
    "adjudicator_audit_batch_rulings",
    "Rulings committed together in one audit-log transaction",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
)
_LOCK_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25)
AUDIT_WAITED = Histogram(
    "adjudicator_audit_lock_wait_seconds",
    "Time an audit-log transaction waited for the append lock",
    buckets=_LOCK_BUCKETS,
)
AUDIT_HELD = Histogram(
    "adjudicator_audit_lock_held_seconds",
    "Time an audit-log transaction held the append lock, its commit included",
    buckets=_LOCK_BUCKETS,
)
UNMATCHED = "<unmatched>"  # a path no route serves: never the path itself (unbounded labels)


def count_ruling(ruleset: str, kind: str, verdict: str | None) -> None:
    """One ruling of `kind` (challenge, move) under `ruleset`; `None` (no ruling) is not one.
    Called once the ruling is recorded (`audit.record.record_ruling`), never for one refused on the way
    or replayed."""
    if verdict is not None and current_settings().metrics:
        RULINGS.labels(ruleset, kind, verdict).inc()


def observe_commit(rulings: int, waited: float, held: float) -> None:
    """One audit-log transaction of `rulings` rulings, committed (`GroupCommit`'s observer)."""
    AUDIT_BATCH.observe(rulings)
    AUDIT_WAITED.observe(waited)
    AUDIT_HELD.observe(held)


class _ServedIdentity(Collector):
    """Info metrics of what this process serves now (after a reload too): built per scrape,
    exposed as they are (a registry would collect them once more to learn their names)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from adjudicator.catalogue import rulesets, served_lexicon
        from adjudicator.lexicon_registry import registry

        lexicons = GaugeMetricFamily(
            "adjudicator_lexicon_info",
            "A loaded lexicon's identity (value 1)",
            labels=["lexicon", "title", "version", "sha256", "stand_in"],
        )
        for lexicon_id, lexicon in sorted(registry().loaded.items()):
            ident = lexicon.identity()
            stand_in = "true" if ident["stand_in"] else "false"
            lexicons.add_metric(
                [lexicon_id, ident["title"], ident["version"], ident["sha256"], stand_in], 1
            )
        yield lexicons
        served = GaugeMetricFamily(
            "adjudicator_ruleset_available",
            "1 when the ruleset's edition in force is loaded, 0 when the ruleset answers 503",
            labels=["ruleset", "lexicon"],
        )
        for ruleset_id, ruleset in sorted(rulesets().items()):
            lexicon = served_lexicon(ruleset)  # the edition in force; never a house build (§4.6)
            named = lexicon.id if lexicon is not None else ruleset.lexicon
            served.add_metric([ruleset_id, named], int(lexicon is not None))
        yield served


def _exposition() -> bytes:
    if multiprocess_metrics_dir():
        counted = CollectorRegistry()
        MultiProcessCollector(counted)  # every worker's files, the dead ones' included
    else:
        counted = REGISTRY  # one process (tests, the development server)
    return generate_latest(counted) + generate_latest(_ServedIdentity())


def _client_allowed() -> bool:
    networks = current_settings().metrics_allow
    try:
        address = ipaddress.ip_address(request.remote_addr or "")
    except ValueError:
        return False
    return any(address in network for network in networks)


def metrics_view() -> Response:
    if not _client_allowed():
        raise ApiError(Problem.METRICS_FORBIDDEN, "/metrics answers only the operators' networks")
    response = Response(_exposition(), content_type=CONTENT_TYPE_LATEST)
    response.headers["Cache-Control"] = "no-store"
    return response


def _start_timer() -> None:
    g.metrics_started = time.perf_counter()


def _count_request(response: Response) -> Response:
    started = g.pop("metrics_started", None)
    rule = request.url_rule
    endpoint = rule.rule if rule is not None else UNMATCHED
    if endpoint == "/metrics":
        return response  # scrapes are not traffic
    REQUESTS.labels(endpoint, request.method, str(response.status_code)).inc()
    if started is not None:
        LATENCY.labels(endpoint).observe(time.perf_counter() - started)
    return response


def init_app(app: Flask) -> None:
    if not current_settings(app).metrics:
        return
    app.before_request(_start_timer)
    app.after_request(_count_request)
    # Its own allow-list guards it; a scraper has no credential even in tournament mode.
    app.add_url_rule("/metrics", "metrics", public(metrics_view), methods=["GET"])
