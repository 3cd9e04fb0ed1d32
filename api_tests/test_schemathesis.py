"""schemathesis against the live gunicorn: no input gives a 5xx, no answer breaks the OpenAPI
document, and nothing the document refuses is accepted.

A fixed seed and a bounded number of examples per operation keep it reproducible and under a
minute on two cores. The checks left out: `positive_data_acceptance`, because JSON Schema cannot
say which letters a language has, what notation or a GCG record must hold, or what one ruleset
needs that another does not (a schema-valid `{"play": "HEJ"}` is still not notation); those
refusals are documented 400/422 problems with a code and a field. The authorisation checks
(`ignored_auth`, `object_level_authorization`) and resource checks (`use_after_free`,
`ensure_resource_availability`) have nothing to test: the API holds no resources and no
authentication.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SEED = 20261202
EXAMPLES = 20
SKIPPED_CHECKS = (
    "positive_data_acceptance",
    "ignored_auth",
    "object_level_authorization",
    "use_after_free",
    "ensure_resource_availability",
)


def test_schemathesis_finds_nothing(server, tmp_path):
    cli = Path(sys.executable).with_name("schemathesis")
    command = [
        str(cli),
        "run",
        server.api("/openapi.json"),
        "--checks",
        "all",
        "--exclude-checks",
        ",".join(SKIPPED_CHECKS),
        "--phases",
        "examples,coverage,fuzzing",
        "--max-examples",
        str(EXAMPLES),
        "--seed",
        str(SEED),
        "--no-shrink",
        # Hypothesis' own speed check on generating data: on a crowded machine it fails for
        # reasons that say nothing about the service.
        "--suppress-health-check",
        "too_slow",
        # One worker: with two (threads), a clean-clone CI run failed inside the tool, in
        # Hypothesis' lambda descriptions, after every request had passed. One is as quick here.
        "--workers",
        "1",
        "--request-timeout",
        "30",
        "--max-response-time",  # the machine is shared: time is measured by the benchmarks
        "30",
    ]
    run = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=240, check=False
    )
    report = run.stdout[-6000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    assert "Traceback" not in server.log.read_text(errors="replace"), server.log.read_text()[-4000:]
