"""A real gunicorn process on a free port, serving the bundled lexicons, for HTTP tests."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import requests

if TYPE_CHECKING:
    from testsupport.netns import Venue

ROOT = Path(__file__).resolve().parents[1]
LEXICON_DIR = Path(os.environ.get("ADJUDICATOR_LEXICON_DIR", ROOT / "instance" / "lexicons"))


# Stands for anything a client sent: an answer or a log that quotes a request shows it.
MARK = b"xssmark<script>alert(1)</script>"


def address(url: str) -> tuple[str, int]:
    """The host and port of a server's `http://host:port` URL."""
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def exchange(url: str, request: bytes) -> bytes:
    """`request` sent as raw bytes to the server at `url`, then the sending side closed (a cut
    body stays cut); everything it answered, up to its close."""
    with socket.create_connection(address(url), timeout=10) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return data


def free_port() -> int:
    """A loopback port free now. Another process (a server another xdist worker starts, any
    client's connection) may take it before our server binds it: start it with `listens` in
    its readiness check and a new port when the bind fails, as start_server does."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Attempts at starting a server, each on a new free port, when another process took the port.
PORT_ATTEMPTS = 3


def listens(pid: int, port: int) -> bool:
    """Whether process `pid` holds the socket listening on TCP `port` (Linux's /proc). A server
    that answers on its port may be another test's that took the port first, while ours waits
    to bind it: only its own listening socket makes it ours."""
    inodes = set()
    for table in (f"/proc/{pid}/net/tcp", f"/proc/{pid}/net/tcp6"):  # the process's namespace
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for fields in map(str.split, lines):
            # fields: sl, local address (hex IP:hex port), remote address, state (0A: LISTEN),
            # tx:rx queues, timer, retransmits, uid, timeout, inode
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                return True
        except OSError:
            continue
    return False


@dataclass
class Server:
    process: subprocess.Popen
    url: str
    log: Path
    run_dir: Path

    def api(self, path: str) -> str:
        return f"{self.url}/api/v1{path}"

    def workers(self) -> list[int]:
        """The worker processes' ids (children of the master)."""
        out = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True)
        return [int(pid) for pid in out.stdout.split()]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_server(log_dir: Path, venue: Venue | None = None, **env: str) -> Server:
    """Start the service exactly as `make serve` does (`adjudicator serve`: gunicorn with the
    shipped settings), on a free port, and wait until it answers. With a `venue`
    (testsupport.netns), in the venue laptop's network namespace: its loopback `url` is then
    reached from `venue.on_laptop`."""
    if not any(LEXICON_DIR.glob("*.json")):
        pytest.fail(f"no compiled lexicons in {LEXICON_DIR}: run `make test`, which builds them")
    log_dir.mkdir(parents=True, exist_ok=True)
    if "ADJUDICATOR_BIND" in env:
        # The test binds elsewhere (ADJUDICATOR_BIND=0.0.0.0:PORT): the server is still reached
        # on loopback, at that port, which the test chose.
        port = int(env["ADJUDICATOR_BIND"].rpartition(":")[2])
        server = _start_server_on(port, log_dir, env, venue)
        if server is None:
            pytest.fail(f"another process holds the port of {env['ADJUDICATOR_BIND']}")
        return server
    for _ in range(PORT_ATTEMPTS):
        server = _start_server_on(free_port(), log_dir, env, venue)
        if server is not None:
            return server
    pytest.fail(f"gunicorn found no free port in {PORT_ATTEMPTS} attempts (see {log_dir})")


def _start_server_on(
    port: int, log_dir: Path, env: dict[str, str], venue: Venue | None = None
) -> Server | None:
    """The started server; None when another process holds `port`."""
    full_env = {
        **os.environ,
        "ADJUDICATOR_BIND": f"127.0.0.1:{port}",
        "ADJUDICATOR_WORKERS": "2",
        "ADJUDICATOR_LEXICON_DIR": str(LEXICON_DIR),
        # No CPU budget for records: answers must not depend on what earlier tests sent
        # (test_cost.py and benchmarks/verify_load.py exercise the budget).
        "ADJUDICATOR_VERIFY_TIME_SHARE": "1",
        "ADJUDICATOR_RUN_DIR": str(log_dir / f"run-{port}"),
        "ADJUDICATOR_ACCESS_LOG": "-",  # off by default; the tests read it (no words in it)
        **env,
    }
    log = log_dir / f"gunicorn-{port}.log"
    # `adjudicator serve` replaces itself with gunicorn: the process is gunicorn's master.
    command = [str(Path(sys.executable).with_name("adjudicator")), "serve"]
    process = subprocess.Popen(
        venue.command(*command) if venue else command,
        cwd=ROOT,
        env=full_env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    server = Server(process, f"http://127.0.0.1:{port}", log, Path(full_env["ADJUDICATOR_RUN_DIR"]))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            if "Connection in use" in log.read_text(errors="replace"):
                return None  # gunicorn gave up binding the port another process holds
            pytest.fail(f"gunicorn exited with {process.returncode}:\n{log.read_text()}")
        try:
            probe = lambda: requests.get(server.api("/healthz"), timeout=1)  # noqa: E731
            answered = (venue.on_laptop(probe) if venue else probe()).status_code == 200
        except requests.ConnectionError:
            answered = False
        if answered and listens(process.pid, port):
            return server
        time.sleep(0.1)
    server.stop()
    pytest.fail(f"gunicorn did not answer within 30 s:\n{log.read_text()}")


def store_cli(database: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`adjudicator ARGS --database-url DATABASE`, as an operator runs it on the store."""
    return subprocess.run(
        [str(Path(sys.executable).with_name("adjudicator")), *args, "--database-url", database],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def start_tournament(folder: Path, password: str, **env: str) -> Server:
    """A tournament-mode service on its own SQLite store with one director, `anna` (her
    `password`), started as `start_server` starts it; `env` adds settings."""
    database = f"sqlite:///{folder / 'adjudicator.db'}"
    add = store_cli(database, "directors", "add", "anna", "--password-stdin", stdin=password)
    assert add.returncode == 0, add.stderr
    return start_server(
        folder, ADJUDICATOR_DATABASE_URL=database, ADJUDICATOR_MODE="tournament", **env
    )


def director_login(
    server: Server, name: str, password: str, headers: dict[str, str] | None = None
) -> requests.Session:
    """A session logged in as director `name` (the session cookie in its jar)."""
    session = requests.Session()
    session.headers.update(headers or {})
    response = session.post(
        f"{server.url}/director/login",
        data={"name": name, "password": password},
        allow_redirects=False,
        timeout=10,
    )
    assert response.status_code == 303, response.text
    return session


def director_page_login(page, server: Server, password: str, lang: str = "en", name: str = "anna"):
    """Log `page` in as director `name` through the login form, as a director does, in `lang`."""
    from playwright.sync_api import expect

    page.goto(f"{server.url}/director/login?lang={lang}")
    page.fill('input[name="name"]', name)
    page.fill('input[name="password"]', password)
    page.click('form.stack button[type="submit"]')
    expect(page).to_have_url(re.compile(r"/director/"))


def csrf_token(html: str) -> str:
    """The CSRF token a director's screen puts in its forms."""
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def pairing_code(
    server: Server, director: requests.Session, name: str, ruleset: str = "ssf-1999"
) -> tuple[str, str]:
    """A pairing code for a tablet called `name`, made on the director's screen as a director
    makes it (its QR code shown), and the director's CSRF token."""
    csrf = csrf_token(director.get(f"{server.url}/director/", timeout=10).text)
    page = director.post(
        f"{server.url}/director/pairings",
        data={"csrf": csrf, "name": name, "ruleset": ruleset},
        timeout=10,
    ).text
    assert 'src="data:image/svg+xml' in page  # the QR code
    return re.search(r'id="pairing-code">([^<]+)<', page).group(1), csrf


def pair_tablet(
    server: Server, director: requests.Session, name: str, ruleset: str = "ssf-1999"
) -> requests.Session:
    """A session paired as the tablet `name` (its device cookie in the jar), from behind the
    simulated proxy at a venue address."""
    code, _ = pairing_code(server, director, name, ruleset)
    tablet = requests.Session()
    tablet.headers.update({"X-Forwarded-For": "10.0.0.50"})
    response = tablet.post(
        f"{server.url}/judge/pair", data={"code": code}, allow_redirects=False, timeout=10
    )
    assert response.status_code == 303, response.text
    assert response.headers["Location"].endswith(f"/judge/{ruleset}")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    return tablet


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[Server]:
    srv = start_server(tmp_path_factory.mktemp("gunicorn"))
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def http() -> Iterator[requests.Session]:
    with requests.Session() as session:
        yield session


# --- the judge's tablet in Debian's Chromium (helpers in api_tests/browser.py) ---------------


@pytest.fixture(scope="module")
def browser() -> Iterator:
    from api_tests.browser import CHROMIUM, CHROMIUM_ARGS, need_browser, sync_playwright

    need_browser()
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def judge_server(tmp_path_factory) -> Iterator[Server]:
    from api_tests.browser import PIN

    srv = start_server(tmp_path_factory.mktemp("judge"), ADJUDICATOR_JUDGE_PIN=PIN)
    yield srv
    srv.stop()


@pytest.fixture
def browser_context(browser):
    """A factory: a touch page at the given viewport, on Playwright's clock; closed after."""
    contexts = []

    def make(viewport: dict):
        context = browser.new_context(viewport=viewport, has_touch=True)
        contexts.append(context)
        pg = context.new_page()
        pg.set_default_timeout(5000)
        pg.clock.install()  # time flows naturally until a test fast-forwards it
        return pg

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(browser_context):
    from api_tests.browser import LANDSCAPE

    return browser_context(LANDSCAPE)
