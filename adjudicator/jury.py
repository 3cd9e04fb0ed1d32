"""The jury's per-game limit (SBNL 003: at most N words put to the jury per player and game,
`challenge.jury_submissions_per_player` in the ruleset), counted in the store.

Under a ruleset in jury mode (`challenge.mode = "jury"`) with a limit, a query naming its `game`
and `player` (and optionally its `event`) is counted per (event, game, player), in the same
transaction as its audit entry; past the limit it is refused (409 `jury_limit_reached`, in
Dutch and English) and the answer otherwise says how many remain (`queries_remaining`). A query
without game and player is refused in tournament mode; in open mode (home and club) it is
answered uncounted, with `queries_remaining: null`.
"""

from __future__ import annotations

from flask import current_app
from sqlalchemy import Connection, select

from adjudicator.audit.labels import Labels
from adjudicator.errors import ApiError
from adjudicator.rulesets import Ruleset
from adjudicator.store import utcnow
from adjudicator.store.models import JuryCount

COUNTS = JuryCount.__table__


def limit_for(ruleset: Ruleset) -> int | None:
    """The ruleset's per-player, per-game jury limit; None when it has none."""
    challenge = ruleset.data["challenge"]
    if challenge["mode"] != "jury":
        return None
    return challenge.get("jury_submissions_per_player")


def counted(ruleset: Ruleset, labels: Labels) -> int | None:
    """The limit to count this query against, or None to answer it uncounted."""
    limit = limit_for(ruleset)
    if limit is None:
        return None
    missing = [name for name in ("game", "player") if getattr(labels, name) is None]
    if not missing:
        return limit
    if current_app.config.get("MODE", "open") == "tournament":
        name = missing[0]
        raise ApiError(
            400,
            "missing_field",
            f"a jury query under {ruleset.id} names its 'game' and 'player' (the limit is"
            f" {limit} per player and game)",
            name,
        )
    return None


def count(conn: Connection, ruleset: Ruleset, labels: Labels, limit: int) -> int:
    """Count one query for (event, game, player); the number left after it. Refuses the query
    past the limit. Runs under the audit log's append lock, so counts never race."""
    key = {"event": labels.event or "", "game": labels.game, "player": labels.player}
    where = [COUNTS.c[name] == value for name, value in key.items()]
    used = conn.execute(select(COUNTS.c.count).where(*where)).scalar_one_or_none()
    if used is not None and used >= limit:
        raise ApiError(
            409,
            "jury_limit_reached",
            f"Limiet bereikt: speler {labels.player} heeft in partij {labels.game} al {used}"
            f" woorden aan de jury voorgelegd (maximaal {limit}). / Limit reached: player"
            f" {labels.player} has already put {used} queries to the jury in game"
            f" {labels.game} (at most {limit}).",
            "player",
        )
    now = utcnow()
    if used is None:
        conn.execute(COUNTS.insert(), {**key, "count": 1, "updated_at": now})
    else:
        conn.execute(COUNTS.update().where(*where), {"count": used + 1, "updated_at": now})
    return limit - (used or 0) - 1
