"""The package's layers: every import between its parts points down, never up or sideways.

One list below orders the parts of `adjudicator`, lowest first. A part is a subpackage
(`adjudicator.web`), a top-level module (`adjudicator.settings`), or, where a package's one
module sits apart from the rest of it, that module (`adjudicator.process.entry`). Each import of
every module outside the tests, at module level or inside a function alike (an import moved into
a function to dodge a cycle is still the arrow), must reach a part on a lower layer, or its own
part. So must a module named in a string (`importlib.import_module("adjudicator.x")`,
`__import__`, a `"adjudicator.x:f"` target): an import deferred to run time is the arrow too.
Parts on one layer may not import each other. An object reached through `app.extensions` is
the arrow too: a key is put in place by the lowest part that writes it (a higher one may replace
its value, as a hot reload does), and no lower part may read it. There are no exceptions: a new
upward import fails here, named by file, line and arrow.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import adjudicator

PACKAGE = Path(adjudicator.__file__).parent
# A string that names a module of the package, perhaps with an attribute (`module:function`)
NAMED = re.compile(r"adjudicator(?:\.\w+)+(?::\w+)?")

# Lowest first. Within a layer, the parts are peers that do not import each other.
LAYERS: list[tuple[str, ...]] = [
    # the labels' PRECIS profiles (the event's setting is one), below all that names them
    ("store.labelforms",),
    # foundations: the settings, the input bounds, the problem codes (and the domain's error
    # base), ruling ids, the run dir, the catalogue's texts
    ("settings", "bounds", "problems", "rulings", "rundir", "messages"),
    # what a process passes on in its environment (settings, among others)
    ("environment",),
    # the domain: one move, one game, the rulesets, the lexicons and what may be disclosed
    ("engine", "disclosure", "wordforms", "lexicon_registry"),
    ("game",),
    ("rulesets",),
    ("catalogue",),
    # the durable state
    ("store",),
    # the HTTP plumbing, then the HTML pages' common parts
    ("web",),
    ("pages",),
    # who asks, what was ruled, the JSON API, the judge's tablet
    ("auth",),
    ("audit",),
    ("api",),
    ("judge",),
    # the assembly: the app factory, the processes that run it, the command line (which starts
    # them)
    ("__init__",),
    ("process",),
    ("cli",),
    # the console script's entry: light, it loads the command line once a Ctrl-C is handled
    ("process.entry",),
]
RANK = {part: rank for rank, layer in enumerate(LAYERS) for part in layer}


def module_name(path: Path) -> str:
    parts = ["adjudicator", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def part_of(dotted: str) -> str:
    """The part of LAYERS a module belongs to: its longest prefix listed there."""
    names = dotted.split(".")[1:]
    for n in range(len(names), 0, -1):
        if ".".join(names[:n]) in RANK:
            return ".".join(names[:n])
    return "__init__" if not names else names[0]


def named_module(text: str) -> str | None:
    """The module of the package a string names (`adjudicator.web.cors:checked_origins`,
    `adjudicator.web.logs.JsonLogger`), or None (a logger's name, prose)."""
    if not NAMED.fullmatch(text):
        return None
    dotted = text.partition(":")[0].split(".")
    for n in range(len(dotted), 1, -1):
        if is_module(".".join(dotted[:n])):
            return ".".join(dotted[:n])
    return None


def imports(path: Path, name: str) -> list[tuple[int, str]]:
    """(line, module) of every `adjudicator` import in the file of module `name`, anywhere: the
    import statements, and the strings naming a module (what `importlib.import_module`,
    `__import__`, a `module:function` setting or a WSGI target import at run time)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if named := named_module(node.value):
                found.append((node.lineno, named))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:  # `from adjudicator import web` imports the subpackage
                full = f"{base}.{alias.name}"
                found.append((node.lineno, full if is_module(full) else base))
    return sorted({(line, m) for line, m in found if m.split(".")[0] == "adjudicator"})


def sources() -> dict[Path, str]:
    """Every module outside the tests, by its file."""
    return {
        p: module_name(p)
        for p in sorted(PACKAGE.rglob("*.py"))
        if "tests" not in p.relative_to(PACKAGE).parts
    }


def upward_imports(files: dict[Path, str]) -> list[str]:
    wrong = []
    for path, name in files.items():
        here = part_of(name)
        for line, target in imports(path, name):
            there = part_of(target)
            if there == here:
                continue
            if here not in RANK or there not in RANK:
                wrong.append(f"{path}:{line}: {here} or {there} is in no layer of LAYERS")
            elif RANK[there] >= RANK[here]:
                how = "sideways" if RANK[there] == RANK[here] else "upward"
                wrong.append(f"{path}:{line}: {how} import {here} -> {there} ({target})")
    return wrong


def extension_keys(path: Path) -> Iterator[tuple[int, str, bool]]:
    """(line, key, written) of each `….extensions["key"]` and `….extensions.get("key")` (a
    read) or `.setdefault("key", …)` (a write) in the file, for a key written out."""
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Subscript) and _is_extensions(node.value):
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                yield node.lineno, node.slice.value, isinstance(node.ctx, ast.Store)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method, args = node.func.attr, node.args
            if method in ("get", "setdefault") and _is_extensions(node.func.value) and args:
                if isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
                    yield node.lineno, args[0].value, method == "setdefault"


def _is_extensions(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "extensions"


def upward_lookups(files: dict[Path, str]) -> list[str]:
    """Reads of an `app.extensions` key in a part below the lowest part that writes it."""
    owners: dict[str, str] = {}
    reads = []
    for path, name in files.items():
        here = part_of(name)
        for line, key, written in extension_keys(path):
            if not written:
                reads.append((path, line, key, here))
            elif key not in owners or RANK[here] < RANK[owners[key]]:
                owners[key] = here
    wrong = []
    for path, line, key, here in reads:
        owner = owners.get(key)
        if owner is None:
            wrong.append(f"{path}:{line}: app.extensions[{key!r}] is read but never put there")
        elif RANK[owner] > RANK[here]:
            wrong.append(f"{path}:{line}: upward lookup {here} -> {owner} (extensions[{key!r}])")
    return wrong


def test_every_import_points_down_the_layers():
    assert upward_imports(sources()) == []


def test_every_lookup_in_app_extensions_points_down_the_layers():
    assert upward_lookups(sources()) == []


def test_an_upward_lookup_is_named(tmp_path: Path):
    """A plant: the JSON API puts its check in `app.extensions` for the directors' pages to
    call, so the auth part reaches up through the app."""
    api, auth = tmp_path / "api.py", tmp_path / "auth.py"
    api.write_text('def init_app(app):\n    app.extensions["check"] = len\n')
    auth.write_text('from flask import current_app\n\ncurrent_app.extensions["check"]("x")\n')
    assert upward_lookups({api: "adjudicator.api.games", auth: "adjudicator.auth.views"}) == [
        f"{auth}:3: upward lookup auth -> api (extensions['check'])"
    ]


def test_every_part_is_in_the_list():
    parts = {part_of(name) for name in sources().values()}
    assert parts <= set(RANK), sorted(parts - set(RANK))


def test_an_upward_import_is_named(tmp_path: Path):
    """A plant: the store importing the audit log inside a function is refused, named."""
    plant = tmp_path / "planted.py"
    plant.write_text("import os\n\n\ndef f():\n    from adjudicator.audit import chain\n")
    assert upward_imports({plant: "adjudicator.store.planted"}) == [
        f"{plant}:5: upward import store -> audit (adjudicator.audit.chain)"
    ]


@pytest.mark.parametrize(
    "source",
    [
        'importlib.import_module("adjudicator.audit.jury")',
        '__import__("adjudicator.audit.jury")',
        'CHECK = "adjudicator.audit.jury:checked_event"',
        'TARGET = "adjudicator.audit.jury.checked_event"',
    ],
)
def test_an_upward_import_by_string_is_named(tmp_path: Path, source: str):
    """A plant: the settings naming the audit log's module in a string (what the settings'
    `module:function` checks once did) is refused as an import would be."""
    plant = tmp_path / "planted.py"
    plant.write_text(f"import importlib\n\n{source}\n")
    assert upward_imports({plant: "adjudicator.settings"}) == [
        f"{plant}:3: upward import settings -> audit (adjudicator.audit.jury)"
    ]


def test_a_string_that_names_no_module_is_no_import(tmp_path: Path):
    """A logger's name (`adjudicator.db`) or prose that mentions a module is no arrow."""
    plant = tmp_path / "planted.py"
    plant.write_text('LOG = "adjudicator.db"\n"""See adjudicator.audit.jury."""\n')
    assert upward_imports({plant: "adjudicator.settings"}) == []


def test_the_command_line_runs_as_a_module():
    """`python -m adjudicator.cli` once died of the cli ⇄ auth/cli cycle (a circular import)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(PACKAGE.parent)}
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator.cli", "--help"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "usage: adjudicator" in done.stdout
