"""What a caller may attach to a ruling so a director can find it later: the event, round,
table, game and player. Free text, bounded, printable; never interpreted, only recorded (and
`game` + `player` key the jury count)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.errors import ApiError
from adjudicator.store.models import LABEL_MAX

FIELDS = ("event", "round", "table", "game", "player")


@dataclass(frozen=True)
class Labels:
    event: str | None = None
    round: str | None = None
    table: str | None = None
    game: str | None = None
    player: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {name: getattr(self, name) for name in FIELDS}


NONE = Labels()


def read_labels(data: dict[str, Any]) -> Labels:
    """The label fields of a request body, checked: strings of 1 to LABEL_MAX printable
    characters (surrounding space trimmed). Absent fields are None."""
    if not any(name in data for name in FIELDS):
        return NONE
    values: dict[str, str] = {}
    for name in FIELDS:
        if name not in data:
            continue
        value = data[name]
        if not isinstance(value, str):
            raise ApiError(400, "wrong_shape", f"'{name}' must be a string", name)
        value = value.strip()
        if not 1 <= len(value) <= LABEL_MAX:
            raise ApiError(
                400, "label_length", f"'{name}' must be 1 to {LABEL_MAX} characters", name
            )
        if not value.isprintable():
            raise ApiError(400, "label_not_printable", f"'{name}' has a control character", name)
        values[name] = value
    return Labels(**values)
