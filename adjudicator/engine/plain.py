"""The answer of a plain record: its fields by name, in the order the class declares them."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


class Plain:
    """A dataclass whose answer (`to_dict`) is its fields as they are, so that the shape is
    declared once, by the fields. The values are not copied: `dataclasses.asdict` would
    deep-copy every sentence (`Said`) only to hand it on unchanged."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}
