"""A throwaway PostgreSQL cluster for tests and benchmarks: Debian's binaries, initdb into a
temporary directory, listening only on a unix socket in that directory, removed when stopped.

initdb refuses to run as root, so as root the cluster runs as the `postgres` user (Debian's
package creates it) through `runuser`, in a directory that user owns.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

PORT = 5432  # only names the socket file; nothing listens on TCP
SUPERUSER = "postgres"
INSTALL_ADVICE = "install Debian's PostgreSQL: apt-get install postgresql"


class PostgresUnavailable(Exception):
    """No PostgreSQL server binaries on this machine."""


def find_bindir() -> Path:
    """The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl."""
    candidates = []
    for initdb in glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        bindir = Path(initdb).parent
        if (bindir / "pg_ctl").exists():
            try:
                candidates.append((int(bindir.parent.name), bindir))
            except ValueError:
                continue
    if not candidates:
        raise PostgresUnavailable(f"no PostgreSQL server binaries found; {INSTALL_ADVICE}")
    return max(candidates)[1]


class Cluster:
    """`start()` it, make databases with `create_database`, `stop()` it (removes everything)."""

    def __init__(self, bindir: Path | None = None):
        self.bindir = bindir or find_bindir()
        self.root = Path(tempfile.mkdtemp(prefix="adjudicator-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "postgres.log"
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam(SUPERUSER)
            except KeyError:
                raise PostgresUnavailable(f"no {SUPERUSER!r} user; {INSTALL_ADVICE}") from None
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self._as_user = ["runuser", "-u", SUPERUSER, "--"]

    @property
    def socket_dir(self) -> str:
        return str(self.root)

    def _run(self, *args: str) -> None:
        result = subprocess.run(
            [*self._as_user, *args], capture_output=True, text=True, cwd=self.root
        )
        if result.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed:\n{result.stdout}{result.stderr}{log}")

    def start(self) -> Cluster:
        if not self.data.exists():
            self._run(
                str(self.bindir / "initdb"),
                "-D",
                str(self.data),
                "-U",
                SUPERUSER,
                "--auth=trust",  # only the socket, in a directory only its owner can enter
                "--encoding=UTF8",
                "--no-sync",
            )
        options = f"-k {self.socket_dir} -c listen_addresses='' -p {PORT}"
        self._run(
            str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
            "-o", options, "-w", "-t", "60", "start",
        )  # fmt: skip
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{SUPERUSER}@/{database}?host={self.socket_dir}&port={PORT}"

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(
            host=self.socket_dir, port=PORT, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(sql)

    def create_database(self, name: str) -> str:
        """A new empty database; its SQLAlchemy URL."""
        self._admin(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def postmaster_pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def kill(self) -> None:
        """SIGKILL the postmaster and every backend: a crash, not a shutdown."""
        pid = self.postmaster_pid()
        children = subprocess.run(
            ["pgrep", "-P", str(pid)], capture_output=True, text=True
        ).stdout.split()
        for p in [pid, *map(int, children)]:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(
            Path(f"/proc/{p}").exists() for p in [pid, *map(int, children)]
        ):
            time.sleep(0.05)

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            subprocess.run(
                [*self._as_user, str(self.bindir / "pg_ctl"), "-D", str(self.data),
                 "-m", "immediate", "-w", "stop"],
                capture_output=True, cwd=self.root,
            )  # fmt: skip
        shutil.rmtree(self.root, ignore_errors=True)
