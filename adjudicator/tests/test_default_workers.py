"""The default number of workers, chosen by measurement (benchmarks/machinery.py)."""

from __future__ import annotations

import pytest

from adjudicator import settings


@pytest.mark.parametrize(("cores", "workers"), [(None, 2), (1, 2), (2, 2), (3, 3), (4, 4), (16, 4)])
def test_one_worker_per_core_at_least_two_at_most_four(monkeypatch, cores, workers):
    # On 2 cores, 4 workers gave less throughput, more CPU per ruling and twice the commits.
    monkeypatch.setattr(settings.os, "cpu_count", lambda: cores)
    assert settings.default_workers() == workers
