"""The problem codes the source raises, read from it: the members of `Problem` it names.

The codes themselves are declared once, in `adjudicator.problems`; this reads where they are
used, so that a test can hold the declaration to the source: every member is raised somewhere
(no dead code in the contract), and every status a raise site gives is one its code declares.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import adjudicator
from adjudicator.problems import Problem

PACKAGE = Path(adjudicator.__file__).parent
DEPLOY = PACKAGE.parent / "deploy"  # nginx's own refusals are worded as problems there too


def _trees(*under: Path) -> Iterator[tuple[Path, ast.AST]]:
    for folder in under or (PACKAGE, DEPLOY):
        for path in sorted(folder.rglob("*.py")):
            if "tests" in path.relative_to(folder).parts or path.name == "problems.py":
                continue
            yield path, ast.parse(path.read_text("utf-8"), str(path))


def _members(node: ast.AST) -> Iterator[Problem]:
    """Each `Problem.NAME` within `node` (an unknown NAME fails here, with its name)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and getattr(sub.value, "id", None) == "Problem":
            yield Problem[sub.attr]


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def codes_in_source() -> set[str]:
    """Every code the product source names (HTTP_CODES and the constants included), and the
    deployment's (nginx's refusals)."""
    return {member.value for _, tree in _trees() for member in _members(tree)}


def statuses() -> dict[str, set[int]]:
    """Member name -> the literal statuses raise sites give it with `status=`."""
    found: dict[str, set[int]] = {}
    for _, tree in _trees():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _call_name(node) == "ApiError"):
                continue
            given = [k.value for k in node.keywords if k.arg == "status"]
            if not given or not node.args:
                continue
            if isinstance(given[0], ast.Constant) and isinstance(given[0].value, int):
                for member in _members(node.args[0]):
                    found.setdefault(member.name, set()).add(given[0].value)
    return found


def codes_raised_with(names: set[str]) -> dict[str, set[str]]:
    """Error type name -> the member names the source builds it with (its calls, and the
    defaults of its own class)."""
    found: dict[str, set[str]] = {name: set() for name in names}
    for _, tree in _trees(PACKAGE):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node) in names:
                found[_call_name(node)] |= {m.name for m in _members(node)}
            elif isinstance(node, ast.ClassDef) and node.name in names:
                defaults = [n for n in node.body if isinstance(n, ast.FunctionDef)]
                found[node.name] |= {m.name for f in defaults for m in _members(f.args)}
    return found
