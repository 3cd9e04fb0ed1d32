"""Every shell command in the docs (tutorial, how-to, reference, explanation) runs, against a
real server.

Each fenced `bash` block on those pages is preceded by a marker: `<!-- run -->` (this test runs
it, in order, with `bash -eo pipefail`), `<!-- serve -->` (the page starts the service: this test
starts its own instead, with the block's `ADJUDICATOR_*` settings but its own port and store), or
`<!-- not run: why -->` (a command that needs root-owned system state: systemctl, apt-get,
editing /etc; the page then runs the same thing against a temporary path where it can).

The blocks run in a scratch copy of the checkout (its files linked, `.venv` the running one),
so that `build/`, `rulings.csv` and the like land in a temporary directory. The addresses and
paths a page names for one box are rewritten to the test's own (REWRITES): the service
(`127.0.0.1:8000`, `localhost:8000`, the unit's instance `127.0.0.1:8001`), a scratch nginx port
(`127.0.0.1:8080`), the lexicon directory (`/srv/adjudicator/lexicons`, a copy the server reads),
the ruleset directory (`/srv/adjudicator/rulesets`, a temporary folder)
and the instance's run directory (`/run/adjudicator/8001`; `adjudicator reload` without
`--run-dir` finds it through `ADJUDICATOR_RUN_DIR`, as it finds `make serve`'s in a checkout;
`instance/lexicons` is the copy the server reads). A page in POSTGRES runs against a
throwaway PostgreSQL cluster (`ADJUDICATOR_DATABASE_URL` set as on an app box); a page in NGINX
needs Debian's nginx. The commands find `adjudicator` and `lexicon` on PATH, as after
`source .venv/bin/activate`, and `$PASSWORD` is set, as a script's would be.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from api_tests.conftest import LEXICON_DIR, free_port, start_server
from api_tests.front import need_nginx

ROOT = Path(__file__).resolve().parents[1]
PAGES = [
    page
    for part in ("tutorial", "how-to", "reference", "explanation")
    for page in sorted((ROOT / "docs" / part).glob("*.md"))
]
BLOCK = re.compile(r"(?:^(<!-- [^\n]*-->)\n)?^```(?:bash|sh|shell)\n(.*?)^```$", re.M | re.S)
SERVICE_ADDRESSES = ("127.0.0.1:8000", "localhost:8000", "127.0.0.1:8001")
POSTGRES = {"postgresql.md", "several-boxes.md"}
NGINX = {"nginx.md", "several-boxes.md"}
PASSWORD = "a-long-enough-password"


def blocks(page: Path) -> list[tuple[str, str]]:
    """(marker, script) for each shell block on the page."""
    return [(m.group(1) or "", m.group(2)) for m in BLOCK.finditer(page.read_text("utf-8"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shell_block_says_whether_it_is_run(page):
    for marker, script in blocks(page):
        assert re.fullmatch(r"<!-- (run|serve|not run: .+) -->", marker), (
            f"{page.name}: a block without a run marker:\n{script}"
        )


ROOT_ONLY = "<!-- not run: needs root-owned system state (systemctl, apt-get, editing /etc) -->"
# A how-to block may stay unrun only for root-owned system state, and then it names some; or
# for one of these reasons, which no test can stand in for without harm.
NOT_RUN_ELSE = {
    # make install in a scratch checkout would repoint the shared venv's editable install
    "<!-- not run: the docs test's own set-up (make test) has done both -->",
    # the same account is added from a script in the next block
    "<!-- not run: asks for the password at the terminal; the run block below is the same from "
    "a script -->",
}
# (`localhost/`: the root-installed nginx on port 80)
ROOT_COMMANDS = re.compile(r"systemctl|apt-get|/etc/|/opt/|adduser|/srv/|localhost/")


@pytest.mark.parametrize(
    "page", [p for p in PAGES if p.parent.name == "how-to"], ids=lambda p: p.name
)
def test_a_how_to_leaves_a_block_unrun_only_for_root_owned_state(page):
    for marker, script in blocks(page):
        if marker.startswith("<!-- not run") and marker not in NOT_RUN_ELSE:
            assert marker == ROOT_ONLY, f"{page.name}: {marker}\n{script}"
            for line in script.replace("\\\n", " ").splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    assert ROOT_COMMANDS.search(line), f"{page.name}: runnable: {line}"


def _settings(script: str) -> dict[str, str]:
    """The `ADJUDICATOR_*=value` settings a serve block starts the service with."""
    words = shlex.split(script.replace("\\\n", " "), comments=True)
    return dict(w.split("=", 1) for w in words if re.match(r"ADJUDICATOR_\w+=", w))


def _scratch_checkout(where: Path, lexicons: Path) -> Path:
    """The checkout's files linked into `where`, with the running venv as `.venv` and the
    test's copy of the compiled lexicons as `instance/lexicons`."""
    where.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in {".git", ".venv", "build", "instance", "site"}:
            (where / entry.name).symlink_to(entry)
    (where / ".venv").symlink_to(Path(sys.executable).parents[1])
    (where / "instance").mkdir()
    (where / "instance" / "lexicons").symlink_to(lexicons)
    return where


@pytest.mark.slow
@pytest.mark.parametrize(
    "page",
    [p for p in PAGES if any(m == "<!-- run -->" for m, _ in blocks(p))],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_the_pages_commands_run(page, tmp_path, request):
    if page.name in NGINX:
        need_nginx()
    pg_env: dict[str, str] = {}
    rewrites: dict[str, str] = {}
    if page.name in POSTGRES:
        cluster = request.getfixturevalue("postgres_cluster")
        database = cluster.create_database(
            re.sub(r"\W", "_", f"docs_{page.stem}_{tmp_path.name}")[:60]
        )
        # The page's superuser commands (createuser, psql) reach the throwaway cluster, and its
        # URLs' Debian socket folder is the cluster's.
        pg_env = {"PGHOST": cluster.socket_dir, "PGPORT": "5432", "PGUSER": "postgres"}
        rewrites["/var/run/postgresql"] = cluster.socket_dir
    else:
        database = f"sqlite:///{tmp_path / 'store.db'}"
    lexicons = tmp_path / "lexicons"
    shutil.copytree(LEXICON_DIR, lexicons)
    checkout = _scratch_checkout(tmp_path / "checkout", lexicons)
    env = {**os.environ, "ADJUDICATOR_DATABASE_URL": database, "PASSWORD": PASSWORD, **pg_env}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env.pop("ADJUDICATOR_LEXICON_DIR", None)
    subprocess.run(["adjudicator", "db", "upgrade"], env=env, check=True, capture_output=True)
    port = free_port()
    rewrites |= dict.fromkeys(SERVICE_ADDRESSES, f"127.0.0.1:{port}") | {
        "127.0.0.1:8080": f"127.0.0.1:{free_port()}",
        "/srv/adjudicator/lexicons": str(lexicons),
        "/srv/adjudicator/rulesets": str(tmp_path / "rulesets"),  # a deployment's rulesets
        "/opt/adjudicator/bin/": f"{Path(sys.executable).parent}/",
        "/run/adjudicator/8001": str(tmp_path / "server" / f"run-{port}"),
    }
    # The service the page starts (`make serve`) is the test's: `adjudicator reload` without
    # --run-dir finds its run directory, as it finds `make serve`'s in a checkout.
    env["ADJUDICATOR_RUN_DIR"] = rewrites["/run/adjudicator/8001"]

    def rewritten(script: str) -> str:
        for old, new in rewrites.items():
            script = script.replace(old, new)
        return script

    def serve(script: str = "") -> object:
        """The page's server, started where its serve block stands (the blocks before it may
        make what it needs: a database, a role), or before the first block."""
        settings = _settings(rewritten(script)) if script else {}
        settings.pop("ADJUDICATOR_BIND", None)  # the test's own port
        own = {
            "ADJUDICATOR_BIND": f"127.0.0.1:{port}",
            "ADJUDICATOR_DATABASE_URL": database,
            "ADJUDICATOR_LEXICON_DIR": str(lexicons),
        }
        return start_server(tmp_path / "server", **(own | settings))

    has_serve = any(marker == "<!-- serve -->" for marker, _ in blocks(page))
    server = None if has_serve else serve()
    try:
        for marker, script in blocks(page):
            if marker == "<!-- serve -->" and server is None:
                server = serve(script)
            if marker != "<!-- run -->":
                continue
            script = rewritten(script)
            done = subprocess.run(
                ["bash", "-eo", "pipefail", "-c", script],
                env=env,
                cwd=checkout,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode == 0, f"{page.name}:\n{script}\n{done.stdout}\n{done.stderr}"
    finally:
        if server is not None:
            server.stop()
