"""A venue's network of its own for tests that need one (the tournament walk-through): two
network namespaces, the laptop's and a tablet's, joined by a veth pair with addresses the test
assigns. The server runs in the laptop's namespace (`ip netns exec`), and the test reaches it
from a thread that has joined the tablet's (or the laptop's, for its own loopback): no test
traffic touches this machine's own interfaces or addresses.

Making namespaces takes root and `ip` (iproute2); without them the test skips with advice.
Every address used is in 198.18.0.0/15, the range set aside for network tests (RFC 2544), and
exists only inside the two namespaces, which `Venue.stop` deletes with their links.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import shutil
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from testsupport import netguard

CLONE_NEWNET = 0x40000000
NETWORK = "198.18.0.0/24"
LAPTOP_ADDRESS = "198.18.0.1"
TABLET_ADDRESS = "198.18.0.2"
_numbers = itertools.count(1)
T = TypeVar("T")


class NamespacesUnavailable(Exception):
    """Why this machine cannot make network namespaces here (said when the test skips)."""


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise NamespacesUnavailable(f"`ip {' '.join(args)}` failed: {done.stderr.strip()}")


@dataclass
class Venue:
    laptop: str = ""
    tablet: str = ""
    made: list[str] = field(default_factory=list)

    def start(self) -> Venue:
        if os.geteuid() != 0 or shutil.which("ip") is None:
            raise NamespacesUnavailable(
                "network namespaces need root and iproute2 (`ip`): run the suite as root"
            )
        tag = f"{os.getpid()}-{next(_numbers)}"
        self.laptop, self.tablet = f"adj-laptop-{tag}", f"adj-tablet-{tag}"
        try:
            for name in (self.laptop, self.tablet):
                _ip("netns", "add", name)
                self.made.append(name)
                _ip("-n", name, "link", "set", "lo", "up")
            # the veth pair is made in the laptop's namespace and one end moved to the tablet's:
            # neither end ever exists in this machine's own namespace
            _ip("-n", self.laptop, "link", "add", "wifi0", "type", "veth", "peer", "name", "wifi1")
            _ip("-n", self.laptop, "link", "set", "wifi1", "netns", self.tablet)
            _ip("-n", self.laptop, "addr", "add", f"{LAPTOP_ADDRESS}/24", "dev", "wifi0")
            _ip("-n", self.tablet, "addr", "add", f"{TABLET_ADDRESS}/24", "dev", "wifi1")
            _ip("-n", self.laptop, "link", "set", "wifi0", "up")
            _ip("-n", self.tablet, "link", "set", "wifi1", "up")
        except NamespacesUnavailable:
            self.stop()
            raise
        netguard.allow(NETWORK)
        return self

    def stop(self) -> None:
        netguard.disallow(NETWORK)
        while self.made:
            subprocess.run(["ip", "netns", "del", self.made.pop()], capture_output=True, timeout=30)

    def command(self, *argv: str) -> list[str]:
        """`argv` run in the laptop's namespace."""
        return ["ip", "netns", "exec", self.laptop, *argv]

    def on_laptop(self, work: Callable[[], T]) -> T:
        return _in_namespace(self.laptop, work)

    def on_tablet(self, work: Callable[[], T]) -> T:
        return _in_namespace(self.tablet, work)


def _in_namespace(name: str, work: Callable[[], T]) -> T:
    """Run `work` in a thread of its own that joined namespace `name` (setns(2) moves only the
    calling thread), so that the sockets it makes are that namespace's; its result or its
    exception comes back here."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            fd = os.open(f"/run/netns/{name}", os.O_RDONLY)
            try:
                if libc.setns(fd, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), f"setns into {name}")
            finally:
                os.close(fd)
            outcome["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller
            outcome["error"] = exc

    thread = threading.Thread(target=run, name=f"netns-{name}")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]
