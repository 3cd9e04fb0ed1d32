"""Fixtures shared by every test folder: the store's databases, SQLite and PostgreSQL.

`database_url` is parametrized over both, so a test that takes it runs once per database. The
PostgreSQL run uses one throwaway cluster for the whole session (Debian's binaries, a unix
socket in a temporary directory) and a fresh database per test. Without PostgreSQL those runs
skip with advice; with REQUIRE_POSTGRES=1 (CI) they fail instead.

Under pytest-xdist (`make test`) a session is a worker's: each worker has its own cluster, its
own temporary folders (tmp_path_factory's, under the run's) and so its own `_test_store`.
Nothing here is shared between workers.
"""

from __future__ import annotations

import itertools
import os
import signal
from collections import Counter
from collections.abc import Iterator

import pytest

from testsupport.pgcluster import Cluster, PostgresUnavailable

# No process outlives the run, and the run ends with its wall time and the machine's load;
# the tests' own connections reach only loopback and the namespaces they make.
pytest_plugins = ["testsupport.leftovers", "testsupport.netguard"]

_names = itertools.count(1)


def new_cluster() -> Cluster:
    """A started throwaway cluster; skip (fail under REQUIRE_POSTGRES=1) without PostgreSQL."""
    try:
        cluster = Cluster()
    except PostgresUnavailable as exc:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"REQUIRE_POSTGRES=1 but {exc}")
        pytest.skip(str(exc))
    return cluster.start()


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    cluster = new_cluster()
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> Iterator[str]:
    """A new, empty PostgreSQL database."""
    name = f"test_{os.getpid()}_{next(_names)}"
    yield postgres_cluster.create_database(name)
    postgres_cluster.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    """An empty database of each kind, in turn."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'adjudicator.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def lockouts(monkeypatch):
    """Shorter lockouts for one test: `lockouts(LOGIN={"attempts": 3})`. The policies are
    constants of adjudicator.auth.lockout, the same for every deployment, not settings."""
    from dataclasses import replace

    from adjudicator.auth import lockout

    def shorten(**policies: dict) -> None:
        for name, changes in policies.items():
            monkeypatch.setattr(lockout, name, replace(getattr(lockout, name), **changes))

    return shorten


@pytest.fixture
def store(database_url):
    """A store on each kind of database in turn, migrated to the newest schema."""
    from adjudicator.store import Store, migrate

    s = Store(database_url)
    migrate.upgrade(s)
    yield s
    s.dispose()


@pytest.fixture(autouse=True)
def _signal_mask_kept():
    """A test leaves the process's signal mask as it found it: a SIGINT left blocked (an
    in-process `adjudicator serve` whose exec was stubbed out) was inherited by every process
    the worker started after it, and their Ctrl-C tests failed at random."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    yield
    after = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    if after != before:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        pytest.fail(f"the test left the signal mask changed: {sorted(after ^ before)}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked `slow` first (in their own order; the others keep theirs too): on
    pytest-xdist's workers the long ones then start at once and the short ones fill in around
    them, instead of a minute-long test starting last while the other workers sit idle."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session", autouse=True)
def _test_store(tmp_path_factory) -> Iterator[None]:
    """Every app and server the tests start uses a throwaway SQLite store unless the test says
    otherwise, never the developer's `instance/adjudicator.db` or a configured database."""
    saved = os.environ.get("ADJUDICATOR_DATABASE_URL")
    path = tmp_path_factory.mktemp("store") / "adjudicator.db"
    os.environ["ADJUDICATOR_DATABASE_URL"] = f"sqlite:///{path}"
    yield
    if saved is None:
        os.environ.pop("ADJUDICATOR_DATABASE_URL", None)
    else:
        os.environ["ADJUDICATOR_DATABASE_URL"] = saved


# --- progress: a line per test file as it finishes ------------------------------------------


class FileProgress:
    """A line per test file once all its tests have run (outcomes, seconds spent in it, files
    done), in place of a dot per test: with pytest-xdist the dots say nothing about where the
    run is or which file is slow. Failures still print their F or E as they happen.
    `-p no:file-progress` brings the dots back."""

    def __init__(self, reporter) -> None:
        self.reporter = reporter
        self.left: Counter[str] = Counter()  # tests not yet finished, per file
        self.outcomes: dict[str, Counter[str]] = {}
        self.seconds: Counter[str] = Counter()
        self.outcome: dict[str, str] = {}  # a test's, when not passed, until its teardown
        self.letters = False  # a letter since the last line: the next line starts a new one
        self.files = self.done = 0

    def _expect(self, nodeids) -> None:
        if not self.left:
            self.left.update(nodeid.split("::")[0] for nodeid in nodeids)
            self.files = len(self.left)

    def pytest_collection_finish(self, session) -> None:
        self._expect(item.nodeid for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids) -> None:
        self._expect(ids)

    def pytest_report_teststatus(self, report):
        # no dot or s (the file's line counts them; -ra lists the skips); -v still shows words
        if report.when == "call" and report.passed:
            return "passed", "", "PASSED"
        if report.skipped and not hasattr(report, "wasxfail"):
            return "skipped", "", "SKIPPED"
        return None

    def pytest_runtest_logreport(self, report) -> None:
        path = report.nodeid.split("::")[0]
        self.seconds[path] += report.duration
        if report.failed:
            self.outcome[report.nodeid] = "failed" if report.when == "call" else "error"
            self.letters = True  # the reporter wrote its F or E
        elif hasattr(report, "wasxfail"):
            self.outcome[report.nodeid] = "xfailed" if report.skipped else "xpassed"
            self.letters = True
        elif report.skipped:
            self.outcome[report.nodeid] = "skipped"
        if report.when != "teardown" or path not in self.left:
            return
        self.outcomes.setdefault(path, Counter())[self.outcome.pop(report.nodeid, "passed")] += 1
        self.left[path] -= 1
        if self.left[path] == 0:
            self.done += 1
            counts = ", ".join(f"{n} {what}" for what, n in sorted(self.outcomes[path].items()))
            if self.letters:
                self.reporter.write("\n")
                self.letters = False
            self.reporter.write_line(
                f"[{self.done}/{self.files}] {path}: {counts} ({self.seconds[path]:.1f} s)"
            )


@pytest.hookimpl(trylast=True)  # after the terminal reporter's own
def pytest_configure(config) -> None:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and not hasattr(config, "workerinput"):  # not in xdist's workers
        config.pluginmanager.register(FileProgress(reporter), "file-progress")


# --- every problem a route answers is one it declares ------------------------------------------

_UNDECLARED: list[str] = []


def _problem_declared(sender, response, **extra) -> None:
    """Each problem document any test's request gets is held to the answering route's
    `@operation` problems: a code the route answers without declaring it is missing from
    openapi.json and the reference, so every test that provokes a refusal checks the contract."""
    from flask import request

    from adjudicator.web.contract import operation_of

    if response.mimetype != "application/problem+json" or request.endpoint is None:
        return
    op = operation_of(sender.view_functions[request.endpoint])
    if op is None:
        return
    code = (response.get_json(silent=True) or {}).get("code")
    declared = {p[0] if isinstance(p, tuple) else p for p in op.problems}
    if code not in {p.value for p in declared}:
        _UNDECLARED.append(f"{request.method} {request.path}: {code} ({op.id})")


@pytest.fixture(autouse=True)
def _problems_as_declared() -> Iterator[None]:
    from flask import request_finished

    request_finished.connect(_problem_declared)
    _UNDECLARED.clear()
    yield
    found, _UNDECLARED[:] = list(_UNDECLARED), []
    assert not found, "answered with an undeclared problem code: " + "; ".join(found)
