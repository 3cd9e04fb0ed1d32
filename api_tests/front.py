"""nginx in front of real gunicorn instances, rendered from deploy/nginx.conf.template, and slow
clients to throw at it. Used by the fault tests and `benchmarks/faults.py`.

`make test` installs Debian's nginx when missing and it can (tools/debian-packages). Without
nginx the tests skip, saying how to install it; with REQUIRE_NGINX=1 (CI) they fail instead.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from api_tests.conftest import PORT_ATTEMPTS, ROOT, free_port, listens

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _generator():
    spec = importlib.util.spec_from_file_location("nginx_conf", ROOT / "deploy" / "nginx_conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


nginx_conf = _generator()


def need_nginx() -> None:
    if Path(NGINX).exists():
        return
    why = "no nginx: install Debian's with `apt-get install nginx`"
    if os.environ.get("REQUIRE_NGINX") == "1":
        pytest.fail(why)
    pytest.skip(why)


@dataclass
class Nginx:
    process: subprocess.Popen
    url: str
    prefix: Path

    def api(self, path: str) -> str:
        return f"{self.url}/api/v1{path}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_nginx(prefix: Path, upstreams: list[str], workers: int = 1, **limits: int) -> Nginx:
    """nginx on a free loopback port, its config rendered by deploy/nginx_conf.py."""
    need_nginx()
    prefix.mkdir(parents=True, exist_ok=True)
    for _ in range(PORT_ATTEMPTS):
        nginx = _start_nginx_on(free_port(), prefix, upstreams, workers, limits)
        if nginx is not None:
            return nginx
    pytest.fail(f"nginx found no free port in {PORT_ATTEMPTS} attempts")


def _start_nginx_on(
    port: int, prefix: Path, upstreams: list[str], workers: int, limits: dict[str, int]
) -> Nginx | None:
    """The started nginx; None when another process holds `port`."""
    site = nginx_conf.render(
        upstreams,
        listen=f"127.0.0.1:{port}",
        server_name="localhost",
        access_log=str(prefix / "access.log"),
        **limits,
    )
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_conf.standalone(prefix, site, workers), encoding="utf-8")
    out = prefix / "nginx.out"
    log = out.open("wb")
    process = subprocess.Popen(
        [NGINX, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            if "Address already in use" in out.read_text(errors="replace"):
                return None
            pytest.fail(f"nginx exited: {out.read_text()}")
        # nginx's master holds the listening socket; another process's would answer too
        if listens(process.pid, port):
            return Nginx(process, f"http://127.0.0.1:{port}", prefix)
        time.sleep(0.05)
    process.kill()
    pytest.fail("nginx did not listen within 10 s")


class SlowClients:
    """Sockets that dribble one byte a second: half send headers, half a declared body."""

    HEADERS = b"GET /api/v1/healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"x" * 200
    BODY_HEAD = (
        b"POST /api/v1/rulesets/ssf-1999/challenge HTTP/1.1\r\nHost: localhost\r\n"
        b"Content-Type: application/json\r\nContent-Length: 400\r\n\r\n"
    )

    def __init__(self, host: str, port: int, count: int = 50, interval: float = 1.0):
        self.address, self.count, self.interval = (host, port), count, interval
        self.sockets: list[tuple[socket.socket, bytes]] = []
        self.opened = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        for i in range(self.count):
            try:
                s = socket.create_connection(self.address, timeout=2)
            except OSError:
                continue
            if i % 2:
                s.sendall(self.BODY_HEAD)  # headers at once, then the body byte by byte
                self.sockets.append((s, b"{" + b" " * 398))
            else:
                self.sockets.append((s, self.HEADERS))
            self.opened += 1
        position = 0
        while not self._stop.wait(self.interval):
            for s, data in self.sockets:
                try:
                    s.send(data[position % len(data) : position % len(data) + 1])
                except OSError:
                    pass  # the server gave up on this one: that is its right
            position += 1

    def __enter__(self) -> SlowClients:
        self._thread.start()
        deadline = time.monotonic() + 10
        while self.opened + 0 < self.count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        for s, _ in self.sockets:
            s.close()
