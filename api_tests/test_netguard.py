"""Test traffic goes only to loopback or to a test's own namespaces (testsupport.netguard):
the venue walk-through once sent its requests to this machine's own network address. A test
that connects anywhere else fails, even when the code it runs swallows the refusal."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from api_tests.conftest import ROOT
from testsupport import netguard

OUTSIDE = "198.51.100.7"  # TEST-NET-2 (RFC 5737): never reached, the guard refuses first


@pytest.mark.parametrize("host", ["127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"])
def test_loopback_is_permitted(host):
    assert netguard.permitted(host)


@pytest.mark.parametrize("host", [OUTSIDE, "10.0.0.1", "192.168.1.20", "8.8.8.8", "fe80::1"])
def test_other_addresses_are_not(host):
    assert not netguard.permitted(host)


def test_a_namespace_range_is_permitted_while_it_exists():
    netguard.allow("198.18.0.0/24")
    try:
        assert netguard.permitted("198.18.0.1")
    finally:
        netguard.disallow("198.18.0.0/24")
    assert not netguard.permitted("198.18.0.1")


def test_a_connection_outside_fails_the_test_even_when_swallowed(tmp_path):
    (tmp_path / "test_reaches_out.py").write_text(
        "import socket\n"
        "def test_lan():\n"
        "    try:\n"
        f"        socket.create_connection(({OUTSIDE!r}, 80), timeout=0.5)\n"
        "    except OSError:\n"
        "        pass  # code under test that swallows errors\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "testsupport.netguard", "-p", "no:cacheprovider",
         "--rootdir", str(tmp_path), "-c", os.devnull, str(tmp_path)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout
    assert f"outside the test network: ['{OUTSIDE}:80']" in done.stdout, done.stdout


def test_this_process_is_guarded():
    with pytest.raises(netguard.OutsideTestNetwork):
        socket.create_connection((OUTSIDE, 80), timeout=0.5)
    netguard._refused.clear()  # this test's own refusal was the point
