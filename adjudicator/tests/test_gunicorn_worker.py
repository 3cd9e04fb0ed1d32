"""The worker's socket wrapper sends a response's header and body in one write."""

from __future__ import annotations

from adjudicator.gunicorn_worker import HeldHeaderSocket


class FakeSocket:
    def __init__(self):
        self.writes: list[bytes] = []
        self.sent_files: list[str] = []

    def sendall(self, data: bytes) -> None:
        self.writes.append(data)

    def sendfile(self, name, offset=0, count=None):
        self.sent_files.append(name)

    def fileno(self) -> int:
        return 7

    def getpeername(self):
        return ("127.0.0.1", 1)


def test_header_and_body_leave_in_one_write():
    sock = FakeSocket()
    held = HeldHeaderSocket(sock)
    held.sendall(b"HTTP/1.1 200 OK\r\n\r\n")
    assert sock.writes == []
    held.sendall(b'{"ok": true}')
    held.sendall(b"more")
    held.flush()
    assert sock.writes == [b'HTTP/1.1 200 OK\r\n\r\n{"ok": true}', b"more"]


def test_a_header_only_answer_leaves_on_flush():
    sock = FakeSocket()
    held = HeldHeaderSocket(sock)
    held.sendall(b"HTTP/1.1 304 Not Modified\r\n\r\n")
    held.flush()
    held.flush()
    assert sock.writes == [b"HTTP/1.1 304 Not Modified\r\n\r\n"]


def test_sendfile_and_fileno_send_the_header_first():
    sock = FakeSocket()
    held = HeldHeaderSocket(sock)
    held.sendall(b"HEADER")
    held.sendfile("page.js", offset=0, count=10)
    assert sock.writes == [b"HEADER"] and sock.sent_files == ["page.js"]
    assert held.fileno() == 7 and held.getpeername() == ("127.0.0.1", 1)
