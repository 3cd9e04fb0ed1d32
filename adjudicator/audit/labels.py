"""What a caller may attach to a ruling so a director can find it later: the event, round,
table, game and player. Free text, bounded, printable; never interpreted, only recorded (and
`game` + `player` key the jury count).

A label is recorded as typed (trimmed), for the director to read; wherever labels are compared
(the jury count) they are compared in one canonical form (`canonical`), so `Anna`, `ANNA`,
` Anna `, `Ａnna` and `anna` are one player and `R3-T12` is game `r3-t12`. A label that mixes
scripts (a Cyrillic `а` among Latin letters) is refused: it could only be a look-alike of
another label, made to start a count afresh.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from adjudicator.problems import Problem
from adjudicator.store.labelforms import canonical, mixes_scripts
from adjudicator.store.models import LABEL_MAX
from adjudicator.web.errors import ApiError

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

    def key(self, name: str) -> str | None:
        """The label `name` in its canonical form, as it is compared and counted."""
        value = getattr(self, name)
        return None if value is None else canonical(value)


NONE = Labels()


def under_event(labels: Labels, event: str) -> Labels:
    """The labels a ruling is recorded with where the service runs an event
    (`ADJUDICATOR_EVENT`, empty: none): its event is the service's, as typed in the setting, so
    every ruling of the event carries it and the directors' event filter finds them all. A
    request naming the same event (in any spelling of its canonical form) is recorded under the
    setting's spelling; one naming another event is refused, never recorded under the wrong one.
    """
    if not event:
        return labels
    if labels.event is not None and canonical(labels.event) != canonical(event):
        raise ApiError(
            Problem.OUT_OF_RANGE,
            f"this service records the rulings of the event {event!r}: 'event' must name it or"
            f" be left out, not {labels.event!r}",
            "event",
        )
    return replace(labels, event=event)


def check_label(name: str, value: Any) -> str:
    """The label `name` as recorded: a string of 1 to LABEL_MAX printable characters (surrounding
    space trimmed; the canonical form within LABEL_MAX too, since that is what the store counts
    by), in one script."""
    if not isinstance(value, str):
        raise ApiError(Problem.WRONG_SHAPE, f"'{name}' must be a string", name)
    value = value.strip()
    if not 1 <= len(value) <= LABEL_MAX or len(canonical(value)) > LABEL_MAX:
        raise ApiError(Problem.LABEL_LENGTH, f"'{name}' must be 1 to {LABEL_MAX} characters", name)
    if not value.isprintable():
        raise ApiError(Problem.LABEL_NOT_PRINTABLE, f"'{name}' has a control character", name)
    if mixes_scripts(value):
        raise ApiError(
            Problem.LABEL_MIXED_SCRIPTS,
            f"'{name}' mixes letters of different scripts (a look-alike, such as a Cyrillic"
            " 'а' among Latin letters)",
            name,
        )
    return value
