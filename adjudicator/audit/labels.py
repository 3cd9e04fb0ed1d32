"""What a caller may attach to a ruling so a director can find it later: the event, round,
table, game and player. Bounded, never interpreted, only recorded (and `game` + `player` key the
jury count).

Each label is under a PRECIS profile (`store.labelforms`: names under Nickname, RFC 8266; game
and round under the IdentifierClass, RFC 8265): it is recorded and shown in the profile's form
(`Ａnna  Lise` is `Anna Lise`, `R3‐T12` is `R3-T12`) and compared, counted and searched in its
case-mapped form (`Anna`, `ANNA` and `anna` are one player). A character the profile disallows
(a variation selector, a Hangul filler, any default-ignorable or control character) is refused
with `label_disallowed_character` naming it, never dropped. A label that mixes scripts (a
Cyrillic `а` among Latin letters) is refused: it could only be a look-alike of another label,
made to start a count afresh.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from adjudicator.problems import DomainError, Problem
from adjudicator.store import labelforms
from adjudicator.store.models import LABEL_MAX


class LabelError(DomainError):
    """A label its profile refuses, too long, in mixed scripts, or naming another event."""


@dataclass(frozen=True)
class Labels:
    event: str | None = None
    round: str | None = None
    table: str | None = None
    game: str | None = None
    player: str | None = None

    def key(self, name: str) -> str | None:
        """The label `name` in its compared form (its profile's, case-mapped), as counted."""
        value = getattr(self, name)
        return None if value is None else labelforms.key(name, value)


NONE = Labels()
FIELDS = tuple(f.name for f in fields(Labels))  # the labels' names, in the order declared


def under_event(labels: Labels, event: str) -> Labels:
    """The labels a ruling is recorded with where the service runs an event
    (`ADJUDICATOR_EVENT`, empty: none): its event is the service's, as typed in the setting, so
    every ruling of the event carries it and the directors' event filter finds them all. A
    request naming the same event (any spelling its profile compares as one) is recorded under
    the setting's form; one naming another event is refused, never recorded under the wrong one.
    """
    if not event:
        return labels
    if labels.event is not None and labels.key("event") != labelforms.key("event", event):
        raise LabelError(
            Problem.OUT_OF_RANGE,
            f"this service records the rulings of the event {event!r}: 'event' must name it or"
            f" be left out, not {labels.event!r}",
            "event",
        )
    return replace(labels, event=event)


def check_label(name: str, value: Any) -> str:
    """The label `name` as recorded: text its profile takes, 1 to LABEL_MAX characters in its
    profile's form and in its compared form (what the store counts by), in one script."""
    if not isinstance(value, str):
        raise LabelError(Problem.WRONG_SHAPE, f"'{name}' must be a string", name)
    try:
        recorded = labelforms.shown(name, value)
        compared = labelforms.key(name, recorded)
    except labelforms.Refused as refused:
        raise refusal(name, refused) from None
    if len(recorded) > LABEL_MAX or len(compared) > LABEL_MAX:
        raise _out_of_bounds(name)
    if labelforms.mixes_scripts(recorded):
        raise LabelError(
            Problem.LABEL_MIXED_SCRIPTS,
            f"'{name}' mixes letters of different scripts (a look-alike, such as a Cyrillic"
            " 'а' among Latin letters)",
            name,
        )
    return recorded


def refusal(name: str, refused: labelforms.Refused) -> LabelError:
    """The problem for label `name` refused by its profile: `label_length` when nothing is left
    of it, else `label_disallowed_character` naming the character (`character`: `U+FE0F`,
    `character_name`: `VARIATION SELECTOR-16`) and the profile."""
    if refused.reason == "empty":
        return _out_of_bounds(name)  # nothing is left of it
    profile = labelforms.PROFILES.get(name, labelforms.NICKNAME)  # a search's text: a name
    standard = "RFC 8266" if profile == labelforms.NICKNAME else "RFC 8265"
    if refused.char is None:
        return LabelError(
            Problem.LABEL_DISALLOWED_CHARACTER,
            f"'{name}' is not a valid {profile} ({standard}): {refused.reason}",
            name,
        )
    described = labelforms.describe(refused.char)
    code, char_name = described.split(" ", 1)
    return LabelError(
        Problem.LABEL_DISALLOWED_CHARACTER,
        f"'{name}' has {described}, a character a {profile} may not hold ({standard}, PRECIS:"
        f" {refused.reason}); it is refused, not dropped",
        name,
        extra={"character": code, "character_name": char_name},
    )


def _out_of_bounds(name: str) -> LabelError:
    """`label_length`: the one refusal of a label out of its bounds, empty or too long."""
    return LabelError(Problem.LABEL_LENGTH, f"'{name}' must be 1 to {LABEL_MAX} characters", name)
