"""The servers the tests start are theirs: under pytest-xdist another worker's server may take a
free port first, and a server answering on the port is only ours if it holds the socket."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from contextlib import contextmanager

import requests

from api_tests import conftest
from api_tests.conftest import free_port, listens

# Answers 200 to any GET: a stand-in for another test's server on the port.
IMPOSTOR = """
import http.server, sys
class Ok(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"impostor")
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Ok)
print("ready", flush=True)
server.serve_forever()
"""


@contextmanager
def impostor(port: int):
    process = subprocess.Popen(
        [sys.executable, "-c", IMPOSTOR, str(port)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout.readline() == "ready\n"
        yield process
    finally:
        process.kill()
        process.wait()


def test_a_process_listening_on_the_port_holds_it():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert listens(os.getpid(), s.getsockname()[1])


def test_another_process_listening_on_the_port_is_not_us():
    port = free_port()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import socket, sys\n"
            f"s = socket.create_server(('127.0.0.1', {port}))\n"
            "print('ready', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "ready\n"
        assert listens(holder.pid, port)
        assert not listens(os.getpid(), port)
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)


def test_a_port_nobody_listens_on_is_nobodys():
    with socket.socket() as s:  # bound, not listening
        s.bind(("127.0.0.1", 0))
        assert not listens(os.getpid(), s.getsockname()[1])


def test_a_server_whose_port_another_took_starts_on_another(tmp_path, monkeypatch):
    """The port free_port chose is taken, by a server that answers /healthz: start_server must
    not take that server for ours, and starts ours on the next port."""
    taken, spare = free_port(), free_port()
    ports = iter([taken, spare])
    monkeypatch.setattr(conftest, "free_port", lambda: next(ports))
    with impostor(taken):
        server = conftest.start_server(tmp_path)
        try:
            assert server.url.endswith(f":{spare}")
            assert listens(server.process.pid, spare)
            assert requests.get(server.api("/healthz"), timeout=5).text != "impostor"
        finally:
            server.stop()
