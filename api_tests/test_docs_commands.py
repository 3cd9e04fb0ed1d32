"""Every shell command in the tutorial and the how-to guides runs, against a real server.

Each fenced `bash` block on those pages is preceded by a marker: `<!-- run -->` (this test runs
it, in order, with `bash -eo pipefail`), `<!-- serve -->` (the page starts the service: this test
starts its own instead, with the block's `ADJUDICATOR_*` settings but its own port and store), or
`<!-- not run: why -->` (root, apt, systemd, a second machine). Addresses `127.0.0.1:8000` are
rewritten to the test server's; the commands find `adjudicator` and `lexicon` on PATH, as after
`source .venv/bin/activate`.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from api_tests.conftest import start_server

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs" / "tutorial").glob("*.md")) + sorted(
    (ROOT / "docs" / "how-to").glob("*.md")
)
BLOCK = re.compile(r"(?:^(<!-- [^\n]*-->)\n)?^```(?:bash|sh|shell)\n(.*?)^```$", re.M | re.S)
DEFAULT_ADDRESS = "127.0.0.1:8000"


def blocks(page: Path) -> list[tuple[str, str]]:
    """(marker, script) for each shell block on the page."""
    return [(m.group(1) or "", m.group(2)) for m in BLOCK.finditer(page.read_text("utf-8"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shell_block_says_whether_it_is_run(page):
    for marker, script in blocks(page):
        assert re.fullmatch(r"<!-- (run|serve|not run: .+) -->", marker), (
            f"{page.name}: a block without a run marker:\n{script}"
        )


def _settings(script: str) -> dict[str, str]:
    """The `ADJUDICATOR_*=value` settings a serve block starts the service with."""
    words = shlex.split(script.replace("\\\n", " "))
    return dict(w.split("=", 1) for w in words if re.match(r"ADJUDICATOR_\w+=", w))


@pytest.mark.slow
@pytest.mark.parametrize(
    "page",
    [p for p in PAGES if any(m == "<!-- run -->" for m, _ in blocks(p))],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_the_pages_commands_run(page, tmp_path):
    settings: dict[str, str] = {}
    for marker, script in blocks(page):
        if marker == "<!-- serve -->":
            settings |= _settings(script)
    settings.pop("ADJUDICATOR_BIND", None)  # the test's own free port
    database = f"sqlite:///{tmp_path / 'store.db'}"
    env = {**os.environ, "ADJUDICATOR_DATABASE_URL": database}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    subprocess.run(["adjudicator", "db", "upgrade"], env=env, check=True, capture_output=True)
    server = start_server(tmp_path / "server", ADJUDICATOR_DATABASE_URL=database, **settings)
    try:
        address = server.url.removeprefix("http://")
        for marker, script in blocks(page):
            if marker != "<!-- run -->":
                continue
            done = subprocess.run(
                ["bash", "-eo", "pipefail", "-c", script.replace(DEFAULT_ADDRESS, address)],
                env=env,
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode == 0, f"{page.name}:\n{script}\n{done.stdout}\n{done.stderr}"
    finally:
        server.stop()
