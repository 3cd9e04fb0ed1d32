"""Whole games over HTTP: verify a record, settle the final score, "may I exchange now".

The rules live in `adjudicator.game` as functions of the ruleset data; this layer only reads
the request strictly; the game's `GameInputError` (input that cannot be true, such as more Z
tiles than the set has) is answered with a 422 naming the field (`adjudicator.web.errors`).

A verification rules on every play of the record at once, in one request. In tournament mode a
device's or key's rulings are counted one by one against its rate limit and recorded in the
audit log (`challenge`, `moves/validate`), so there a verification consults the lexicon for a
director only: anyone else gets the scores and the rules check, with no word's validity.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from typing import Any

import orjson
from flask import Blueprint, after_this_request, current_app, jsonify, request

from adjudicator import bounds, disclosure
from adjudicator.api.bodies import (
    DRAWS_SHAPE,
    DrawOrderRequest,
    FinalScoreRequest,
    Position,
    Record,
    RecordPicture,
    VerifyRequest,
    parse,
)
from adjudicator.api.challenge import free_challenge
from adjudicator.api.moves import POSITION, read_position
from adjudicator.api.ruling import counted_when_answered
from adjudicator.auth.caller import current_caller
from adjudicator.catalogue import lexicon_for, profile_for, ruleset_or_404
from adjudicator.engine import picture
from adjudicator.engine.board import Board
from adjudicator.game.draw import draw_order
from adjudicator.game.errors import GameInputError
from adjudicator.game.exchange import exchange_allowed as exchange_verdict
from adjudicator.game.exchange import needs_turn_history
from adjudicator.game.final import PlayerEnd, final_score
from adjudicator.game.gcg import (
    GcgError,
    GcgOutOfBounds,
    parse_text,
    resolve_language,
)
from adjudicator.game.racks import parse_rack
from adjudicator.game.turns import read_turns
from adjudicator.game.walk import walk
from adjudicator.problems import Problem
from adjudicator.rulesets import Ruleset
from adjudicator.settings import current_settings
from adjudicator.web import API_PREFIX
from adjudicator.web.access import lexicon_dependent, public
from adjudicator.web.contract import (
    CREDENTIALS,
    JSON_BODY,
    QUERY,
    RECORD,
    RULESET,
    Answer,
    Query,
    operation,
)
from adjudicator.web.errors import ApiError
from adjudicator.web.requests import bool_arg, int_arg, json_body, query_args
from lexicon.languages import available_languages
from lexicon.limits import RACK_SIZE

bp = Blueprint("games", __name__, url_prefix=API_PREFIX)

RECORDS = {"games.verify_game", "games.board_picture"}  # the endpoints that walk a whole record


# `games/verify` replays a whole record: tens of milliseconds at the turn cap, where a challenge
# takes a fraction of one. Eight clients sending records as fast as they are answered would hold
# every worker. So each worker (gunicorn process) keeps the time its verifications held it in a
# sliding window, and once they used `share` of the window it answers 429 with Retry-After, before
# reading the body, until the window has room again. Challenges, moves and the judge never wait on
# it. The time is wall-clock time, not CPU time: a worker's threads share one interpreter, so a
# record being replayed slows every other request of that worker, and on a crowded machine for
# longer than its CPU time. The budget is per process: with N workers, N times the share at most.
class CpuBudget:
    """A share of each worker's time for the expensive endpoint, so it cannot starve the rest."""

    def __init__(self, share: float, window: float = 1.0):
        if not 0 < share <= 1 or window <= 0:
            raise ValueError("share must be in (0, 1] and window > 0")
        self.share, self.window = share, window
        self._spent: deque[tuple[float, float]] = deque()  # (when it ended, seconds held)
        self._lock = threading.Lock()

    def retry_after(self) -> int:
        """0 when a request may start now, else the whole seconds to wait."""
        now = time.monotonic()
        with self._lock:
            while self._spent and self._spent[0][0] <= now - self.window:
                self._spent.popleft()
            if sum(held for _, held in self._spent) < self.share * self.window:
                return 0
            oldest = self._spent[0][0]
            return max(1, math.ceil(oldest + self.window - now))

    def spend(self, seconds: float) -> None:
        with self._lock:
            self._spent.append((time.monotonic(), seconds))


@bp.record_once
def _verify_budget(state) -> None:
    """Each worker's share of its time for records (`ADJUDICATOR_VERIFY_TIME_SHARE`, default 0.05;
    1 turns the budget off, as the test apps do unless they set it)."""
    app = state.app
    share = current_settings(app).verify_time_share  # None: unset
    if share is None:
        share = 1.0 if app.testing else 0.05
    app.extensions["verify_budget"] = CpuBudget(share) if share < 1 else None


@bp.before_request
def _records_within_their_budget():
    if request.endpoint not in RECORDS:
        return
    request.max_content_length = bounds.MAX_RECORD_BYTES
    budget: CpuBudget | None = current_app.extensions.get("verify_budget")
    if budget is None:
        return
    # decided before the body is read: a refusal costs almost nothing
    if wait := budget.retry_after():
        raise ApiError(
            Problem.VERIFY_BUSY,
            f"this worker has spent its share of time on records; retry in {wait} s",
            headers={"Retry-After": str(wait)},
        )
    start = time.perf_counter()

    @after_this_request
    def _spend_the_budget(response):
        budget.spend(time.perf_counter() - start)
        return response


# --- exchange-allowed ------------------------------------------------------------------------


def _int_arg(args: dict[str, str], name: str, highest: int, required: bool = False) -> int | None:
    """At most `highest` in size either way: the rules decide what a negative one means."""
    return int_arg(args, name, -highest, highest, required)


@bp.get("/rulesets/<ruleset_id>/exchange-allowed")
@public  # the bag and turn decide, not the word list
@operation(
    "exchangeAllowed",
    "games",
    "ExchangeVerdict",
    query=(
        Query("bag", {"type": "integer", "minimum": 0, "maximum": bounds.MAX_BAG}, required=True),
        Query("turn", {"type": "integer", "minimum": 1, "maximum": bounds.MAX_TURNS}),
        Query("previous_placed", {"type": "boolean"}),
        Query("exchanges_in_a_row", {"type": "integer", "minimum": 0, "maximum": bounds.MAX_TURNS}),
        Query("count", {"type": "integer", "minimum": 1, "maximum": RACK_SIZE}),
    ),
    problems=(
        *QUERY,
        Problem.MISSING_PARAMETER,
        Problem.NOT_A_NUMBER,
        Problem.NOT_A_BOOLEAN,
        Problem.OUT_OF_RANGE,
        *RULESET,
        Problem.INCONSISTENT_INPUT,
    ),
)
def exchange_allowed(ruleset_id: str):
    ruleset = ruleset_or_404(ruleset_id)
    args = query_args({"bag", "turn", "previous_placed", "count", "exchanges_in_a_row"})
    bag = _int_arg(args, "bag", bounds.MAX_BAG, required=True)
    try:
        verdict = exchange_verdict(
            ruleset,
            bag,
            turn=_int_arg(args, "turn", bounds.MAX_TURNS),
            previous_placed=bool_arg(args, "previous_placed"),
            count=_int_arg(args, "count", bounds.MAX_BAG),  # the rules refuse 8 and more (422)
            exchanges_in_a_row=_int_arg(args, "exchanges_in_a_row", bounds.MAX_TURNS),
        )
    except GameInputError as exc:
        asked = ("turn", "previous", "exchanges_in_a_row")
        status = 400 if exc.field in asked and exc.code != Problem.OUT_OF_RANGE else 422
        field = "previous_placed" if exc.field == "previous" else exc.field
        code = Problem.MISSING_PARAMETER if status == 400 else exc.code
        raise ApiError(code, exc.message, field, status=status) from None
    return jsonify(
        ruleset=ruleset.id,
        bag=bag,
        uses_turn_history=needs_turn_history(ruleset),
        **verdict.to_dict(),
    )


# What final-score and draw-order may refuse of their body: its shape and size, then a player,
# a letter or a tile count the game rules say cannot be (422).
GAME_BODY = (
    *JSON_BODY,
    Problem.BODY_TOO_LARGE,
    Problem.TOO_LONG,
    *RULESET,
    Problem.UNKNOWN_LETTER,
    (Problem.TOO_MANY_TILES, 422),
    Problem.UNKNOWN_PLAYER,
    Problem.DUPLICATE_PLAYER,
    Problem.PLAYER_COUNT,
    Problem.INCONSISTENT_INPUT,
)


# --- final-score -----------------------------------------------------------------------------


@bp.post("/rulesets/<ruleset_id>/games/final-score")
@public  # racks and scores decide, not the word list
@operation(
    "finalScore",
    "games",
    "FinalScore",
    body=FinalScoreRequest,
    problems=(
        *GAME_BODY,
        Problem.OUT_OF_RANGE,
        Problem.BAD_RACK,
        Problem.UNKNOWN_ENDING,
        Problem.NO_OVERTIME,
    ),
)
def final_score_route(ruleset_id: str):
    ruleset = ruleset_or_404(ruleset_id)
    asked = parse(FinalScoreRequest, json_body())
    profile = profile_for(ruleset)
    players = [
        PlayerEnd(
            p.name.strip(),
            p.score,
            parse_rack(profile, p.rack, f"players[{i}].rack"),
            p.overtime_minutes,
        )
        for i, p in enumerate(asked.players)
    ]
    result = final_score(
        ruleset, profile, players, asked.ending, asked.went_out, asked.point_target
    )
    return jsonify(result.to_dict())


# --- draw-order ------------------------------------------------------------------------------


@bp.post("/rulesets/<ruleset_id>/games/draw-order")
@public  # the tiles drawn decide, not the word list
@operation(
    "drawOrder",
    "games",
    "DrawOrder",
    body=DrawOrderRequest,
    problems=GAME_BODY,
)
def draw_order_route(ruleset_id: str):
    """Who starts (or, under SSF, who chooses), from the tiles each player drew, or from the
    winner of the players' own draw where the ruleset takes one (002)."""
    ruleset = ruleset_or_404(ruleset_id)
    asked = parse(DrawOrderRequest, json_body())
    names = asked.players
    if not 2 <= len(names) <= ruleset.max_players:
        raise ApiError(
            Problem.PLAYER_COUNT,
            f"{ruleset.id} is for 2 to {ruleset.max_players} players",
            "players",
        )
    if len(set(names)) != len(names):
        raise ApiError(Problem.DUPLICATE_PLAYER, "player names must differ", "players")
    nearest, winner, draws, blank = asked.nearest, asked.winner, asked.draws, asked.blank
    if draws is None and winner is None:
        raise ApiError(Problem.WRONG_SHAPE, DRAWS_SHAPE, "draws")
    draws = draws or []  # a given winner needs no tiles
    result = draw_order(ruleset, profile_for(ruleset), names, draws, nearest, winner, blank)
    return jsonify(result.to_dict())


# What games/verify and games/board may refuse of a record they are sent, and of who sends it.
RECORD_BODY = (
    *JSON_BODY,
    Problem.BODY_TOO_LARGE,
    *RECORD,
    *CREDENTIALS,
    Problem.CSRF_HEADER_MISSING,
)


# --- verify ----------------------------------------------------------------------------------


def _rules_on_words() -> bool:
    """Whether this verification may say which plays form words: always in open mode, where
    anyone may challenge any word; in tournament mode only for a director, since for a device
    or key one record would be a ruling per play outside its rate limit and the audit log."""
    return not current_settings().tournament or current_caller().kind == "director"


def check_game(
    ruleset: Ruleset, data: dict[str, Any] | Record, boards: list[Board] | None = None
) -> dict[str, Any]:
    """games/verify's one path, from its body (a GCG text or JSON turns) to its answer, the
    report already through the disclosure gate; the directors' "Check a game" page and
    games/board take it too, so a record reads, fails and discloses the same wherever it is
    sent (to whom it may: `_rules_on_words`). `boards`, when given (empty), gets the board after
    every turn for the pictures (`boards[0]` the empty board), as `walk` fills it."""
    asked = data if isinstance(data, Record) else parse(VerifyRequest, data)
    free = free_challenge(ruleset, asked.free_challenge)
    try:
        if asked.gcg is not None:
            record = parse_text(asked.gcg, "<gcg>", whole=True)
        else:
            record = read_turns(asked.players, asked.turns)
        resolve_language(record, ruleset.language, available_languages())
        lexicon = lexicon_for(ruleset)
        consulted = lexicon if _rules_on_words() else None  # None: scores and rules only
        verdict = walk(record, ruleset, lexicon.profile, consulted, free, boards)
    except GcgError as exc:
        where = f"line {exc.line}: " if exc.line else ""
        field = (
            "gcg" if asked.gcg is not None else (f"turns[{exc.line - 1}]" if exc.line else "turns")
        )
        code = Problem.OUT_OF_RANGE if isinstance(exc, GcgOutOfBounds) else Problem.BAD_RECORD
        raise ApiError(code, where + exc.reason, field) from None
    return disclosure.game_report(ruleset.disclosure.policy, verdict.to_dict())


@bp.post("/rulesets/<ruleset_id>/games/verify")
@lexicon_dependent
@counted_when_answered  # a refused verification uses up none of a device's or key's rulings
@operation(
    "verifyGame",
    "games",
    "GameReport",
    body=VerifyRequest,
    problems=RECORD_BODY,
)
def verify_game(ruleset_id: str):
    ruleset = ruleset_or_404(ruleset_id)
    data = json_body()
    answer = orjson.dumps(check_game(ruleset, data))
    if len(answer) > bounds.MAX_ANSWER_BYTES:  # the input bounds keep it far below; a safety net
        raise ApiError(
            Problem.REPORT_TOO_LARGE,
            f"the report would be larger than {bounds.MAX_ANSWER_BYTES} bytes; send fewer turns",
            "turns" if "turns" in data else "gcg",
        )
    return current_app.response_class(answer, mimetype="application/json")


# --- board: the picture of a position ----------------------------------------------------------


def turn_caption(turn: dict[str, Any], k: int, n: int) -> str:
    """One line under the picture of turn k: the move, its scores and what the disclosure gate
    let through of the ruling (`turn` is a turn of the disclosed report, nothing else)."""
    parts = [f"{k}/{n} {turn['player']}: {turn['move']} {turn['recorded_score']:+d}"]
    if turn["computed_score"] != turn["recorded_score"]:
        parts.append(f"computed {turn['computed_score']:+d}")
    if turn.get("ruling"):
        parts.append(turn["ruling"])
    if turn.get(disclosure.NOT_IN_LEXICON):  # present only where the policy is `word`
        parts.append("not in the lexicon: " + ", ".join(turn[disclosure.NOT_IN_LEXICON]))
    return " · ".join(parts)


@bp.post("/rulesets/<ruleset_id>/games/board")
@lexicon_dependent  # a record's picture says what games/verify would, through the same gate
@counted_when_answered  # as games/verify: a refused picture uses up none of a device's rulings
@operation(
    "gameBoard",
    "games",
    Answer(
        {"type": "string", "contentMediaType": "image/svg+xml"},
        media_type="image/svg+xml",
        headers={"Vary": {"type": "string"}},
    ),
    body="BoardRequest",  # a Position or a RecordPicture: one of two models
    problems=(*RECORD_BODY, *POSITION, Problem.NOT_ACCEPTABLE),
)
def board_picture(ruleset_id: str):
    """The board as SVG: of a position (`board` or `plays`, as moves/validate reads them; the
    last play outlined), or of a record (as games/verify reads it) after turn `turn`."""
    ruleset = ruleset_or_404(ruleset_id)
    # The answer is a picture only: a client that accepts none (JSON only) gets a 406, before
    # any work is done. No Accept header accepts anything (RFC 9110 §12.5.1).
    accept = request.accept_mimetypes
    if accept and accept.best_match([picture.MIMETYPE]) is None:
        raise ApiError(
            Problem.NOT_ACCEPTABLE,
            f"this answer is an SVG picture: send 'Accept: {picture.MIMETYPE}' (or none)",
            "Accept",
        )
    data = json_body()
    if "board" in data or "plays" in data:
        profile = profile_for(ruleset)
        board, last = read_position(parse(Position, data), profile)
        squares = [(t.row, t.col) for t in last.tiles] if last else []
        svg = picture.position_svg(profile, board, highlight=squares, title="Board")
    else:
        asked = parse(RecordPicture, data)
        boards: list[Board] = []
        turns = check_game(ruleset, asked, boards)["turns"]
        k = len(turns) if asked.turn is None else asked.turn  # absent: the last turn
        if k > len(turns):
            raise ApiError(
                Problem.OUT_OF_RANGE, f"'turn' must be from 0 to {len(turns)}, the record's", "turn"
            )
        svg = picture.position_svg(
            profile_for(ruleset),
            boards[k],
            highlight=picture.last_move(boards[: k + 1]),
            title=f"Board after turn {k} of {len(turns)}" if k else "Board before the first turn",
            caption=turn_caption(turns[k - 1], k, len(turns)) if k else None,
        )
    response = current_app.response_class(svg, mimetype=picture.MIMETYPE)
    response.vary.add("Accept")
    return response
