"""A pytest plugin (loaded by the root conftest.py): the tests' own connections go only to
this machine's loopback (127.0.0.0/8, ::1), to unix sockets, or to the hosts of a network
namespace a test made itself (testsupport.netns, which allows its range while it exists).

Every TCP connect a test process makes passes here (`socket.socket.connect` and
`connect_ex`, which `requests`, `http.client` and `socket.create_connection` all use); one to
any other address is refused before a packet leaves, and fails the test that made it, even if
the code under test swallowed the error. A UDP `connect` sends nothing (netaddrs uses one to
pick a route) and is not checked. Processes the tests start (gunicorn, nginx, Chromium) are
bound to loopback or a test's namespace by their own settings.
"""

from __future__ import annotations

import ipaddress
import socket
import threading

import pytest

ALWAYS = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))
_allowed: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
_refused: list[str] = []
_lock = threading.Lock()


class OutsideTestNetwork(ConnectionRefusedError):
    """A test tried to reach an address outside loopback and its own namespaces."""


def allow(network: str) -> None:
    with _lock:
        _allowed.append(ipaddress.ip_network(network))


def disallow(network: str) -> None:
    with _lock:
        net = ipaddress.ip_network(network)
        if net in _allowed:
            _allowed.remove(net)


def permitted(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False  # a name: connect() is given addresses, after getaddrinfo
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    with _lock:
        return any(address in net for net in (*ALWAYS, *_allowed))


def _check(sock: socket.socket, address) -> None:
    if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.type != socket.SOCK_STREAM:
        return
    host = address[0]
    if not permitted(host):
        with _lock:
            _refused.append(f"{host}:{address[1]}")
        raise OutsideTestNetwork(f"test traffic may not go to {host}:{address[1]}")


_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex


def _guarded_connect(self, address):
    _check(self, address)
    return _connect(self, address)


def _guarded_connect_ex(self, address):
    _check(self, address)
    return _connect_ex(self, address)


def pytest_configure(config: pytest.Config) -> None:
    socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]


def pytest_unconfigure(config: pytest.Config) -> None:
    socket.socket.connect = _connect  # type: ignore[method-assign]
    socket.socket.connect_ex = _connect_ex  # type: ignore[method-assign]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    with _lock:
        _refused.clear()
    result = yield
    with _lock:
        refused, _refused[:] = list(_refused), []
    if refused:
        pytest.fail(f"the test opened connections outside the test network: {refused}")
    return result
