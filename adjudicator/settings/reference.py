"""The settings reference (docs/reference/settings.md): a Markdown table of `Settings`' fields,
rendered when the docs site is built (tools/docs_hooks.py), so it cannot drift from them."""

from __future__ import annotations

from types import NoneType, UnionType
from typing import Literal, get_args, get_origin

from pydantic.fields import FieldInfo

from adjudicator.settings import BOUNDS, Settings, variable

KINDS = {int: "whole number", float: "number", bool: "`0` or `1`"}


def default_text(field: FieldInfo) -> str:
    """A field's default as the reference (and a command's help) shows it."""
    extra = field.json_schema_extra
    if isinstance(extra, dict) and "shown" in extra:
        return str(extra["shown"])
    default = field.default
    if isinstance(default, bool):
        return f"`{int(default)}`"
    if isinstance(default, str):
        return f"`{default}`" if default else "empty"
    return f"{default:g}" if isinstance(default, float) else str(default)


def _rule_text(field: FieldInfo) -> str:
    kind = field.annotation
    if get_origin(kind) is Literal:
        return "one of " + ", ".join(f"`{c}`" for c in get_args(kind))
    if get_origin(kind) is UnionType:  # `float | None`: unset by default
        kind = next(k for k in get_args(kind) if k is not NoneType)
    text = KINDS.get(kind, "comma-separated" if get_origin(kind) else "text")  # type: ignore[arg-type]
    for rule in field.metadata:
        for name, sign in BOUNDS.items():
            if hasattr(rule, name):
                text += f" {sign} {getattr(rule, name):g}"
    return text


def markdown_table() -> str:
    """The settings as a Markdown table, links relative to the settings reference."""
    lines = ["| variable | default | allowed | meaning |", "|---|---|---|---|"]
    for name, field in Settings.model_fields.items():
        cells = [f"`{variable(name)}`", default_text(field), _rule_text(field)]
        lines.append("| " + " | ".join([*cells, field.description or ""]) + " |")
    return "\n".join(lines) + "\n"
