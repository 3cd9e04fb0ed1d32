"""Issue 28 item 8: the wheel ships the service, not its test helpers. The modules the wheel
holds are those of the packages pyproject.toml's `packages.find` selects; each must be reached
from the service's own entry points, since a module only the tests import (a throwaway
PostgreSQL cluster, a fixture) belongs in `testsupport/` or a conftest, outside the wheel.
`.ci/wheel-smoke` checks the built wheel itself."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[2]
# Where the service starts: the console scripts, the WSGI app, gunicorn's settings and its
# entry point, and the Alembic migrations (loaded from their files, by path).
# The console scripts are read from pyproject.toml, where they are declared.
CONSOLE_SCRIPTS = tuple(
    target.partition(":")[0]
    for target in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "scripts"
    ].values()
)
ENTRY_POINTS = (
    *CONSOLE_SCRIPTS,
    "adjudicator.cli.__main__",  # python -m adjudicator.cli
    "adjudicator.settings.__main__",  # python -m adjudicator.settings --check / --markdown
    "adjudicator.process.wsgi",
    "adjudicator.process.gunicorn_conf",
    "adjudicator.process.gunicorn_main",
)
# The test extra's import names, and the checkout's own test helpers.
TEST_ONLY = {
    "pytest",
    "xdist",
    "hypothesis",
    "requests",
    "playwright",
    "schemathesis",
    "jsonschema",
    "confusable_homoglyphs",
    "mkdocs",
    "testsupport",
    "conftest",
}
DOTTED = re.compile(r"[A-Za-z_][\w.]*(:\w+)?")


def shipped_modules() -> dict[str, Path]:
    """Every module of the packages the wheel holds, by dotted name."""
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    select = found["packages"]["find"]
    modules = {}
    for package in find_packages(str(ROOT), include=select["include"], exclude=select["exclude"]):
        for path in (ROOT / package.replace(".", "/")).glob("*.py"):
            modules[package if path.stem == "__init__" else f"{package}.{path.stem}"] = path
    for path in (ROOT / "adjudicator" / "store" / "migrations").rglob("*.py"):  # package data
        modules[".".join(path.relative_to(ROOT).with_suffix("").parts)] = path
    return modules


def _named(module: str, tree: ast.AST) -> set[str]:
    """What a module imports, absolute, or names as `module` / `module:function` text (a
    setting's check, gunicorn's worker class), however it is loaded."""
    names: set[str] = set()
    package = module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            names |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if DOTTED.fullmatch(node.value):
                names.add(node.value.partition(":")[0])
    return names


def test_every_module_in_the_wheel_serves_the_service():
    modules = shipped_modules()
    graph = {m: _named(m, ast.parse(p.read_text(encoding="utf-8"))) for m, p in modules.items()}
    test_imports = {
        m: sorted(n for n in names if n.split(".")[0] in TEST_ONLY) for m, names in graph.items()
    }
    assert {m: n for m, n in test_imports.items() if n} == {}
    reached: set[str] = set()
    todo = [*ENTRY_POINTS, *(m for m in modules if ".migrations" in m)]
    while todo:
        module = todo.pop()
        if module in reached or module not in modules:
            continue
        reached.add(module)
        parts = module.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]  # its packages run first
        for name in graph[module]:
            # `a.b.c` may be module a.b's attribute c, or `a.b.Class.method` in text
            while name and name not in modules:
                name = name.rpartition(".")[0]
            todo.append(name)
    assert sorted(set(modules) - reached) == []
