"""Fixtures shared by every test folder: the store's databases, SQLite and PostgreSQL.

`database_url` is parametrized over both, so a test that takes it runs once per database. The
PostgreSQL run uses one throwaway cluster for the whole session (Debian's binaries, a unix
socket in a temporary directory) and a fresh database per test. Without PostgreSQL those runs
skip with advice; with REQUIRE_POSTGRES=1 (CI) they fail instead.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import pytest

from adjudicator.store.pgcluster import Cluster, PostgresUnavailable

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
def store(database_url):
    """A store on each kind of database in turn, migrated to the newest schema."""
    from adjudicator.store import Store, migrate

    s = Store(database_url)
    migrate.upgrade(s)
    yield s
    s.dispose()


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
