"""Every error code the service can emit, read from its source rather than listed by hand.

The OpenAPI document's `Problem.code` enum must equal this set (a test checks it), so a code added
anywhere in the code shows up as a failing test until it is documented.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import adjudicator
from adjudicator.game.errors import GameInputError
from adjudicator.game.racks import RackError
from adjudicator.web import errors

PACKAGE = Path(adjudicator.__file__).parent
# The exception types whose constructor takes a code, and the position of that argument.
CODE_ARGUMENT = {"ApiError": 1, "GameInputError": 2, "RackError": 2}
DEFAULT_CODE = {
    name: inspect.signature(cls.__init__).parameters["code"].default
    for name, cls in (("GameInputError", GameInputError), ("RackError", RackError))
}


def _strings(node: ast.AST) -> set[str]:
    """The string constants a code expression can take (`"a" if x else exc.code` → {"a"})."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    return set()  # a variable: its values are collected where they are assigned or raised


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def codes_in_source() -> set[str]:
    found = set(errors.HTTP_CODES.values()) | {errors.OTHER_HTTP_CODE, errors.INTERNAL_CODE}
    for path in PACKAGE.rglob("*.py"):
        if "tests" in path.relative_to(PACKAGE).parts:
            continue
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node) in CODE_ARGUMENT:
                name = _call_name(node)
                position = CODE_ARGUMENT[name]
                given = [kw.value for kw in node.keywords if kw.arg == "code"]
                if len(node.args) > position:
                    given.append(node.args[position])
                if given:
                    for expr in given:
                        found |= _strings(expr)
                elif name in DEFAULT_CODE:
                    found.add(DEFAULT_CODE[name])
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "code" for t in node.targets
            ):
                found |= _strings(node.value)
    return found
