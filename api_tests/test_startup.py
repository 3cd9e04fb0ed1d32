"""Starting the service: a broken ruleset file stops gunicorn with one line, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from api_tests.conftest import LEXICON_DIR, ROOT, free_port


def test_bad_ruleset_file_stops_the_start_with_file_and_field(tmp_path):
    bundled = ROOT / "adjudicator" / "rulesets" / "ssf-1999.toml"
    text = bundled.read_text(encoding="utf-8").replace('policy = "play"', 'policy = "loud"')
    (tmp_path / "ssf-1999.toml").write_text(text, encoding="utf-8")
    env = {
        **os.environ,
        "ADJUDICATOR_BIND": f"127.0.0.1:{free_port()}",
        "ADJUDICATOR_LEXICON_DIR": str(LEXICON_DIR),
        "ADJUDICATOR_RULESET_DIR": str(tmp_path),
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    done = subprocess.run(
        [
            str(gunicorn),
            "-c",
            str(ROOT / "deploy" / "gunicorn.conf.py"),
            "adjudicator.process.wsgi:app",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "ssf-1999.toml: field 'disclosure.policy'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_start_up_log_says_where_to_point_the_tablets(server):
    """Bound to loopback (as the tests are), the log says that no tablet can reach it, and how
    to serve the venue's network; bound to 0.0.0.0 it lists the addresses (tested in-process)."""
    port = server.url.rsplit(":", 1)[1]
    log = server.log.read_text(encoding="utf-8")
    assert f"judge tablets: this service listens on http://127.0.0.1:{port}/ only" in log
    assert f"set ADJUDICATOR_BIND=0.0.0.0:{port} " in log  # the port it serves on, not 8000
