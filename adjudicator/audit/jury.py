"""The jury's per-game limit (SBNL 003: "ten hoogste 10 woorden per speler" put to the jury in a
game, at national tournaments; `challenge.jury_submissions_per_player` in the ruleset), counted
in words, in the store.

Whether the limit applies is the ruleset's `challenge.jury_limit_applies` ("tournament": only
when the service runs a tournament, `ADJUDICATOR_MODE=tournament`; "always"), unless the event's
setting `ADJUDICATOR_JURY_LIMIT` says "on" or "off" (the service cannot tell a national
tournament from another). Where it applies, a query naming its `game` and `player` is counted
per (event, game, player), each label in its compared form (`store.labelforms.key`: its PRECIS
profile's, case-mapped; a label with a character the profile disallows was refused), the event
being the service's own (`ADJUDICATOR_EVENT`), never the request's: a caller cannot start
a count afresh by spelling a label another way or naming another event. A query of N words uses
N, in the same transaction as its audit entry; one that would pass the limit is refused whole
(409 `jury_limit_reached`, in Dutch and English, with `queries_remaining`), and the answer
otherwise says how many words remain (`queries_remaining`). A query without game and player is
refused in tournament mode; in open mode it is answered uncounted, with `queries_remaining: null`.
"""

from __future__ import annotations

from sqlalchemy import Connection, select

from adjudicator.audit.labels import Labels
from adjudicator.problems import Problem
from adjudicator.rulesets import Ruleset
from adjudicator.settings import current_settings
from adjudicator.store import utcnow
from adjudicator.store.models import JuryWords
from adjudicator.web.errors import ApiError

WORDS = JuryWords.__table__


def applies(ruleset: Ruleset) -> bool:
    """Whether this event counts jury queries: the event's setting, else the ruleset's rule."""
    setting = current_settings().jury_limit
    if setting != "ruleset":
        return setting == "on"
    return ruleset.challenge.jury_limit_applies == "always" or current_settings().tournament


def limit_for(ruleset: Ruleset) -> int | None:
    """The ruleset's per-player, per-game jury limit in words; None when it has none here."""
    if ruleset.challenge.mode != "jury" or not applies(ruleset):
        return None
    return ruleset.challenge.jury_submissions_per_player


def counted(ruleset: Ruleset, labels: Labels) -> int | None:
    """The limit to count this query against, or None to answer it uncounted."""
    limit = limit_for(ruleset)
    if limit is None:
        return None
    missing = [name for name in ("game", "player") if getattr(labels, name) is None]
    if not missing:
        return limit
    if current_settings().tournament:
        raise ApiError(
            Problem.MISSING_FIELD,
            f"a jury query under {ruleset.id} names its 'game' and 'player' (the limit is"
            f" {limit} words per player and game)",
            missing[0],
        )
    return None


def _key(labels: Labels) -> dict[str, str | None]:
    """The count's row: the service's event, the game and the player, each canonical."""
    return {
        "event": current_settings().event_key,
        "game": labels.key("game"),
        "player": labels.key("player"),
    }


def _used(conn: Connection, key: dict[str, str | None]) -> int | None:
    """The words counted so far in the count's row `key` (`_key`); None before the first."""
    return conn.execute(select(WORDS.c.words).filter_by(**key)).scalar_one_or_none()


def left(conn: Connection, labels: Labels, limit: int) -> int:
    """The words (event, game, player) may still put to the jury: a read, counting nothing. It
    says what the next query's answer or refusal would say (`queries_remaining`), no more."""
    return max(0, limit - (_used(conn, _key(labels)) or 0))


def count(conn: Connection, labels: Labels, limit: int, words: int) -> int:
    """Count a query of `words` words for (event, game, player); the words left after it.
    Refuses the whole query when it would pass the limit. Runs under the audit log's append
    lock, so counts never race."""
    key = _key(labels)
    used = _used(conn, key)
    left = limit - (used or 0)
    if words > left:
        raise ApiError(
            Problem.JURY_LIMIT_REACHED,
            f"Limiet bereikt: speler {labels.player} heeft in partij {labels.game} al"
            f" {used or 0} van de {limit} woorden aan de jury voorgelegd; er mogen nog {left}"
            f" worden voorgelegd, niet {words}. / Limit reached: player {labels.player} has"
            f" already put {used or 0} of {limit} words to the jury in game {labels.game};"
            f" {left} may still be put, not {words}.",
            "player",
            extra={"queries_remaining": left},
        )
    now = utcnow()
    if used is None:
        conn.execute(WORDS.insert(), {**key, "words": words, "updated_at": now})
    else:
        conn.execute(WORDS.update().filter_by(**key), {"words": used + words, "updated_at": now})
    return left - words
