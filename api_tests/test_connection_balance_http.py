"""Keep-alive clients that connect at once are spread evenly over gunicorn's workers
(adjudicator.process.acceptbalance); without that, one worker often took 13 or more of 16."""

from __future__ import annotations

import http.client
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from api_tests.conftest import Server, address, start_server

CLIENTS = 16  # as benchmarks/store.py's load: 2 workers of 8 threads
ROUNDS = 3


@pytest.fixture(scope="module")
def own_server(tmp_path_factory) -> Iterator[Server]:
    """A server no other test holds connections to: every connection counted is this test's.

    It answers healthz as soon as one worker is up; gunicorn boots the second a moment later
    (on a busy machine, after a whole round of this test had gone to the first). So it is handed
    over once a round has reached both workers: from then on both are serving."""
    srv = start_server(tmp_path_factory.mktemp("balance"))
    deadline = time.monotonic() + 30
    while True:
        held = _round(srv)
        if len(held) == 2 and min(held.values()) > 0:
            break
        if time.monotonic() > deadline:
            srv.stop()
            pytest.fail(f"the second worker never took a connection: {held}")
    yield srv
    srv.stop()


def _established_inodes(port: int) -> set[str]:
    """Socket inodes of established TCP connections whose local end is `port` (the server's
    side), from /proc/net/tcp."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state, inode = fields[1], fields[3], fields[9]
        if int(local.split(":")[1], 16) == port and state == "01":
            inodes.add(inode)
    return inodes


def held_per_worker(server: Server) -> dict[int, int]:
    """How many of the server's established connections each worker process holds."""
    port = int(server.url.rsplit(":", 1)[1])
    established = _established_inodes(port)
    held = {}
    for pid in server.workers():
        fd_dir = Path(f"/proc/{pid}/fd")
        inodes = set()
        for fd in os.listdir(fd_dir):
            try:
                target = os.readlink(fd_dir / fd)
            except OSError:
                continue  # closed meanwhile
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
        held[pid] = len(inodes & established)
    return held


def _wait_until_none_held(server: Server) -> None:
    deadline = time.monotonic() + 10
    while sum(held_per_worker(server).values()) and time.monotonic() < deadline:
        time.sleep(0.05)


def _round(server: Server) -> dict[int, int]:
    """CLIENTS keep-alive connections made at once, each answered one request: how many each
    worker held at the end."""
    _wait_until_none_held(server)
    host, port = address(server.url)
    clients = [http.client.HTTPConnection(host, port, timeout=10) for _ in range(CLIENTS)]
    try:
        for client in clients:  # all connected at once, before any request
            client.connect()
        for client in clients:
            client.request("GET", "/api/v1/healthz")
        for client in clients:
            response = client.getresponse()
            response.read()
            assert response.status == 200
            assert response.getheader("Connection") != "close"  # kept alive
        return held_per_worker(server)
    finally:
        for client in clients:
            client.close()


def test_connections_made_together_are_spread_over_the_workers(own_server):
    for _ in range(ROUNDS):
        held = _round(own_server)
        assert sum(held.values()) == CLIENTS, held
        assert len(held) == 2 and max(held.values()) - min(held.values()) <= 2, held
