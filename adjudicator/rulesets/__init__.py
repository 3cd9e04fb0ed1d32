"""Rulesets as data: the TOML files bundled in this package's folder, plus a deployment's own
config directory.

A ruleset says what a federation allows the service to disclose and what a ruling costs. A file
is read into one frozen model, `Ruleset` (the game's `Rules` plus the service's fields), which
checks it and fills its defaults in one pass; a bad one is rejected with its file and field,
never half-used. Nothing else reads the TOML tables.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import (
    BaseModel,
    Field,
    PrivateAttr,
    StrictBool,
    StrictStr,
    ValidationError,
    model_validator,
)

from adjudicator.bounds import MAX_CHALLENGE_WORDS
from adjudicator.disclosure import POLICIES
from adjudicator.game.challenge import outcome
from adjudicator.game.rules import (
    ChallengeRule,
    Count,
    Rules,
    Section,
    Sourced,
    rule_error,
    tables,
)

# Where a jury limit holds: everywhere, or only when the service runs a tournament (SBNL 003: "op
# landelijke Scrabbletoernooien"), an event's setting aside (`adjudicator.audit.jury.applies`).
JURY_LIMIT_APPLIES = ("always", "tournament")
LEXICON_MAP_FILE = "lexicons.toml"

# A ruling's text, by language: every one a non-empty string.
Texts = dict[StrictStr, Annotated[StrictStr, Field(min_length=1)]]


class RulesetFileError(Exception):
    """A ruleset file (or `lexicons.toml`, or the folder) the service cannot start with."""

    def __init__(self, file: str, field: str, message: str):
        super().__init__(f"{file}: field {field!r}: {message}")
        self.file, self.field, self.message = file, field, message


class Disclosure(Section):
    policy: Literal[POLICIES] = Field(  # type: ignore[valid-type]
        description="What an answer may reveal: `word` (each word's verdict) or `play` (only"
        " whether the play stands); docs/explanation/disclosure.md."
    )


class Card(Sourced):
    """The two-letter card on every table (003 Verloop van het spel): a page to print."""

    two_letter: StrictBool = Field(
        False,
        description="A printable card of every two-letter word of the lexicon, for each table"
        " (`/rulesets/<id>/two-letter-card`); the directors' page links it.",
    )
    public: StrictBool = Field(
        False,
        description="Anyone may fetch the card, in tournament mode too (003: it lies on every"
        " table); else only a director, or anyone in open mode under the `word` policy.",
    )


class House(Sourced):
    """A house variant (004 Almindelige varianter: "Mange hjem tillader egennavne"): the rules
    of `variant_of` with a house build of its lexicon; never served in tournament mode."""

    variant_of: StrictStr | None = Field(
        None,
        description="The ruleset whose rules this house variant plays, with its own lexicon (a"
        " house build: a compiler filter off). Set: the ruleset is refused in tournament mode,"
        " and only it may use a house build; none: a ruleset for any mode.",
    )


class Editions(Sourced):
    """The editions of the word list (000 §2.1: Retskrivningsordbogen with Dansk Sprognævn's
    yearly update; 002: SAOL and its supplement; 003: "de geldende uitgaven"): each a compiled
    lexicon in force from the date its build names (`lexicon build --in-force-from`)."""

    lexicons: tuple[StrictStr, ...] = Field(
        (),
        description="Further editions of `lexicon`, by lexicon id: on the event's date the"
        " service rules with the one in force (the latest date not after it; a build without a"
        " date is in force since always); one whose date has not come is installed, not used.",
    )


class Challenge(ChallengeRule):
    """The challenge table: the game's rule, plus what the service says and counts."""

    max_words: Annotated[int, Field(strict=True, ge=1, le=MAX_CHALLENGE_WORDS)] = Field(
        description=f"Words one challenge may name, 1 to {MAX_CHALLENGE_WORDS}."
    )
    valid_text: Texts = Field(
        description="The valid ruling's cost in words: `en` and the ruleset's language."
    )
    invalid_text: Texts = Field(
        description="The invalid ruling's cost in words: `en` and the ruleset's language."
    )
    free_challenge_text: Texts | None = Field(
        None, description="The free-challenge ruling's cost in words, when the option is offered."
    )
    query_invalid_text: Texts | None = Field(
        None,
        description="Jury mode: what a word the jury rejects before it is placed costs, in words"
        " (nothing: the penalty, `invalid`, falls on a word once placed; 003 Strafpuntenregel).",
    )
    jury_submissions_per_player: Count | None = Field(
        None, description="Jury mode: words a player may put to the jury per game; none: no limit."
    )
    jury_limit_applies: Literal[JURY_LIMIT_APPLIES] = Field(  # type: ignore[valid-type]
        "always",
        description="Where the jury limit holds: `always`, or only in `tournament` mode (SBNL).",
    )


class Ruleset(Rules):
    """A ruleset file, validated and with its defaults filled in one pass (`load_ruleset_file`).

    What a federation allows the service to disclose and what a ruling costs; the game rules
    it inherits from `Rules` are what the rule functions take.
    """

    name: StrictStr = Field(description="The ruleset's name in its language.")
    name_en: StrictStr = Field(description="The ruleset's name in English.")
    lexicon: StrictStr = Field(description="The compiled lexicon it rules with, by id.")
    sources: StrictStr = Field("", description="The documents its rules follow.")
    disclosure: Disclosure = Field(description="What an answer may reveal.")
    challenge: Challenge = Field(description="A challenge and what its ruling costs.")
    card: Card = Field(description="The two-letter card for the tables.")
    house: House = Field(description="A house variant (004): never in a tournament.")
    editions: Editions = Field(description="The word list's editions, each with its date.")

    _file: str = PrivateAttr("")

    @model_validator(mode="after")
    def _texts_in_both_languages(self) -> Ruleset:
        keys = ["valid_text", "invalid_text"]
        if self.challenge.mode == "jury":  # a jury query's answer says what it costs: nothing
            keys.append("query_invalid_text")
        for key in keys:
            text = getattr(self.challenge, key) or {}
            if "en" not in text or self.language not in text and self.language != "en":
                raise rule_error(f"challenge.{key}", f"needs 'en' and {self.language!r}")
        return self

    @property
    def file(self) -> str:
        """The file it was read from, as errors and logs name it."""
        return self._file

    @property
    def house_variant(self) -> bool:
        """A house variant: refused in tournament mode, and the only kind of ruleset that may
        rule with a house build of a lexicon (adjudicator.catalogue)."""
        return self.house.variant_of is not None

    @property
    def edition_ids(self) -> tuple[str, ...]:
        """Every edition of its word list, by lexicon id: `lexicon`, then `[editions]`'s."""
        return tuple(dict.fromkeys((self.lexicon, *self.editions.lexicons)))

    def consequence(self, valid: bool, words: int, free_challenge: bool = False) -> dict[str, Any]:
        """What the ruling costs under this ruleset, in structured fields and in words.

        The arithmetic is the game rules' (`adjudicator.game.challenge.outcome`); `points` is
        the size of what the ruling moves for this many words. A challenge knows no turn score,
        so SBNL's "turn score + 20" shows its fixed part here.
        """
        challenge = self.challenge
        if challenge.mode == "jury":
            # A word put to the jury "ter goedkeuring" before it is placed (003 Verloop van het
            # spel) costs nothing either way: the penalty falls on a word "nadat het definitief
            # is geplaatst" (003 Strafpuntenregel), which is `if_placed`.
            text = challenge.valid_text if valid else challenge.query_invalid_text or {}
            return {"kind": "none", "points": 0, "text": dict(text)}
        result = outcome(self, valid, words, free_challenge=free_challenge)
        text = challenge.valid_text if valid else challenge.invalid_text
        if free_challenge and valid and challenge.free_challenge_text is not None:
            text = challenge.free_challenge_text
        return {
            "kind": result.kind,
            "points": result.points,
            "text": dict(text),
        }

    def if_placed(self) -> dict[str, Any]:
        """Jury mode: what a word the jury rejected costs if it is placed all the same (003
        Strafpuntenregel), in the fields of a consequence; its fixed part, as `consequence`."""
        result = outcome(self, False)
        return {
            "kind": result.kind,
            "points": abs(result.player_points),
            "text": dict(self.challenge.invalid_text),
        }


_TYPE_NAMES = {"int_type": "int", "string_type": "str", "bool_type": "bool", "tuple_type": "list"}


def _field(model: type[BaseModel], loc: tuple[str, ...]) -> Any:
    """The declared field at `loc` (names as the file writes them), or None past a model."""
    info = None
    for part in loc:
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return None
        info = next((f for n, f in model.model_fields.items() if (f.alias or n) == part), None)
        if info is None:
            return None
        model = info.annotation
    return info


def _error(exc: ValidationError, file: str) -> RulesetFileError:
    """The first thing wrong, as the file's author reads it: the dotted field and what it must
    be. Unknown keys come first (a misspelt key explains a "missing" one)."""
    errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
    error = errors[0]
    loc = tuple(str(part) for part in error["loc"])
    kind, ctx, value = error["type"], error.get("ctx", {}), error.get("input")
    info = _field(Ruleset, loc)
    if kind == "ruleset":
        loc, message = (*loc, ctx["field"]), ctx["message"]
    elif kind == "missing":
        message = "missing"
    elif kind == "extra_forbidden":
        message = "unknown field"
    elif kind in ("model_type", "model_attributes_type", "dict_type"):
        message = "must be a table"
    elif kind in _TYPE_NAMES:
        message = f"must be {_TYPE_NAMES[kind]}, not {type(value).__name__}"
    elif kind == "literal_error" and info is not None:
        choices = get_args(info.annotation)
        message = (
            f"only {choices[0]!r} is supported"
            if len(choices) == 1
            else f"must be one of {', '.join(choices)}"
        )
    elif kind in ("greater_than_equal", "less_than_equal"):
        bounds = {type(m).__name__: m for m in (info.metadata if info else ())}
        if "Ge" in bounds and "Le" in bounds:
            message = f"must be {bounds['Ge'].ge} to {bounds['Le'].le}"
        else:
            message = f"must be ≥ {ctx['ge']}" if "ge" in ctx else f"must be ≤ {ctx['le']}"
    elif kind == "string_too_short":
        message = "must not be empty"
    else:
        message = error["msg"]
    return RulesetFileError(file, ".".join(loc) or "-", message)


def _kind_text(annotation: Any, metadata: list[Any]) -> str:
    """What a key takes, in the reference's words."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _kind_text(args[0], [*metadata, *args[1:]])
    if origin in (Union, UnionType):
        return _kind_text(next(a for a in args if a is not type(None)), metadata)
    if origin is Literal:
        return "one of " + ", ".join(f"`{choice}`" for choice in args)
    if origin is dict:
        return "table of texts by language"
    if origin is tuple:
        return "list of texts"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "table: " + ", ".join(
            f"`{f.alias or n}`" for n, f in annotation.model_fields.items()
        )
    if annotation is bool:
        return "true or false"
    if annotation is str:
        return "text"
    bounds = {type(m).__name__: m for m in metadata}
    for meta in metadata:  # a field's own bounds sit in a FieldInfo inside Annotated
        bounds |= {type(m).__name__: m for m in getattr(meta, "metadata", ())}
    if "Ge" in bounds and "Le" in bounds:
        return f"whole number, {bounds['Ge'].ge} to {bounds['Le'].le}"
    return "whole number" + (f" ≥ {bounds['Ge'].ge}" if "Ge" in bounds else "")


def _default_text(name: str, info: Any) -> str:
    if info.is_required():
        return "required"
    if name == "source":
        return "the ruleset's id"
    value = info.get_default(call_default_factory=True)
    if value is None or value in ({}, ()):
        return "none"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f"`{value}`" if isinstance(value, int) else f'`"{value}"`'


def markdown_reference() -> str:
    """Every key a ruleset file may hold, from the model: the docs site's ruleset reference
    (docs/reference/rulesets.md), so it cannot drift from what the loader accepts."""
    by_key = tables(Ruleset)
    todo: list[tuple[str, type[BaseModel]]] = [("top level", Ruleset)]
    todo += [(f"[{key}]", model) for key, model in by_key.items()]
    out: list[str] = []
    while todo:
        title, model = todo.pop(0)
        out += [f"#### {title}", "", "| key | takes | default | meaning |", "|---|---|---|---|"]
        within: dict[type[BaseModel], list[str]] = {}  # tables inside this one, by model
        for name, info in model.model_fields.items():
            key, kind = info.alias or name, info.annotation
            if model is Ruleset and key in by_key:
                continue
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                within.setdefault(kind, []).append(f"`{key}`")
            cells = [f"`{key}`", _kind_text(kind, info.metadata), _default_text(name, info)]
            out.append("| " + " | ".join([*cells, info.description or ""]) + " |")
        out.append("")
        todo[:0] = [(f"{title} {' and '.join(keys)}", kind) for kind, keys in within.items()]
    return "\n".join(out)


def load_ruleset_file(path: Path) -> Ruleset:
    """Read, validate and fill a ruleset file in one pass, or say its file and field."""
    file = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesetFileError(file, "-", f"cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetFileError(file, "-", f"not valid TOML: {exc}") from None
    try:
        ruleset = Ruleset.model_validate(data)
    except ValidationError as exc:
        raise _error(exc, file) from None
    if ruleset.id != path.stem:
        raise RulesetFileError(file, "id", f"is {ruleset.id!r} but the file is named {path.name}")
    ruleset._file = file
    return ruleset


def bundled_files() -> list[Path]:
    return sorted(Path(__file__).parent.glob("*.toml"))


def load_rulesets(config_dir: str | Path | None = None) -> dict[str, Ruleset]:
    """The bundled rulesets, then the deployment's: same id replaces, new id adds.

    A `lexicons.toml` in the config directory (`dsf-2015 = "ro2012"`) repoints rulesets at a
    federation's own compiled lexicon without copying the whole ruleset; a list
    (`dsf-2015 = ["ro2012", "ro2012-2027"]`) names its editions, the first as `lexicon`.
    """
    files = bundled_files()
    lexicon_map: dict[str, str] = {}
    if config_dir:
        folder = Path(config_dir)
        if not folder.is_dir():
            raise RulesetFileError(str(folder), "-", "ruleset config directory does not exist")
        for path in sorted(folder.glob("*.toml")):
            if path.name == LEXICON_MAP_FILE:
                lexicon_map = _load_lexicon_map(path)
            else:
                files.append(path)
    # The config directory's files come last, so one of theirs replaces a bundled one.
    rulesets = {ruleset.id: ruleset for ruleset in map(load_ruleset_file, files)}
    for ruleset_id, lexicon_ids in lexicon_map.items():
        if ruleset_id not in rulesets:
            raise RulesetFileError(
                str(Path(config_dir) / LEXICON_MAP_FILE), ruleset_id, "no such ruleset"
            )
        ruleset = rulesets[ruleset_id]
        editions = ruleset.editions.model_copy(update={"lexicons": tuple(lexicon_ids[1:])})
        rulesets[ruleset_id] = ruleset.model_copy(
            update={"lexicon": lexicon_ids[0], "editions": editions}
        )
    for ruleset in rulesets.values():
        base = ruleset.house.variant_of
        if base is not None and (base not in rulesets or rulesets[base].house_variant):
            why = "is a house variant itself" if base in rulesets else "is no ruleset"
            raise RulesetFileError(ruleset.file, "house.variant_of", f"{base!r} {why}")
    return rulesets


def _load_lexicon_map(path: Path) -> dict[str, list[str]]:
    """Each ruleset's lexicon id, or its editions' ids (a list, the first its `lexicon`)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RulesetFileError(str(path), "-", f"cannot read: {exc}") from None
    mapped: dict[str, list[str]] = {}
    for key, value in data.items():
        ids = [value] if isinstance(value, str) else value
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) and i for i in ids):
            raise RulesetFileError(
                str(path), key, "must be a lexicon id (a string) or a list of them (its editions)"
            )
        mapped[key] = ids
    return mapped
