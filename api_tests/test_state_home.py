"""Issue 28 item 8: an installed service keeps its state in one place, its instance folder
(`ADJUDICATOR_INSTANCE_DIR`, by default Flask's instance folder for the package): the SQLite
store and the run directory live under it whatever folder a command starts in, so
`adjudicator reload` finds the instance `adjudicator serve` started from another folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from api_tests.conftest import address, start_server

# A server and a reload (a fresh process loads every lexicon): seconds.
pytestmark = pytest.mark.slow

ADJUDICATOR = Path(sys.executable).with_name("adjudicator")


def test_reload_from_another_folder_finds_the_instance_serve_started(tmp_path):
    state = tmp_path / "state"
    # `adjudicator serve` from the checkout, its run directory and store left to their
    # defaults (an empty variable counts as unset).
    server = start_server(
        tmp_path / "logs",
        ADJUDICATOR_RUN_DIR="",
        ADJUDICATOR_DATABASE_URL="",
        ADJUDICATOR_INSTANCE_DIR=str(state),
    )
    try:
        host, port = address(server.url)
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        # The operator's shell: the same settings, another folder, no --run-dir.
        env = {k: v for k, v in os.environ.items() if not k.startswith("ADJUDICATOR_")}
        env |= {"ADJUDICATOR_BIND": f"{host}:{port}", "ADJUDICATOR_INSTANCE_DIR": str(state)}
        done = subprocess.run(
            [str(ADJUDICATOR), "reload", "--timeout", "20"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=elsewhere,
            env=env,
        )
        assert done.returncode == 0, done.stderr
        assert "reloaded in" in done.stdout
        assert (state / "run" / f"{host}-{port}" / "gunicorn.pid").is_file()
        assert (state / "adjudicator.db").is_file()
        assert not (elsewhere / "instance").exists()
    finally:
        server.stop()
