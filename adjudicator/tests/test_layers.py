"""The package's layers: every import between its parts points down, never up or sideways.

One list below orders the parts of `adjudicator`, lowest first. A part is a subpackage
(`adjudicator.web`), a top-level module (`adjudicator.settings`), or, where a package's one
module sits lower than the rest of it, that module (`adjudicator.web.errors`: the problem
document every layer raises). Each import of every module outside the tests, at module level or
inside a function alike (an import moved into a function to dodge a cycle is still the arrow),
must reach a part on a lower layer, or its own part. Parts on one layer may not import each
other. A new upward import fails here, named by file, line and arrow.
"""

from __future__ import annotations

import ast
from pathlib import Path

import adjudicator

PACKAGE = Path(adjudicator.__file__).parent

# Lowest first. Within a layer, the parts are peers that do not import each other.
LAYERS: list[tuple[str, ...]] = [
    # the labels' PRECIS profiles (the event's setting is one), below all that names them
    ("store.labelforms",),
    # foundations: the settings, the input bounds, the problem codes, ruling ids, the run dir,
    # the catalogue's texts;
    # then the problem document every layer raises
    ("settings", "bounds", "problems", "rulings", "rundir", "messages"),
    # what a process passes on in its environment (settings, among others)
    ("environment",),
    ("web.errors",),
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
    # the assembly: the app factory, the command line, the processes that run it
    ("__init__",),
    ("cli", "process"),
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


def imports(path: Path, name: str) -> list[tuple[int, str]]:
    """(line, module) of every `adjudicator` import in the file of module `name`, anywhere."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
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


def test_every_import_points_down_the_layers():
    assert upward_imports(sources()) == []


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
