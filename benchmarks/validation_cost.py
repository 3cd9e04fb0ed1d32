"""What validating a request body costs: the pydantic models (`adjudicator.api.bodies`) against
the hand checks they replaced (issue 28), CPU time per call, measured in one run.

Three representative bodies, each taken from its parsed JSON object to what the view hands the
engine (the shared steps after that, the lexicon's word forms, the board, the walk, are left
out):

- challenge: two words and four labels, as a tournament tablet sends them;
- moves/validate: a seven-tile play given as structured tiles, on a full board (15 rows);
- games/verify: a 40-turn record as JSON turns (plays, exchanges, passes), to its GameRecord.

The hand checks are a frozen copy of today's views at the commit before the models (f7d0f7d),
below; the models are the service's own. Rounds are interleaved (every case once per round, in
a rotating order), each case's CPU time per call (`time.process_time_ns`) is taken per round,
and the medians and their ratio (models / hand checks) are printed.

Run: `.venv/bin/python benchmarks/validation_cost.py [--rounds 21] [--calls 2000]`.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pydantic  # noqa: E402

from adjudicator import bounds  # noqa: E402
from adjudicator.api import bodies  # noqa: E402
from adjudicator.api import moves as moves_view  # noqa: E402
from adjudicator.audit.labels import FIELDS as LABEL_FIELDS  # noqa: E402
from adjudicator.audit.labels import NONE, Labels  # noqa: E402
from adjudicator.game.gcg import END_RACK, EXCHANGE, PLAY, Event, GameRecord  # noqa: E402
from adjudicator.game.turns import TURN_TYPES, read_turns  # noqa: E402
from adjudicator.problems import Problem  # noqa: E402
from adjudicator.store.labelforms import mixes_scripts  # noqa: E402
from adjudicator.store.models import LABEL_MAX  # noqa: E402
from adjudicator.web.errors import ApiError  # noqa: E402

# --- the bodies ---------------------------------------------------------------------------------

LABELS = {"event": "NM 2027", "table": "12", "game": "r3-t12", "player": "Anna"}
CHALLENGE = {"words": ["KATTE", "HEJ"], **LABELS}
BOARD = ["CATSDOGSRATSBAT"] * 15  # a full board: the checks read the rows, not the words
MOVE = {
    "board": BOARD,
    "play": {"tiles": [{"row": 7, "col": 4 + i, "letter": ch} for i, ch in enumerate("RETAINS")]},
    "rack": "AEINRST",
    **LABELS,
}


# The hand checks' key check, frozen here with them (the models replaced it in the service).
def only_fields(data: dict[str, Any], allowed: set[str], within: str = "") -> None:
    """Refuse keys the endpoint does not read; `within` names a nested object (`players[2]`)."""
    for key in data:
        if key not in allowed:
            field = f"{within}.{key}" if within else key
            raise ApiError(Problem.UNKNOWN_FIELD, f"unknown field {key!r}", field)


def _turns(n: int) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    for i in range(n):
        player = "anna" if i % 2 == 0 else "bo"
        if i % 10 == 7:
            turns.append({"player": player, "type": "exchange", "tiles": "QV", "rack": "QVAEIRS"})
        elif i % 10 == 9:
            turns.append({"player": player, "type": "pass", "rack": "AEIRSTU"})
        else:
            turns.append(
                {"player": player, "type": "play", "move": "8D RETAINS", "score": 24 + i}
                | {"rack": "AEINRST"}
            )
    return turns


VERIFY = {"players": ["anna", "bo"], "turns": _turns(40)}


# --- frozen copy of the hand checks (adjudicator at f7d0f7d) ------------------------------------


class HandError(Exception):
    """The hand checks' refusal as they raised it (status, code, message, field): frozen here, so
    that today's ApiError signature does not reach into the copy."""


def canonical(value: str) -> str:
    """labelforms.canonical at f7d0f7d (labels are now compared under PRECIS, issue 35)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", value).casefold())
    digits = "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in folded)
    return " ".join(digits.split())


def old_read_labels(data: dict[str, Any]) -> Labels:
    if not any(name in data for name in LABEL_FIELDS):
        return NONE
    values: dict[str, str] = {}
    for name in LABEL_FIELDS:
        if name not in data:
            continue
        value = data[name]
        if not isinstance(value, str):
            raise HandError(400, "wrong_shape", f"'{name}' must be a string", name)
        value = value.strip()
        if not 1 <= len(value) <= LABEL_MAX or len(canonical(value)) > LABEL_MAX:
            raise HandError(400, "label_length", f"'{name}' must be 1 to {LABEL_MAX}", name)
        if not value.isprintable():
            raise HandError(400, "label_not_printable", f"'{name}' has a control character", name)
        if mixes_scripts(value):
            raise HandError(400, "label_mixed_scripts", f"'{name}' mixes scripts", name)
        values[name] = value
    return Labels(**values)


def old_challenge(data: dict[str, Any]) -> tuple[list[str], bool, Labels]:
    only_fields(data, {"words", *LABEL_FIELDS} | {"free_challenge"})
    value = data.get("free_challenge", False)
    if not isinstance(value, bool):
        raise HandError(400, "wrong_shape", "'free_challenge' must be true or false", "free")
    words = data.get("words")
    if not isinstance(words, list):
        raise HandError(400, "wrong_shape", "'words' must be a list of strings", "words")
    if not 1 <= len(words) <= bounds.MAX_CHALLENGE_WORDS:
        raise HandError(400, "word_count", "challenge 1 to 8 words", "words")
    labels = old_read_labels(data)
    for i, text in enumerate(words):  # normalise_word's own checks before the normaliser
        if not isinstance(text, str):
            raise HandError(400, "word_not_string", "each word must be a string", f"words[{i}]")
        if len(text) > bounds.MAX_WORD_CHARS:
            raise HandError(400, "word_too_long", "too long", f"words[{i}]")
    return words, value, labels


def old_play(data: dict[str, Any]) -> str | list[dict[str, Any]]:
    play = data.get("play")
    if isinstance(play, str):
        return play
    if not isinstance(play, dict) or set(play) != {"tiles"} or not isinstance(play["tiles"], list):
        raise HandError(400, "wrong_shape", "'play' is notation text or tiles", "play")
    tiles = []
    for i, tile in enumerate(play["tiles"]):
        field = f"play.tiles[{i}]"
        if not isinstance(tile, dict) or not {"row", "col", "letter"} <= set(tile):
            raise HandError(400, "wrong_shape", "a tile needs row, col and letter", field)
        if set(tile) - {"row", "col", "letter", "blank"}:
            raise HandError(400, "unknown_field", "a tile has only row, col, letter, blank", field)
        for key in ("row", "col"):
            if not isinstance(tile[key], int) or isinstance(tile[key], bool):
                raise HandError(400, "wrong_shape", f"'{key}' must be a whole number", field)
            if not 0 <= tile[key] < 15:
                raise HandError(400, "out_of_range", f"'{key}' is 0 to 14", f"{field}.{key}")
        if not isinstance(tile["letter"], str) or not isinstance(tile.get("blank", False), bool):
            raise HandError(400, "wrong_shape", "'letter' is a string, 'blank' true/false", field)
        tiles.append(tile)
    if len(tiles) > 15:
        raise HandError(400, "too_many_tiles", "a play cannot have more than 15 tiles", "play")
    return tiles


def old_move(data: dict[str, Any]) -> tuple[Any, ...]:
    only_fields(data, {"board", "plays", "play", "rack", *LABEL_FIELDS})
    if "play" not in data:
        raise HandError(400, "wrong_shape", "'play' is required", "play")
    rack = data.get("rack")
    if rack is not None and not isinstance(rack, str):
        raise HandError(400, "wrong_shape", "'rack' must be a string", "rack")
    labels = old_read_labels(data)
    if "board" in data and "plays" in data:
        raise HandError(400, "wrong_shape", "give either 'board' or 'plays', not both", "board")
    rows = data["board"]  # read_position's checks before Board.from_rows
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise HandError(400, "bad_board", "'board' must be a list of 15 strings", "board")
    return rows, old_play(data), rack, labels


def old_number(value: Any, field: str, lowest: int, highest: int) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        raise HandError(400, "wrong_shape", f"'{field}' must be a whole number", field)
    if not lowest <= value <= highest:
        raise HandError(400, "out_of_range", f"'{field}' must be from {lowest} to {highest}", field)
    return value


def old_points(value: Any, field: str) -> int:
    return old_number(value, field, -bounds.MAX_POINTS, bounds.MAX_POINTS)


def old_text(value: Any, field: str, longest: int) -> Any:
    if isinstance(value, str) and len(value) > longest:
        raise HandError(400, "too_long", f"'{field}' is longer than {longest} characters", field)
    return value


TURN_TEXT = {"move": bounds.MAX_MOVE_CHARS, "rack": bounds.MAX_RACK_CHARS}
TURN_TEXT["tiles"] = bounds.MAX_RACK_CHARS


def old_record_from_turns(data: dict[str, Any]) -> GameRecord:
    names = data.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise HandError(400, "wrong_shape", "'players' must be a list of names", "players")
    for i, name in enumerate(names):
        old_text(name, f"players[{i}]", bounds.MAX_NAME_CHARS)
    if len(set(names)) != len(names):
        raise HandError(422, "duplicate_player", "player names must differ", "players")
    turns = data.get("turns")
    if not isinstance(turns, list) or not turns:
        raise HandError(400, "wrong_shape", "'turns' must be a non-empty list", "turns")
    if len(turns) > bounds.MAX_TURNS:
        raise HandError(400, "too_many_turns", f"at most {bounds.MAX_TURNS} turns", "turns")
    totals = dict.fromkeys(names, 0)
    events: list[Event] = []
    allowed = {"player", "type", "move", "rack", "tiles", "count", "score", "total"}
    for i, turn in enumerate(turns):
        field = f"turns[{i}]"
        if not isinstance(turn, dict):
            raise HandError(400, "wrong_shape", f"'{field}' must be an object", field)
        only_fields(turn, allowed, field)
        player = turn.get("player")
        if not isinstance(player, str) or player not in totals:
            raise HandError(422, "unknown_player", f"{player!r} is not in 'players'", field)
        kind = TURN_TYPES.get(turn.get("type"))
        if kind is None:
            raise HandError(400, "wrong_shape", "'type' must be one of the types", field)
        for key, longest in TURN_TEXT.items():
            if key in turn and not isinstance(turn[key], str):
                raise HandError(400, "wrong_shape", f"'{key}' must be a string", f"{field}.{key}")
            old_text(turn.get(key), f"{field}.{key}", longest)
        score = old_points(turn.get("score", 0), f"{field}.score")
        total = turn.get("total")
        total = totals[player] + score if total is None else old_points(total, f"{field}.total")
        if abs(total) > bounds.MAX_POINTS:
            raise HandError(400, "out_of_range", "the running total passes the bound", field)
        totals[player] = total
        ev = Event(
            kind,
            player,
            i + 1,
            f"{player}: {turn.get('type')} {turn.get('move', '')}".strip(),
            rack=turn.get("rack") or None,
            score=score,
            total=total,
        )
        if kind == PLAY:
            parts = (turn.get("move") or "").split()
            if len(parts) != 2:
                raise HandError(400, "bad_notation", "a play's 'move' is '8H WORD'", field)
            ev.coordinate, ev.word = parts
        elif kind == EXCHANGE:
            tiles, count = turn.get("tiles"), turn.get("count")
            if tiles:
                ev.tiles, ev.count = tiles, len(tiles)
            elif count is not None:
                ev.count = old_number(count, f"{field}.count", 0, bounds.MAX_BAG)
            else:
                raise HandError(400, "wrong_shape", "an exchange needs 'tiles' or 'count'", field)
        elif kind == END_RACK:
            ev.tiles = turn.get("tiles", "")
        events.append(ev)
    return GameRecord("<turns>", list(names), events)


def old_verify(data: dict[str, Any]) -> GameRecord:
    only_fields(data, {"gcg", "players", "turns", "free_challenge"})
    if not isinstance(data.get("free_challenge", False), bool):
        raise HandError(400, "wrong_shape", "'free_challenge' must be true or false", "free")
    if ("gcg" in data) == ("turns" in data):
        raise HandError(400, "wrong_shape", "give either 'gcg' or 'players' and 'turns'", "gcg")
    return old_record_from_turns(data)


# --- the models ---------------------------------------------------------------------------------


def new_challenge(data: dict[str, Any]) -> tuple[list[str], bool, Labels]:
    asked = bodies.parse(bodies.ChallengeRequest, data)
    return asked.words, asked.free_challenge, asked.labels()


def new_move(data: dict[str, Any]) -> tuple[Any, ...]:
    asked = bodies.parse(bodies.MoveRequest, data)
    return asked.board, moves_view._play(asked.play), asked.rack, asked.labels()


def new_verify(data: dict[str, Any]) -> GameRecord:
    asked = bodies.parse(bodies.VerifyRequest, data)
    return read_turns(asked.players, asked.turns)


CASES: dict[str, tuple[Callable[[dict[str, Any]], Any], Callable[[dict[str, Any]], Any], dict]] = {
    "challenge (2 words, 4 labels)": (old_challenge, new_challenge, CHALLENGE),
    "moves/validate (7 tiles, full board)": (old_move, new_move, MOVE),
    "games/verify (40 JSON turns)": (old_verify, new_verify, VERIFY),
}


def per_call_ns(check: Callable[[dict[str, Any]], Any], body: dict[str, Any], calls: int) -> float:
    start = time.process_time_ns()
    for _ in range(calls):
        check(body)
    return (time.process_time_ns() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    runs = [
        (name, which, fn, body)
        for name, (old, new, body) in CASES.items()
        for which, fn in (("hand", old), ("model", new))
    ]
    for _name, _which, fn, body in runs:  # warm: every path taken once first
        fn(body)
    times: dict[tuple[str, str], list[float]] = {(n, w): [] for n, w, _, _ in runs}
    for r in range(args.rounds):
        k = r % len(runs)
        for name, which, fn, body in runs[k:] + runs[:k]:
            times[name, which].append(per_call_ns(fn, body, args.calls))
    print(
        f"validation_cost: {args.rounds} interleaved rounds of {args.calls} calls; CPU time per"
        " call (process_time_ns), medians"
    )
    print(f"python {platform.python_version()}, pydantic {pydantic.VERSION}, {platform.machine()}")
    print()
    print(f"{'body':40} {'hand checks':>12} {'models':>10} {'ratio':>7}")
    for name in CASES:
        hand = statistics.median(times[name, "hand"])
        model = statistics.median(times[name, "model"])
        print(f"{name:40} {hand / 1000:9.1f} µs {model / 1000:7.1f} µs {model / hand:6.2f}×")


if __name__ == "__main__":
    main()
