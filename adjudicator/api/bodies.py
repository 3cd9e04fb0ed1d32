"""Every JSON request body the API reads, declared once as a pydantic model with its bounds.

A model is the body's shape and bounds (numbers from `adjudicator.bounds`), the validation the
views run, and the source of openapi.json's `components/schemas` for it (`tools/openapi-schemas`
writes them; a test fails when the committed document differs). What depends on a ruleset (how
many players, whether it has a free-challenge variant) or on the lexicon stays in the views.

`parse` validates the already parsed body (`requests.json_body` keeps the duplicate-key, depth and
framing refusals in front) and turns pydantic's first error into the RFC 9457 problem the API has
always given: the same status, `code` and `field` (`players[0].score`, `turns[3].type`). A field
whose refusal is not the default for its kind says so beside its bound, with `refusing`.

All bodies live in this one module rather than beside each view because they share their parts
(labels, points, names, a position, a record) across features: games/board reads a position as
moves/validate does and a record as games/verify does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    WrapValidator,
    model_validator,
)
from pydantic_core import ErrorDetails

from adjudicator import bounds
from adjudicator.audit.labels import FIELDS as LABEL_FIELDS
from adjudicator.audit.labels import NONE as NO_LABELS
from adjudicator.audit.labels import Labels, check_label
from adjudicator.errors import ApiError
from adjudicator.store.models import LABEL_MAX
from lexicon.limits import BOARD_SIZE

B = TypeVar("B", bound=BaseModel)
Refusal = Callable[[Any], ApiError]  # the value at fault → the problem it gets


class Refused(ValueError):
    """An `ApiError` carried through pydantic from a validator (pydantic collects ValueErrors
    with their place; any other exception would cut validation short)."""

    def __init__(self, error: ApiError):
        super().__init__(error.message)
        self.error = error


# --- pydantic's errors → our problems -----------------------------------------------------------

_RANGE = {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}


def field_name(loc: Sequence[int | str]) -> str:
    """pydantic's `loc` as the API names a field: `("turns", 3, "type")` → `turns[3].type`."""
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else part)
    return name


def _first(errors: list[ErrorDetails]) -> ErrorDetails:
    """The error to report: the first, unless an object on its way has a key the body may not
    carry. An object's keys were always checked before its values."""
    first = errors[0]
    for error in errors:
        loc = error["loc"]
        if error["type"] == "extra_forbidden" and tuple(first["loc"][: len(loc) - 1]) == loc[:-1]:
            return error
    return first


def to_api_error(exc: ValidationError) -> ApiError:
    """The one translation from a pydantic `ValidationError` to the API's problem."""
    error = _first(exc.errors(include_url=False))
    kind, loc = error["type"], error["loc"]
    field = field_name(loc)
    cause = error.get("ctx", {}).get("error")
    if isinstance(cause, Refused):
        refused = cause.error
        if refused.field is None:
            refused.field = field or None
        return refused
    where = f"'{field}'" if field else "the body"
    if kind == "extra_forbidden":
        return ApiError(400, "unknown_field", f"unknown field {loc[-1]!r}", field)
    if kind == "missing":
        return ApiError(400, "wrong_shape", f"{where} is required", field)
    if kind in _RANGE:
        low, high = _range_text(error)
        return ApiError(400, "out_of_range", f"{where} must be {low}{high}", field)
    if kind == "string_too_long":
        longest = error["ctx"]["max_length"]
        return ApiError(400, "too_long", f"{where} is longer than {longest} characters", field)
    return ApiError(400, "wrong_shape", f"{where}: {error['msg'].lower()}", field)


def _range_text(error: ErrorDetails) -> tuple[str, str]:
    ctx = error.get("ctx", {})
    parts = [f"{word} {ctx[key]}" for key, word in _BOUND_WORDS.items() if key in ctx]
    return "", " and ".join(parts)


_BOUND_WORDS = {"ge": "at least", "gt": "more than", "le": "at most", "lt": "less than"}


def parse(model: type[B], data: dict[str, Any]) -> B:
    """`data` (a parsed JSON body) as `model`, or the 400 (or 422) problem naming the field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise to_api_error(exc) from None


def refusing(refusals: dict[str, Refusal], within: bool = False) -> WrapValidator:
    """The field's own refusal for some of pydantic's error types (`string_type`, `too_long`):
    for the first error at this level, or, `within`, anywhere inside the value (reported at this
    level: a tile that is not one is refused whole)."""

    def wrap(value: Any, handler: Callable[[Any], Any]) -> Any:
        try:
            return handler(value)
        except ValidationError as exc:
            error = _first(exc.errors(include_url=False))
            if (within or not error["loc"]) and error["type"] in refusals:
                raise Refused(refusals[error["type"]](value)) from None
            raise

    return WrapValidator(wrap)


def shape(message: str, status: int = 400) -> Refusal:
    """A `wrong_shape` refusal with its own wording."""
    return lambda _value: ApiError(status, "wrong_shape", message)


TYPES = ("string_type", "list_type", "int_type", "float_type", "bool_type", "dict_type")
TYPES += ("model_type", "literal_error", "missing", "string_too_short", "too_short", "too_long")


def each(refusal: Refusal, kinds: Sequence[str] = TYPES) -> dict[str, Refusal]:
    return dict.fromkeys(kinds, refusal)


class Body(BaseModel):
    """A JSON body: exactly these keys, each of exactly its JSON type (no "5" for 5)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# --- parts ------------------------------------------------------------------------------------


def _label(value: Any, info: ValidationInfo) -> str:
    try:
        return check_label(info.field_name or "", value)
    except ApiError as exc:
        raise Refused(exc) from None


# A label's type, length and script are its own rule (`audit.labels.check_label`); the
# document states the same as the `Label` schema.
LabelText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=LABEL_MAX,
        description="Free text the caller attaches to the ruling for the audit log (1 to"
        f" {LABEL_MAX} printable characters; surrounding space is trimmed). Recorded, never"
        " interpreted; `game` and `player` key the jury count.",
    ),
]
Label = Annotated[
    Any, AfterValidator(_label), WithJsonSchema({"$ref": "#/components/schemas/Label"})
]


class Labelled(Body):
    """The labels a ruling may carry: absent is none; `null` is no label text and refused."""

    event: Label = Field(None, description="The event (tournament), e.g. NM 2027")
    round: Label = Field(None, description="The round, e.g. 7")
    table: Label = Field(None, description="The table or board, e.g. 12")
    game: Label = Field(
        None, description="The game; with `player`, required for a counted jury query"
    )
    player: Label = Field(
        None, description="The player asking (challenger, or who puts the word to the jury)"
    )

    def labels(self) -> Labels:
        given = self.model_fields_set
        if not given.intersection(LABEL_FIELDS):
            return NO_LABELS
        return Labels(**{name: getattr(self, name) for name in LABEL_FIELDS})


FreeChallenge = Annotated[
    bool,
    refusing({"bool_type": shape("'free_challenge' must be true or false")}),
    Field(
        description="The free-challenge variant, where a failed challenge costs nothing (dk-home"
        " only: 004 Almindelige varianter); 422 under a ruleset without it"
    ),
]

Points = Annotated[int, Field(ge=-bounds.MAX_POINTS, le=bounds.MAX_POINTS)]


# --- challenge ----------------------------------------------------------------------------------


def _word_too_long(value: Any) -> ApiError:
    shown = repr(value[:40] + "…")
    return ApiError(400, "word_too_long", f"{shown} is longer than {bounds.MAX_WORD_CHARS}")


Word = Annotated[
    str,
    Field(max_length=bounds.MAX_WORD_CHARS),
    refusing(
        {
            "string_type": lambda _v: ApiError(
                400, "word_not_string", "each word must be a string"
            ),
            "string_too_long": _word_too_long,
        }
    ),
]


def _word_count(value: Any) -> ApiError:
    return ApiError(
        400, "word_count", f"challenge 1 to {bounds.MAX_CHALLENGE_WORDS} words, not {len(value)}"
    )


class ChallengeRequest(Labelled):
    free_challenge: FreeChallenge = False
    words: Annotated[
        list[Word],
        Field(min_length=1, max_length=bounds.MAX_CHALLENGE_WORDS),
        refusing(
            {
                "list_type": shape("'words' must be a list of strings"),
                "too_short": _word_count,
                "too_long": _word_count,
            }
        ),
    ]


# --- moves ------------------------------------------------------------------------------------


def _tile_range(key: str) -> Refusal:
    return lambda _v: ApiError(400, "out_of_range", f"'{key}' is 0 to {BOARD_SIZE - 1}")


Square = Annotated[int, Field(ge=0, le=BOARD_SIZE - 1)]


class Tile(Body):
    row: Annotated[
        Square,
        Field(description="0-based: 7 is row 8"),
        refusing(dict.fromkeys(_RANGE, _tile_range("row"))),
    ]
    col: Annotated[
        Square,
        Field(description="0-based: 7 is column H"),
        refusing(dict.fromkeys(_RANGE, _tile_range("col"))),
    ]
    letter: str = Field(
        description="One letter; lower case or blank=true for a blank with that designation;"
        " '' or '?' is an undesignated blank (an error)"
    )
    blank: bool = False


def _tile(value: Any, handler: Callable[[Any], Any]) -> Any:
    """A tile is refused whole (`play.tiles[2]`), but for a square off the board: a missing key
    first, then an unknown one, then a value of the wrong type."""
    try:
        return handler(value)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        kinds = {error["type"] for error in errors}
        if not isinstance(value, dict) or "missing" in kinds:
            raise Refused(
                ApiError(400, "wrong_shape", "a tile needs row, col and letter")
            ) from None
        if "extra_forbidden" in kinds:
            raise Refused(
                ApiError(400, "unknown_field", "a tile has only row, col, letter, blank")
            ) from None
        if errors[0]["type"] == "value_error":  # a square off the board: `_tile_range`
            raise
        raise Refused(
            ApiError(
                400,
                "wrong_shape",
                "'row' and 'col' are whole numbers, 'letter' a string, 'blank' true/false",
            )
        ) from None


def _tile_count(tiles: list[Tile]) -> list[Tile]:
    """Counted after each tile is read, as always."""
    if len(tiles) > BOARD_SIZE:
        raise Refused(
            ApiError(400, "too_many_tiles", f"a play cannot have more than {BOARD_SIZE} tiles")
        )
    return tiles


class PlayTiles(Body):
    tiles: Annotated[
        list[Annotated[Tile, WrapValidator(_tile)]],
        AfterValidator(_tile_count),
        Field(json_schema_extra={"maxItems": BOARD_SIZE}),
    ]


_NOT_A_PLAY = shape("'play' is notation text or {\"tiles\": [...]}")


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
    refusing(
        each(lambda _v: ApiError(400, "bad_board", "'board' must be a list of 15 strings")),
        within=True,
    ),
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
            **each(shape("'plays' must be a list of notation strings")),
            "too_long": lambda _v: ApiError(
                400, "too_many_plays", f"at most {bounds.MAX_HISTORY} earlier plays"
            ),
        },
        within=True,
    ),
]


class Position(Body):
    """A position: `board` (15 rows) or `plays` (earlier plays in notation), not both."""

    board: Rows = None  # type: ignore[assignment]  # absent: none; null is refused
    plays: Plays = None  # type: ignore[assignment]

    @model_validator(mode="wrap")
    @classmethod
    def _one_of(cls, data: Any, handler: Callable[[Any], Any]) -> Any:
        """Both given is refused before either is read; the fields around them first."""
        if not (isinstance(data, dict) and "board" in data and "plays" in data):
            return handler(data)
        try:
            handler(data)
        except ValidationError as exc:
            loc = _first(exc.errors(include_url=False))["loc"]
            if loc and loc[0] not in ("board", "plays"):
                raise
        raise Refused(
            ApiError(400, "wrong_shape", "give either 'board' or 'plays', not both", "board")
        )


class MoveRequest(Labelled, Position):
    play: Annotated[
        str | PlayTiles,
        WrapValidator(_play),
        Field(
            description="Notation: '8H CAFé' (row first = across, column first = down; lower"
            " case = blank; '.' = tile on the board), or the tiles placed"
        ),
    ]
    rack: str | None = Field(
        None,
        description="Optional; '?' is a blank",
        json_schema_extra={"type": "string"},
    )


# --- games ------------------------------------------------------------------------------------

Name = Annotated[str, Field(min_length=1, max_length=bounds.MAX_NAME_CHARS)]
TurnType = Literal["play", "pass", "exchange", "withdrawn", "challenge", "time", "end_rack"]


def _unknown_player(value: Any) -> ApiError:
    return ApiError(422, "unknown_player", f"{value!r} is not in 'players'")


class Turn(Body):
    """One line of a JSON record; what each type needs is the record's rule (`games`)."""

    player: Annotated[str, refusing(each(_unknown_player))] = Field(
        None, json_schema_extra={"maxLength": bounds.MAX_NAME_CHARS}
    )  # absent or not a string: not one of the players (422)
    type: Annotated[
        TurnType,
        refusing(each(shape(f"'type' must be one of {sorted(TurnType.__args__)}"))),
    ] = None  # type: ignore[assignment]
    move: str = Field(None, max_length=bounds.MAX_MOVE_CHARS, description="For a play: `8H WORD`")
    rack: str = Field(None, max_length=bounds.MAX_RACK_CHARS)
    tiles: str = Field(
        None,
        max_length=bounds.MAX_RACK_CHARS,
        description="Exchanged tiles, or the rack of an end_rack line",
    )
    count: int = Field(None, ge=0, le=bounds.MAX_BAG, description="Exchange by count")
    score: Points = 0
    total: Points | None = Field(
        None, description="Optional; the running total", json_schema_extra={"type": "integer"}
    )


_NOT_NAMES = shape("'players' must be a list of names")


class Record(Body):
    """A game record: the text of a GCG file (`gcg`), or JSON `players` and `turns`."""

    free_challenge: FreeChallenge = False
    gcg: Annotated[
        str,
        Field(max_length=bounds.MAX_GCG_CHARS, description="The text of a GCG record"),
        refusing({"string_type": shape("'gcg' must be the text of a GCG record")}),
    ] = None  # type: ignore[assignment]
    players: Annotated[
        list[Name],
        refusing(each(_NOT_NAMES, ("list_type", "string_type", "string_too_short")), within=True),
        Field(json_schema_extra={"minItems": 2, "maxItems": 4}),
    ] = None  # type: ignore[assignment]
    turns: Annotated[
        list[
            Annotated[
                Turn,
                refusing(
                    {
                        "model_type": lambda _v: ApiError(
                            400, "wrong_shape", "a turn must be an object"
                        )
                    }
                ),
            ]
        ],
        Field(min_length=1, max_length=bounds.MAX_TURNS),
        refusing(
            {
                **each(shape("'turns' must be a non-empty list"), ("list_type", "too_short")),
                "too_long": lambda _v: ApiError(
                    400, "too_many_turns", f"at most {bounds.MAX_TURNS} turns"
                ),
            }
        ),
    ] = None  # type: ignore[assignment]

    @model_validator(mode="after")
    def _gcg_or_turns(self) -> Record:
        given = self.model_fields_set
        if ("gcg" in given) == ("turns" in given):
            raise Refused(
                ApiError(400, "wrong_shape", "give either 'gcg' or 'players' and 'turns'", "gcg")
            )
        if "gcg" in given and "players" in given:  # the record's #player lines name them
            raise Refused(
                ApiError(400, "wrong_shape", "'players' goes with 'turns', not 'gcg'", "players")
            )
        if "gcg" in given and not self.gcg.strip():
            raise Refused(
                ApiError(400, "wrong_shape", "'gcg' must be the text of a GCG record", "gcg")
            )
        if "turns" in given and "players" not in given:
            raise Refused(
                ApiError(400, "wrong_shape", "'players' must be a list of names", "players")
            )
        return self


class VerifyRequest(Record):
    pass


class RecordPicture(Record):
    """games/board's record: a record and the `turn` to show."""

    turn: int = Field(
        None,
        ge=0,
        le=bounds.MAX_TURNS,
        description="Show the board after this many lines of the report's `turns` (0: the"
        " empty board); default the last; past the record's last, 400 `out_of_range`",
    )
