"""The addresses a tablet on the venue's network can open: for the start-up log, `/` and the
director's pairing code (`tablet_bases`, the one rule for every address a tablet is told).

A service bound to 0.0.0.0 (or ::) listens on every interface, but a tablet needs a concrete
address; one bound to loopback only cannot be reached from the Wi-Fi at all, and the operator
should hear that at once. The interfaces' addresses are read with psutil (the standard library
has no call for them); where no real interface has one, the address the default route would use.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import socket
from urllib.parse import urlsplit

import psutil
from flask import request

from adjudicator.settings import current_settings

# Interfaces no tablet reaches: loopback, containers, virtual bridges.
_VIRTUAL = ("lo", "docker", "veth", "br-", "virbr", "cni", "flannel", "tun", "tap")
ANY = {"0.0.0.0", "::", ""}
DEFAULT_PORT = 8000  # gunicorn's, for a bind address given without one


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses on real interfaces, private (LAN) ones first."""
    found = [
        address.address
        for name, addresses in psutil.net_if_addrs().items()
        if not name.startswith(_VIRTUAL)
        for address in addresses
        if address.family == socket.AF_INET
    ]
    if not found:
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: it only picks a route
            found.append(s.getsockname()[0])
    usable = [a for a in dict.fromkeys(found) if not ipaddress.ip_address(a).is_loopback]
    return sorted(usable, key=lambda a: not ipaddress.ip_address(a).is_private)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def parse_bind(spec: str) -> list[tuple[str, int]]:
    """`ADJUDICATOR_BIND` (comma-separated host:port, gunicorn's syntax) → (host, port) pairs;
    unix sockets and unreadable entries are left out."""
    pairs = []
    for item in spec.split(","):
        item = item.strip()
        if not item or item.startswith(("unix:", "fd://")):
            continue
        host, _, port = item.rpartition(":")
        if not port.isdigit():
            host, port = item, str(DEFAULT_PORT)
        pairs.append((host.strip("[]"), int(port)))
    return pairs


def tablet_urls(bound: list[tuple[str, int]], interfaces: list[str] | None = None) -> list[str]:
    """The base URLs a tablet can open, for the addresses the service is bound to."""
    urls = []
    for host, port in bound:
        if host in ANY:
            hosts = interface_addresses() if interfaces is None else interfaces
        elif is_loopback(host):
            continue
        else:
            hosts = [host]
        urls.extend(base_url(h, port) for h in hosts)
    return list(dict.fromkeys(urls))


def base_url(host: str, port: int) -> str:
    """`http://HOST:PORT/`, an IPv6 address in brackets as URLs write it (RFC 3986)."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def loopback_only(bound: list[tuple[str, int]]) -> bool:
    return bool(bound) and all(is_loopback(host) for host, _ in bound)


def venue_bind(bound: list[tuple[str, int]]) -> str:
    """The `ADJUDICATOR_BIND` that serves the venue's network on the port already in use (the
    first one bound), which is what the loopback warnings suggest."""
    port = bound[0][1] if bound else DEFAULT_PORT
    return f"0.0.0.0:{port}"


def startup_lines(bound: list[tuple[str, int]], interfaces: list[str] | None = None) -> list[str]:
    """What the start-up log says: where to point the tablets, or why they cannot reach it."""
    local = [base_url(h, p) for h, p in bound if is_loopback(h)]
    if loopback_only(bound):
        return [
            f"judge tablets: this service listens on {', '.join(local)} only, which no tablet "
            f"can reach; set ADJUDICATOR_BIND={venue_bind(bound)} (or use the nginx front in "
            "deploy/) to serve the venue's network"
        ]
    urls = tablet_urls(bound, interfaces)
    if not urls:
        return ["judge tablets: no network address found for this machine"]
    return [f"judge tablets: open {url} (kiosks and QR codes at that address)" for url in urls]


# One device may take any address in its network's IPv6 /64 (privacy addresses, or at will),
# and every device on a venue's Wi-Fi shares that /64: the wider count of `auth.lockout`.
IPV6_DEVICE_PREFIX = 64


def device_network(address: str) -> str | None:
    """The IPv6 /64 an address lies in, which one device can roam; None for anything else (an
    IPv4 address has no wider network a single device could roam)."""
    parsed = _device_address(address)
    if not isinstance(parsed, ipaddress.IPv6Address):
        return None
    return str(ipaddress.ip_network((parsed.packed, IPV6_DEVICE_PREFIX), strict=False))


def _device_address(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a device is counted by: an IPv4 address written as IPv6 (`::ffff:a.b.c.d`)
    is that IPv4 address, and a zone (`%eth0`) is dropped; None for what is no address."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address):
        return parsed.ipv4_mapped or ipaddress.IPv6Address(parsed.packed)
    return parsed


def configured_venue_bind() -> str:
    """`venue_bind` for this app's `ADJUDICATOR_BIND`, for the pages' loopback warning."""
    return venue_bind(parse_bind(current_settings().bind))


def tablet_bases() -> tuple[list[str], str | None]:
    """Base URLs (ending in "/") to tell a tablet, best first, and the loopback-only bind to warn
    about (or None), for this request. `ADJUDICATOR_PUBLIC_URL` when the operator published one;
    else the address this visitor used, unless that is loopback (the director on the laptop
    itself), which no tablet can open: then this machine's network addresses for the bind."""
    if public := current_settings().public_url:  # the operator's published address wins
        return [str(public).rstrip("/") + "/"], None
    own = request.host_url
    if not is_loopback(urlsplit(own).hostname or ""):
        return [own], None  # the address this visitor reached: the tablets can too
    bound = parse_bind(current_settings().bind)  # ADJUDICATOR_BIND, never empty (checked)
    if loopback_only(bound):
        return [own], ", ".join(f"{h}:{p}" for h, p in bound)
    return tablet_urls(bound) or [own], None


def client_id() -> str:
    """The client a lockout counts against, and whose `Idempotency-Key`s an anonymous caller's
    are: its address (set TRUSTED_PROXIES behind nginx).

    An IPv6 client is its own address, not its /64: every device on a venue's Wi-Fi shares one
    /64, and a player's wrong tries must not hold back the director's laptop beside them. The
    /64, which one device can roam for a fresh address per try, is counted by `auth.lockout`
    as a wider, higher limit. A zone (`%eth0`) is dropped, so it cannot make a fresh client
    either. An IPv4 address written as IPv6 (`::ffff:a.b.c.d`) is that IPv4 address. Anything
    but an address (only a TRUSTED_PROXIES larger than the proxies really in front lets a client
    choose it, through X-Forwarded-For) is counted under a digest of it, so that it fits the
    store's column whatever its length."""
    address = request.remote_addr or "unknown"
    parsed = _device_address(address)
    if parsed is None:
        return "other:" + hashlib.sha256(address.encode("utf-8", "replace")).hexdigest()
    return f"ip:{parsed}"
