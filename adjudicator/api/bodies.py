"""Every JSON request body the API reads, declared once as a pydantic model with its bounds.

A model is the body's shape and bounds (numbers from `adjudicator.bounds`), the validation the
views run, and the source of openapi.json's `components/schemas` for it (`make openapi` writes
them, `tools/openapi.py`; a test fails when the committed document differs). What depends
on a ruleset (how many players, whether it has a free-challenge variant) or on the lexicon stays
in the views.

`parse` validates the already parsed body (`requests.json_body` keeps the duplicate-key, depth and
framing refusals in front) and turns pydantic's first error into the RFC 9457 problem the API has
always given: the same status, `code` and `field` (`players[0].score`, `turns[3].type`). A field
whose refusal is not the default for its kind says so beside its bound, with `worded` (one
wording for some of pydantic's error types) or `refusing` (a refusal for each).

All bodies live in this one module rather than beside each view because they share their parts
(labels, points, names, a position, a record) across features: games/board reads a position as
moves/validate does and a record as games/verify does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, NoReturn, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
    WrapValidator,
    model_validator,
)
from pydantic_core import ErrorDetails

from adjudicator import bounds
from adjudicator.audit.labels import FIELDS as LABEL_FIELDS
from adjudicator.audit.labels import NONE as NO_LABELS
from adjudicator.audit.labels import LabelError, Labels, check_label
from adjudicator.game.rules import DRAW_BLANKS, DRAW_NEAREST, ENDINGS
from adjudicator.game.turns import TURN_TYPE_MESSAGE, TURN_TYPES
from adjudicator.problems import DomainError, Problem
from adjudicator.store.models import LABEL_MAX
from adjudicator.web.errors import ApiError
from lexicon.limits import BOARD_SIZE

B = TypeVar("B", bound=BaseModel)
Refusal = Callable[[Any], ApiError]  # the value at fault → the problem it gets


class Refused(ValueError):
    """An `ApiError` (or a domain error) carried through pydantic from a validator (pydantic
    collects ValueErrors with their place; any other exception would cut validation short)."""

    def __init__(self, error: ApiError | DomainError, under: tuple[int | str, ...] = ()):
        super().__init__(error.message)
        self.error = error
        self.under = under  # where within the value the fault is, when not the value itself


def _refuse(code: Problem, message: str, under: tuple[int | str, ...] = ()) -> NoReturn:
    """A validator's refusal of the value (or of what is `under` it) with its own wording."""
    raise Refused(ApiError(code, message), under) from None


# --- pydantic's errors → our problems -----------------------------------------------------------

_RANGE = {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}
_BOUNDS = {"ge": "at least", "gt": "more than", "le": "at most", "lt": "less than"}


def field_name(loc: Sequence[int | str]) -> str:
    """pydantic's `loc` as the API names a field: `("turns", 3, "type")` → `turns[3].type`."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).removeprefix(".")


def _first(errors: list[ErrorDetails]) -> ErrorDetails:
    """The error to report: the first, unless an object on its way has a key the body may not
    carry. An object's keys were always checked before its values."""
    first = errors[0]
    for error in errors:
        loc = error["loc"]
        if error["type"] == "extra_forbidden" and tuple(first["loc"][: len(loc) - 1]) == loc[:-1]:
            return error
    return first


def to_api_error(exc: ValidationError) -> ApiError | DomainError:
    """The one translation from a pydantic `ValidationError` to the API's problem."""
    error = _first(exc.errors(include_url=False))
    kind, loc = error["type"], error["loc"]
    field = field_name(loc)
    cause = error.get("ctx", {}).get("error")
    if isinstance(cause, Refused):
        refused = cause.error
        if refused.field is None:
            refused.field = field_name((*loc, *cause.under)) or None
        return refused
    where = f"'{field}'" if field else "the body"
    if kind == "extra_forbidden":
        return ApiError(Problem.UNKNOWN_FIELD, f"unknown field {loc[-1]!r}", field)
    if kind == "missing":
        return ApiError(Problem.WRONG_SHAPE, f"{where} is required", field)
    if kind in _RANGE:
        ctx = error.get("ctx", {})
        bound = " and ".join(f"{word} {ctx[key]}" for key, word in _BOUNDS.items() if key in ctx)
        return ApiError(Problem.OUT_OF_RANGE, f"{where} must be {bound}", field)
    if kind == "string_too_long":
        longest = error["ctx"]["max_length"]
        return ApiError(Problem.TOO_LONG, f"{where} is longer than {longest} characters", field)
    return ApiError(Problem.WRONG_SHAPE, f"{where}: {error['msg'].lower()}", field)


def parse(model: type[B], data: dict[str, Any]) -> B:
    """`data` (a parsed JSON body) as `model`, or the 400 (or 422) problem naming the field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise to_api_error(exc) from None


def refusing(
    refusals: dict[str, Refusal], within: bool = False, items: dict[str, Refusal] | None = None
) -> WrapValidator:
    """The field's own refusal for some of pydantic's error types (`string_type`, `too_long`):
    for the first error at this level, or, `within`, anywhere inside the value (reported at this
    level: a tile that is not one is refused whole); `items`: for the first error of a list's
    item itself (`words[2]`). One wrap for a list and its items: a wrap an item would cost a
    Python call each."""

    def wrap(value: Any, handler: Callable[[Any], Any]) -> Any:
        try:
            return handler(value)
        except ValidationError as exc:
            error = _first(exc.errors(include_url=False))
            kind, loc = error["type"], error["loc"]
            if (within or not loc) and kind in refusals:
                raise Refused(refusals[kind](value)) from None
            if items and len(loc) == 1 and isinstance(loc[0], int) and kind in items:
                raise Refused(items[kind](value[loc[0]]), under=loc) from None
            raise

    return WrapValidator(wrap)


def _refuse_after_the_others(
    problem: ApiError, keys: Sequence[str], data: Any, handler: Callable[[Any], Any]
) -> NoReturn:
    """A body-wide refusal of the fields `keys` together (two that exclude each other), made
    once the fields around them have passed: another field's fault comes first."""
    try:
        handler(data)
    except ValidationError as exc:
        loc = _first(exc.errors(include_url=False))["loc"]
        if loc and loc[0] not in keys:
            raise
    raise Refused(problem)


def refusal(
    message: str, code: Problem = Problem.WRONG_SHAPE, status: int | None = None
) -> Refusal:
    """A refusal of its own wording, whatever the value: `wrong_shape` unless `code` says."""
    return lambda _value: ApiError(code, message, status=status)


TYPES = ("string_type", "list_type", "int_type", "float_type", "bool_type", "dict_type")
TYPES += ("model_type", "literal_error", "missing", "string_too_short", "too_short", "too_long")


def each(refused: Refusal, kinds: Sequence[str] = TYPES) -> dict[str, Refusal]:
    return dict.fromkeys(kinds, refused)


def worded(message: str, *kinds: str, within: bool = False, status: int = 400) -> WrapValidator:
    """The field's one `wrong_shape` wording for pydantic's errors `kinds` (none: `TYPES`)."""
    return refusing(each(refusal(message, status=status), kinds or TYPES), within)


class Body(BaseModel):
    """A JSON body: exactly these keys, each of exactly its JSON type (no "5" for 5)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# --- parts ------------------------------------------------------------------------------------


def _label(name: str) -> AfterValidator:
    """The label `name`'s check (one a field: a validator told its field costs more)."""

    def check(value: Any) -> str:
        try:
            return check_label(name, value)
        except LabelError as exc:
            raise Refused(exc) from None

    return AfterValidator(check)


# A label's type, length and script are its own rule (`audit.labels.check_label`); the
# document states the same as the `Label` schema.
LabelText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=LABEL_MAX,
        description="Text the caller attaches to the ruling for the audit log, 1 to"
        f" {LABEL_MAX} characters under a PRECIS profile (RFC 8264): `event`, `table` and"
        " `player` are names (Nickname, RFC 8266: spaces kept, NFKC), `game` and `round`"
        " identifiers (IdentifierClass, RFC 8265; parts between single spaces); every dash and"
        " minus sign is `-`. A character the profile disallows (an invisible one, such as a"
        " variation selector or a Hangul filler; a control) is refused with"
        " `label_disallowed_character`, naming it. Recorded in the profile's form, compared"
        " case-mapped, never interpreted; `game` and `player` key the jury count.",
    ),
]
LABEL_SCHEMA = "x-label"  # the document's `Label` schema: `tools/openapi.py` puts its $ref here
LABEL = WithJsonSchema({LABEL_SCHEMA: True})


class Labelled(Body):
    """The labels a ruling may carry: absent is none; `null` is no label text and refused."""

    event: Annotated[Any, _label("event"), LABEL] = Field(
        None,
        description="The event (tournament), e.g. NM 2027. Where the service runs an event"
        " (`ADJUDICATOR_EVENT`) every ruling is recorded under it: this may name it (in any"
        " spelling its profile compares as one, see `Label`) or be left out; another event is"
        " refused (400 `out_of_range`).",
    )
    round: Annotated[Any, _label("round"), LABEL] = Field(None, description="The round, e.g. 7")
    table: Annotated[Any, _label("table"), LABEL] = Field(
        None, description="The table or board, e.g. 12"
    )
    game: Annotated[Any, _label("game"), LABEL] = Field(
        None, description="The game; with `player`, required for a counted jury query"
    )
    player: Annotated[Any, _label("player"), LABEL] = Field(
        None, description="The player asking (challenger, or who puts the word to the jury)"
    )

    def labels(self) -> Labels:
        if not self.model_fields_set.intersection(LABEL_FIELDS):
            return NO_LABELS
        return Labels(**{name: getattr(self, name) for name in LABEL_FIELDS})


FreeChallenge = Annotated[
    bool,
    worded("'free_challenge' must be true or false", "bool_type"),
    Field(
        description="The free-challenge variant, where a failed challenge costs nothing (dk-home"
        " only: 004 Almindelige varianter); 422 under a ruleset without it"
    ),
]

Points = Annotated[int, Field(ge=-bounds.MAX_POINTS, le=bounds.MAX_POINTS)]


# --- challenge ----------------------------------------------------------------------------------


def _word_too_long(value: Any) -> ApiError:
    shown = repr(value[:40] + "…")
    return ApiError(Problem.WORD_TOO_LONG, f"{shown} is longer than {bounds.MAX_WORD_CHARS}")


def _word_count(value: Any) -> ApiError:
    return ApiError(
        Problem.WORD_COUNT, f"challenge 1 to {bounds.MAX_CHALLENGE_WORDS} words, not {len(value)}"
    )


class ChallengeRequest(Labelled):
    free_challenge: FreeChallenge = False
    words: Annotated[
        list[Annotated[str, Field(max_length=bounds.MAX_WORD_CHARS)]],
        Field(min_length=1, max_length=bounds.MAX_CHALLENGE_WORDS),
        refusing(
            {
                "list_type": refusal("'words' must be a list of strings"),
                **each(_word_count, ("too_short", "too_long")),
            },
            items={
                "string_type": refusal("each word must be a string", Problem.WORD_NOT_STRING),
                "string_too_long": _word_too_long,
            },
        ),
    ]


class JuryCountQuery(Body):
    """The jury count's read (`GET /rulesets/{id}/jury?game=…&player=…`): whose words, in which
    game; the labels checked as a query's are, so a count is read under the key it is kept by."""

    game: Annotated[Any, _label("game"), LABEL] = Field(None, description="The game")
    player: Annotated[Any, _label("player"), LABEL] = Field(None, description="The player")

    def labels(self) -> Labels:
        return Labels(game=self.game, player=self.player)


# --- moves ------------------------------------------------------------------------------------


Square = Annotated[int, Field(ge=0, le=BOARD_SIZE - 1)]


class Tile(Body):
    row: Square = Field(description="0-based: 7 is row 8")
    col: Square = Field(description="0-based: 7 is column H")
    letter: str = Field(
        description="One letter; lower case or blank=true for a blank with that designation;"
        " '' or '?' is an undesignated blank (an error)"
    )
    blank: bool = False


def _item_at_fault(exc: ValidationError) -> tuple[int, list[ErrorDetails]]:
    """The list item a list's first error is in, with all of its errors (the first error's
    first); the list's own fault (not a list, too long) is raised as it came."""
    errors = exc.errors(include_url=False)
    i = errors[0]["loc"][0] if errors[0]["loc"] else None
    if not isinstance(i, int):
        raise exc
    return i, [error for error in errors if error["loc"][:1] == (i,)]


def _tiles(value: Any, handler: Callable[[Any], Any]) -> Any:
    """A tile is refused whole (`play.tiles[2]`), but for a square off the board: a missing key
    first, then an unknown one, then a value of the wrong type; counted after each is read.
    (One wrap for the list: a wrap a tile would cost a Python call each.)"""
    try:
        tiles = handler(value)
    except ValidationError as exc:
        i, mine = _item_at_fault(exc)
        kinds = {error["type"] for error in mine}
        if not isinstance(value[i], dict) or "missing" in kinds:
            _refuse(Problem.WRONG_SHAPE, "a tile needs row, col and letter", (i,))
        if "extra_forbidden" in kinds:
            _refuse(Problem.UNKNOWN_FIELD, "a tile has only row, col, letter, blank", (i,))
        if mine[0]["type"] in _RANGE:  # a square off the board: `play.tiles[2].row`
            raise
        message = "'row' and 'col' are whole numbers, 'letter' a string, 'blank' true/false"
        _refuse(Problem.WRONG_SHAPE, message, (i,))
    if len(tiles) > BOARD_SIZE:
        _refuse(Problem.TOO_MANY_TILES, f"a play cannot have more than {BOARD_SIZE} tiles")
    return tiles


class PlayTiles(Body):
    tiles: Annotated[
        list[Tile],
        WrapValidator(_tiles),
        Field(json_schema_extra={"maxItems": BOARD_SIZE}),
    ]


_NOT_A_PLAY = refusal("'play' is notation text or {\"tiles\": [...]}")


def _play(value: Any, handler: Callable[[Any], Any]) -> Any:
    """Notation text as it is, or `{"tiles": [...]}` as `PlayTiles`."""
    if isinstance(value, str):
        return value
    if (
        not isinstance(value, dict)
        or set(value) != {"tiles"}
        or not isinstance(value["tiles"], list)
    ):
        raise Refused(_NOT_A_PLAY(value))
    return PlayTiles.model_validate(value)


Rows = Annotated[
    list[str],
    refusing(each(refusal("'board' must be a list of 15 strings", Problem.BAD_BOARD)), within=True),
    Field(
        description="15 rows of 15: '.' empty, upper case a tile, lower case a blank",
        json_schema_extra={"minItems": BOARD_SIZE, "maxItems": BOARD_SIZE},
    ),
]
Plays = Annotated[
    list[str],
    Field(
        max_length=bounds.MAX_HISTORY,
        description="Earlier plays in notation, applied in order (instead of board)",
    ),
    refusing(
        {
            **each(refusal("'plays' must be a list of notation strings")),
            "too_long": refusal(
                f"at most {bounds.MAX_HISTORY} earlier plays", Problem.TOO_MANY_PLAYS
            ),
        },
        within=True,
    ),
]


class Position(Body):
    """A position: `board` (15 rows) or `plays` (earlier plays in notation), not both."""

    model_config = ConfigDict(
        json_schema_extra={"oneOf": [{"required": ["board"]}, {"required": ["plays"]}]}
    )

    board: Rows = None  # type: ignore[assignment]  # absent: none; null is refused
    plays: Plays = None  # type: ignore[assignment]

    @model_validator(mode="wrap")
    @classmethod
    def _one_of(cls, data: Any, handler: Callable[[Any], Any]) -> Any:
        """Both given is refused before either is read; the fields around them first."""
        if not (isinstance(data, dict) and "board" in data and "plays" in data):
            return handler(data)
        both = ApiError(Problem.WRONG_SHAPE, "give either 'board' or 'plays', not both", "board")
        _refuse_after_the_others(both, ("board", "plays"), data, handler)


class MoveRequest(Labelled, Position):
    model_config = ConfigDict(json_schema_extra=None)  # neither `board` nor `plays`: empty

    play: Annotated[
        str | PlayTiles,
        WrapValidator(_play),
        Field(
            description="Notation: '8H CAFé' (row first = across, column first = down; lower"
            " case = blank; '.' = tile on the board), or the tiles placed"
        ),
    ]
    rack: str | None = Field(None, description="Optional; '?' is a blank")


# --- games ------------------------------------------------------------------------------------

Name = Annotated[str, Field(min_length=1, max_length=bounds.MAX_NAME_CHARS)]
TurnType = Literal[tuple(TURN_TYPES)]  # type: ignore[valid-type]


def _unknown_player(value: Any) -> ApiError:
    return ApiError(Problem.UNKNOWN_PLAYER, f"{value!r} is not in 'players'")


class Turn(Body):
    """One line of a JSON record: who, what, and the points."""

    # What each type needs, and who may play it, is the record's rule (`api.games`); an absent
    # `player` or `type` is left to it too, so that an unknown player is named first.

    player: str = Field(None, json_schema_extra={"maxLength": bounds.MAX_NAME_CHARS})
    type: TurnType = None
    move: str = Field(None, max_length=bounds.MAX_MOVE_CHARS, description="For a play: `8H WORD`")
    rack: str = Field(None, max_length=bounds.MAX_RACK_CHARS)
    tiles: str = Field(
        None,
        max_length=bounds.MAX_RACK_CHARS,
        description="Exchanged tiles, or the rack of an end_rack line",
    )
    count: int | None = Field(None, ge=0, le=bounds.MAX_BAG, description="Exchange by count")
    score: Points = 0
    total: Points | None = Field(None, description="Optional; the running total")
    note: str = Field(
        None,
        max_length=bounds.MAX_LINE_CHARS,
        description="A note on the turn, as a GCG `#note` line after it: `restart; jury: NAME`"
        " states a restart after this turn (003), `jury: …` a jury's finding",
    )

    model_config = ConfigDict(json_schema_extra={"required": ["player", "type"]})


def _not_blank(message: str, field: str | None = None) -> AfterValidator:
    def check(value: str) -> str:
        if not value.strip():
            raise Refused(ApiError(Problem.WRONG_SHAPE, message, field))
        return value

    return AfterValidator(check)


_RECORD_KEYS = ("gcg", "players", "turns")


def _record_keys(data: dict[str, Any]) -> ApiError | None:
    """A record is `gcg`, or `players` and `turns`: decided by the keys before their values."""
    if ("gcg" in data) == ("turns" in data):
        return ApiError(Problem.WRONG_SHAPE, "give either 'gcg' or 'players' and 'turns'", "gcg")
    if "gcg" in data and "players" in data:  # the record's #player lines name them
        return ApiError(Problem.WRONG_SHAPE, "'players' goes with 'turns', not 'gcg'", "players")
    return None


def _turns(value: Any, handler: Callable[[Any], Any]) -> Any:
    """A turn's refusals in the order they always came: not an object; a key it may not have;
    no player, or one that is not a name (422, as one not among the players); its type.
    (One wrap for the list: a wrap a turn would cost a Python call each.)"""
    try:
        return handler(value)
    except ValidationError as exc:
        i, mine = _item_at_fault(exc)
        turn = value[i]
        if not isinstance(turn, dict):
            _refuse(Problem.WRONG_SHAPE, "a turn must be an object", (i,))
        if any(error["type"] == "extra_forbidden" for error in mine):
            raise
        if not isinstance(turn.get("player"), str):
            raise Refused(_unknown_player(turn.get("player")), under=(i, "player")) from None
        if _first(mine)["loc"] == (i, "type"):
            _refuse(Problem.WRONG_SHAPE, TURN_TYPE_MESSAGE, (i, "type"))
        raise


class Record(Body):
    """A game record: the text of a GCG file (`gcg`), or JSON `players` and `turns`."""

    model_config = ConfigDict(
        json_schema_extra={
            "description": "Either `gcg`, or `players` and `turns`.",
            "oneOf": [
                {
                    "required": ["gcg"],
                    "not": {"anyOf": [{"required": ["players"]}, {"required": ["turns"]}]},
                },
                {"required": ["players", "turns"], "not": {"required": ["gcg"]}},
            ],
        }
    )

    free_challenge: FreeChallenge = False
    gcg: Annotated[
        str,
        worded("'gcg' must be the text of a GCG record", "string_type"),
        _not_blank("'gcg' must be the text of a GCG record"),
        Field(
            max_length=bounds.MAX_GCG_CHARS,
            description="The text of a GCG record",
            json_schema_extra={"minLength": 1, "pattern": "\\S"},
        ),
    ] = None  # type: ignore[assignment]
    players: Annotated[
        list[Name],
        worded(
            "'players' must be a list of names",
            *("list_type", "string_type", "string_too_short"),
            within=True,
        ),
        Field(json_schema_extra={"minItems": 2, "maxItems": 4}),
    ] = None  # type: ignore[assignment]
    turns: Annotated[
        list[Turn],
        WrapValidator(_turns),
        Field(min_length=1, max_length=bounds.MAX_TURNS),
        refusing(
            {
                **each(refusal("'turns' must be a non-empty list"), ("list_type", "too_short")),
                "too_long": refusal(f"at most {bounds.MAX_TURNS} turns", Problem.TOO_MANY_TURNS),
            }
        ),
    ] = None  # type: ignore[assignment]

    @model_validator(mode="wrap")
    @classmethod
    def _gcg_or_turns(cls, data: Any, handler: Callable[[Any], Any]) -> Any:
        problem = _record_keys(data) if isinstance(data, dict) else None
        if problem is None:
            record = handler(data)
            if record.turns is not None and record.players is None:
                _refuse(Problem.WRONG_SHAPE, "'players' must be a list of names", ("players",))
            return record
        _refuse_after_the_others(problem, _RECORD_KEYS, data, handler)


class VerifyRequest(Record):
    """games/verify's body: a record."""


class RecordPicture(Record):
    """games/board's record: a record and the `turn` to show."""

    turn: int = Field(
        None,
        ge=0,
        le=bounds.MAX_TURNS,
        description="Show the board after this many lines of the report's `turns` (0: the"
        " empty board); default the last; past the record's last, 400 `out_of_range`",
    )


def _as_sent(value: Any, handler: Callable[[Any], Any]) -> Any:
    """A whole number stays one (it is echoed as sent: `-1 minutes`, not `-1.0`)."""
    checked = handler(value)
    return value if isinstance(value, int) else checked


class PlayerEnd(Body):
    name: Annotated[
        str, Field(max_length=bounds.MAX_NAME_CHARS), _not_blank("a player needs a name")
    ] = Field(json_schema_extra={"minLength": 1, "pattern": "\\S"})
    score: Points = Field(description="Score before the end-of-game adjustment")
    rack: Annotated[
        str,
        worded("a rack must be a string of letters, '?' for a blank", "string_type", status=422),
    ] = Field("", max_length=bounds.MAX_RACK_CHARS, description="Tiles left, `?` for a blank")
    # The rules refuse a negative one (422): the bound here is the size either way.
    overtime_minutes: Annotated[
        float,
        Field(ge=-bounds.MAX_OVERTIME_MINUTES, le=bounds.MAX_OVERTIME_MINUTES),
        WrapValidator(_as_sent),
    ] = Field(0, json_schema_extra={"minimum": 0})


class FinalScoreRequest(Body):
    players: Annotated[
        list[PlayerEnd],
        Field(min_length=1, json_schema_extra={"minItems": 2, "maxItems": 4}),
        worded("'players' must be a list of players", "list_type", "too_short"),
    ]
    # Which endings a ruleset allows is its own (a 422): here, a string.
    ending: Annotated[
        str,
        worded("'ending' must be one of the ruleset's endings"),
        WithJsonSchema({"enum": list(ENDINGS)}),
        Field(
            description="How the game ended; each ruleset allows some (GET /rulesets/{id} shows"
            " its end rules)"
        ),
    ]
    went_out: (
        Annotated[
            str,
            Field(max_length=bounds.MAX_NAME_CHARS),
            worded("'went_out' must be a player's name", "string_type"),
        ]
        | None
    ) = Field(None, description="Name of the player who went out (ending `out`)")
    point_target: Points | None = Field(
        None, description="dk-home: the target reached (ending `point_target`)"
    )


_DRAW_NAME = f"'players' must be a list of names of at most {bounds.MAX_NAME_CHARS} characters"
DRAWS_SHAPE = (
    f"'draws' must be a list of 1 to {bounds.MAX_DRAW_ROUNDS} rounds, each {{player: tile}}"
)
DrawName = Annotated[str, Field(min_length=1, max_length=bounds.MAX_NAME_CHARS)]
Draw = Annotated[
    dict[str, Any],
    worded("a round maps each player to a tile", "dict_type"),
    Field(
        description="Player → the tile drawn in this round: a letter of the set, `?` for a blank",
        json_schema_extra={
            "additionalProperties": {"type": "string", "minLength": 1, "maxLength": 1},
            "maxProperties": 4,
        },
    ),
]


class DrawOrderRequest(Body):
    model_config = ConfigDict(
        json_schema_extra={"anyOf": [{"required": ["draws"]}, {"required": ["winner"]}]}
    )

    players: Annotated[
        list[Annotated[DrawName, _not_blank(_DRAW_NAME, "players")]],
        worded(_DRAW_NAME, *TYPES, "string_too_long", within=True),
        Field(
            description="2 players, or up to 4 under dk-home",
            json_schema_extra={"minItems": 2, "maxItems": 4},
        ),
    ]
    draws: Annotated[
        list[Draw],
        Field(min_length=1, max_length=bounds.MAX_DRAW_ROUNDS),
        worded(DRAWS_SHAPE, "list_type", "too_short", "too_long"),
        Field(
            description="The tiles drawn, round by round; may be left out when a `winner` is given"
        ),
    ] = None  # type: ignore[assignment]
    nearest: Annotated[
        Literal[DRAW_NEAREST],  # type: ignore[valid-type]
        worded(
            f"'nearest' must be one of {', '.join(DRAW_NEAREST)}: the end of the alphabet that"
            " wins the draw"
        ),
        Field(
            description="Which end of the alphabet wins the draw: `start` (nearest A) or `end`"
            " (nearest the last letter, Å in Danish). Only dk-home offers the other reading than"
            " its own (`start`, 004); elsewhere another is a 422"
        ),
    ] = None  # type: ignore[assignment]
    blank: Annotated[
        Literal[DRAW_BLANKS],  # type: ignore[valid-type]
        worded(f"'blank' must be one of {', '.join(DRAW_BLANKS)}: what a drawn blank does"),
        Field(
            description="What a drawn blank does: `not_counted` (drawn again) or `beats_all`."
            " dsf-2015 and ssf-1999, whose sources are silent on it (000 §3.3a names letters"
            " only; 002 names no draw method), take `not_counted` by default, an inference, and"
            " offer `beats_all` (the ruleset's `draw.blank_option`); sbnl-punten (003) and"
            " dk-home (004) say it outright, and another is a 422"
        ),
    ] = None  # type: ignore[assignment]
    winner: Annotated[
        DrawName,
        _not_blank("'winner' must be one of the players' names"),
        worded("'winner' must be one of the players' names", *TYPES, "string_too_long"),
        Field(
            description="ssf-1999 only (002 names no draw method): the winner of a draw the"
            " players made their own way, one of `players`. `draws` may then be left out; given"
            " as well, they must make the same player the winner"
        ),
    ] = None  # type: ignore[assignment]


_PIN = f"'pin' must be a string of 1 to {bounds.MAX_PIN_CHARS} characters"


class UnlockRequest(Body):
    """The judge page's unlock (`/judge/unlock`): the director's PIN as typed."""

    pin: Annotated[
        str,
        Field(min_length=1, max_length=bounds.MAX_PIN_CHARS),
        worded(_PIN, *TYPES, "string_too_long"),
        Field(description="The PIN set in `ADJUDICATOR_JUDGE_PIN`"),
    ]
