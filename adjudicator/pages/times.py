"""Times as people read them: the one formatter of every page and export.

A time is kept in the store as naive UTC. Wherever a person reads one (the director's screen,
the rulings page, the export) it is shown in the event's time zone (`ADJUDICATOR_TIME_ZONE`, an
IANA name; unset: the machine's own zone, with its daylight-saving rules) and in the page's
locale, through CLDR's formats (Babel's `format_datetime`): `4. dec. 2026 19.05.09` in Danish,
`4 dec. 2026 19:05:09` in Dutch, `Dec 4, 2026, 7:05:09 PM` in English. The zone is named once
per page (`zone_name`), beside the times.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo

from babel.dates import format_datetime

from adjudicator.settings import current_settings

LOCALES = {"da": "da_DK", "sv": "sv_SE", "nl": "nl_NL", "en": "en_GB"}  # page language → CLDR
NO_TIME = "—"


def local(at: datetime | str, zone: tzinfo | None) -> datetime | None:
    """A stored time (a naive UTC datetime, or the audit log's `YYYY-MM-DDTHH:MM:SS.ffffffZ`) on
    the event's clock: an aware datetime in `zone` (None: the machine's zone, its offset on that
    date); None for a text that is no time (a row written around the service)."""
    if isinstance(at, str):
        try:
            at = datetime.fromisoformat(at.removesuffix("Z"))
        except ValueError:
            return None
    return (at.replace(tzinfo=UTC) if at.tzinfo is None else at).astimezone(zone)


def shown_time(at: datetime | str | None, lang: str) -> str:
    """`at` as the page in `lang` shows it, on the event's clock, in CLDR's `medium` form. A
    missing time is a dash; a text that is no time is shown as stored."""
    if at is None:
        return NO_TIME
    when = local(at, current_settings().zone)
    if when is None:
        return str(at)
    return format_datetime(when, "medium", tzinfo=when.tzinfo, locale=LOCALES[lang])


def zone_name() -> str:
    """The zone the times are in, for a heading: its IANA name (`Europe/Copenhagen`), or the
    machine's own zone's abbreviation (`CET`) when none is set."""
    zone = current_settings().zone
    return str(zone) if zone is not None else datetime.now().astimezone().tzname() or "UTC"


def utc_offset(when: datetime) -> str:
    """An aware time's offset from UTC, as ISO 8601 writes it after `UTC`: `UTC+01:00` (never
    a bare `+01:00`, which a spreadsheet would take for the start of a formula)."""
    return "UTC" + when.isoformat()[-6:]
