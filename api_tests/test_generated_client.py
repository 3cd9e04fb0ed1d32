"""A client generated from the documentation site's OpenAPI document works against the
service: openapi-python-client, as an app developer would run it, then three calls with an app
key in tournament mode (issue 37 item 3: the site's copy had no `info.version`, and generators
refused it)."""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path

import pytest

from api_tests.conftest import start_server, store_cli
from tools.docs_hooks import site_openapi

pytestmark = pytest.mark.slow  # a generator run and a server


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    folder = tmp_path_factory.mktemp("generated-client")
    database = f"sqlite:///{folder / 'adjudicator.db'}"
    assert store_cli(database, "db", "upgrade").returncode == 0
    made = store_cli(database, "keys", "create", "--role", "app", "--name", "generated")
    assert made.returncode == 0, made.stderr
    server = start_server(folder, ADJUDICATOR_DATABASE_URL=database, ADJUDICATOR_MODE="tournament")
    yield server, made.stdout.strip()
    server.stop()


@pytest.fixture(scope="module")
def client_package(tmp_path_factory):
    """`openapi-python-client generate` on the site's copy of the document, importable."""
    import subprocess

    folder = tmp_path_factory.mktemp("client")
    document = folder / "openapi.json"
    document.write_text(site_openapi(), encoding="utf-8")
    bin_dir = Path(sys.executable).parent
    done = subprocess.run(
        [str(bin_dir / "openapi-python-client"), "generate", "--path", str(document),
         "--output-path", str(folder / "adjudicator_client"), "--meta", "none"],
        cwd=folder, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("adjudicator_client")
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m.startswith("adjudicator_client")]:
            del sys.modules[name]


def test_a_generated_client_calls_the_service(tournament, client_package):
    server, key = tournament
    from adjudicator_client import AuthenticatedClient, Client
    from adjudicator_client.api.challenges import challenge
    from adjudicator_client.api.rulesets import list_rulesets
    from adjudicator_client.api.service import healthz
    from adjudicator_client.models import ChallengeRequest, Problem, Ruling

    base = f"{server.url}/api/v1"
    health = healthz.sync(client=Client(base_url=base))
    assert health.status == "ok"

    with AuthenticatedClient(base_url=base, token=key) as app:
        listed = list_rulesets.sync(client=app)
        assert "ssf-1999" in {r.id for r in listed.rulesets}
        ruled = challenge.sync("naspa", client=app, body=ChallengeRequest(words=["CAT", "XQZ"]))
        assert isinstance(ruled, Ruling), ruled
        assert ruled.ruling.value == "invalid"

    with AuthenticatedClient(base_url=base, token="adj_app_not-a-key") as stranger:
        refused = challenge.sync("naspa", client=stranger, body=ChallengeRequest(words=["CAT"]))
        assert isinstance(refused, Problem) and refused.code.value == "credential_invalid"
    assert json.loads(site_openapi())["info"]["version"]
