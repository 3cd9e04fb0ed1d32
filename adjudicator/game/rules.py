"""A ruleset's rule sections, typed: one frozen model per section of a ruleset file.

`adjudicator.rulesets` validates a file into `Ruleset`, a `Rules` with the service's own fields,
in one pass: types, bounds, choices and defaults are stated here and nowhere else, so the rule
functions read names, never dict keys. The field descriptions are the ruleset reference
(docs/reference/rulesets.md is generated from them; a test fails when the two differ).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    StrictStr,
    model_validator,
)
from pydantic_core import PydanticCustomError

from adjudicator.engine.plain import Plain

CONSEQUENCE_KINDS = (
    "none",
    "challenger_loses_turn",
    "challenger_penalty",
    "player_bonus_per_word",
    "play_withdrawn",
    "turn_score_plus_penalty",
)
CHALLENGE_MODES = ("challenge", "jury")
LOSS_WHEN = ("more_than", "at_least")  # overtime beyond the limit, or reaching it, loses
DRAW_BLANKS = ("beats_all", "not_counted")  # a blank drawn for who starts (docs/rules.md §12)
DRAW_NEAREST = ("start", "end")  # which end of the alphabet wins the draw (docs/rules.md §12)
# Each way a game can end (the `ending` values final-score takes), by the `[end]` rule that
# says whether the rules have it.
ENDINGS = {
    "out": "out_with_empty_bag",
    "scoreless": "scoreless_turns",
    "passes": "passes_in_a_row_each",
    "time_up": "time_up",
    "blocked": "blocked",
    "overtime": "overtime_ends_game",
    "point_target": "point_target_option",
}

# A count in a ruleset file: a whole number (a TOML `true` is not one), never negative.
Count = Annotated[StrictInt, Field(ge=0)]


def rule_error(field: str, message: str) -> PydanticCustomError:
    """A rule the types cannot say (one field against another), raised from a validator;
    `field` is dotted from the model that raises it, and `adjudicator.rulesets` names it."""
    return PydanticCustomError("ruleset", "{message}", {"message": message, "field": field})


class Section(BaseModel):
    """A table of a ruleset file: frozen, and an unknown key is an error, never ignored."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Sourced(Section):
    source: StrictStr = Field("", description="The document and section the rule follows.")


@dataclass(frozen=True)
class Verdict(Plain):
    """A yes/no answer with the reason and the source section it rests on (docs/rules.md §1)."""

    allowed: bool
    code: str
    reason: str
    source: str


class PassRule(Sourced):
    allowed: StrictBool = Field(description="Whether a player may pass.")


class ExchangeRule(Sourced):
    min_bag: Count = Field(description="Tiles the bag must hold for an exchange.")
    opening_turns: Count = Field(
        0, description="In a player's first N turns an exchange needs nothing else (SBNL)."
    )
    opening_in_a_row: StrictBool = Field(
        False, description="… as long as all of those turns were exchanges (003 “achter elkaar”)."
    )
    later_requires_previous_placement: StrictBool = Field(
        False, description="After the opening turns, an exchange needs a placement just before."
    )


class EndRule(Sourced):
    out_with_empty_bag: StrictBool = Field(
        description="The game ends when the bag is empty and a player is out."
    )
    passes_in_a_row_each: Count = Field(
        description="The game ends when every player passed this many times in a row; 0: never."
    )
    scoreless_turns: Count = Field(
        description="The game ends after this many scoreless turns in a row; 0: no such rule."
    )
    scoreless_counts_withdrawn: StrictBool = Field(
        True, description="A withdrawn play counts as a scoreless turn."
    )
    scoreless_counts_exchanges: StrictBool = Field(
        True, description="An exchange counts as a scoreless turn."
    )
    scoreless_needs_empty_bag: StrictBool = Field(
        False, description="Scoreless turns count only once the bag is empty (004)."
    )
    scoreless_counts_zero_point_plays: StrictBool = Field(
        False, description="A play scoring 0 counts as a scoreless turn (004)."
    )
    overtime_ends_game: StrictBool = Field(
        False, description="A player past the overtime limit ends the game."
    )
    time_up: StrictBool = Field(False, description="The game may end when the time is up.")
    blocked: StrictBool = Field(
        False, description="The game may end when no player can place or exchange."
    )
    equal_turns: StrictBool = Field(
        False, description="A player out ends the game only once the turns are equal (SBNL)."
    )
    stuck_player_sits_out: StrictBool = Field(
        False, description="A player who can neither place nor exchange sits out for good (SBNL)."
    )
    point_target_option: StrictBool = Field(
        False, description="A game may be played to a point target (004)."
    )


class FinalRule(Sourced):
    own_rack_factor: Count = Field(
        description="When a player went out: the others lose this × their own rack."
    )
    out_gains_factor: Count = Field(
        description="… and the player who went out gains this × the others' racks."
    )
    scoreless_own_rack_factor: Count = Field(
        description="Any other ending: each player loses this × their own rack."
    )
    ties: Literal["shared"] = Field(description="A tied game: only `shared` is supported.")


class ClockRule(Sourced):
    minutes: Count = Field(description="Minutes on each player's clock; 0: no clock.")
    shared: StrictBool = Field(
        False, alias="shared_clock", description="One clock for the whole game (SBNL)."
    )
    penalty_per_started_minute: Count = Field(
        description="Points lost per started overtime minute."
    )
    loss_after_minutes: Count = Field(description="Overtime that loses the game; 0: none.")
    loss_when: Literal[LOSS_WHEN] = Field(  # type: ignore[valid-type]
        "more_than",
        description="Overtime `more_than` the limit loses (DSF), or `at_least` reaching it (SSF).",
    )
    loss_min_spread: Count = Field(description="The spread a loss on time stands at, at least.")


class RestartRule(Sourced):
    """Starting a game again from an empty board (003 Verloop van het spel; docs/rules.md §8)."""

    allowed: StrictBool = Field(
        False, description="A game may be restarted; no: a game once begun is played on."
    )
    after_exchanges: Count = Field(
        3,
        description="… only when the first player has exchanged this many times, and nothing else.",
    )
    jury_consent: StrictBool = Field(
        True, description="… only with the jury's consent: the record's note names the jury."
    )


class Consequence(Section):
    """What a challenge ruling costs: `kind`, and the `points` it moves."""

    kind: Literal[CONSEQUENCE_KINDS] = Field(  # type: ignore[valid-type]
        description="What the ruling does (docs/rules.md §5)."
    )
    points: StrictInt = Field(description="The points the consequence moves.")


class ChallengeRule(Sourced):
    mode: Literal[CHALLENGE_MODES] = Field(  # type: ignore[valid-type]
        description="`challenge`: a player challenges; `jury`: the jury checks words (SBNL)."
    )
    valid: Consequence = Field(description="When the challenged play is valid.")
    invalid: Consequence = Field(description="When the challenged play is invalid.")
    free_challenge_option: StrictBool = Field(
        False, description="A request may ask for the free-challenge variant (004)."
    )


class DrawRule(Sourced):
    """Who starts (docs/rules.md §12)."""

    blank: Literal[DRAW_BLANKS] = Field(  # type: ignore[valid-type]
        "beats_all",
        description="A blank drawn: `beats_all` (004) or `not_counted`, drawn again (003).",
    )
    blank_option: StrictBool = Field(
        False,
        description="A request may take the other reading of `blank`, where the sources do not"
        " say what a drawn blank does (000 §3.3a, 002).",
    )
    nearest: Literal[DRAW_NEAREST] = Field(  # type: ignore[valid-type]
        "start",
        description="`start`: the tile nearest A wins (000 §3.3a, 003); `end`: nearest the last letter.",
    )
    nearest_option: StrictBool = Field(
        False, description="A request may take the other reading of `nearest` (004 “højeste”)."
    )
    given_winner_option: StrictBool = Field(
        False, description="A request may give the winner of a draw made otherwise (SSF)."
    )
    winner_chooses: StrictBool = Field(
        False, description="The winner of the draw chooses between `choices` (002)."
    )
    choices: tuple[StrictStr, ...] = Field(
        (), description="What the winner of the draw chooses from."
    )
    tiles_go_back: StrictBool = Field(True, description="The drawn tiles go back into the bag.")

    @model_validator(mode="after")
    def _winner_has_a_choice(self) -> DrawRule:
        if self.winner_chooses and not self.choices:
            raise rule_error("choices", "the winner of the draw needs something to choose from")
        return self


class OverdrawRule(Sourced):
    """What is done with a player who drew too many tiles (docs/rules.md §13)."""

    text: dict[StrictStr, StrictStr] = Field(
        default_factory=dict, description="The rule, in the ruleset's language and in English."
    )


class Rules(Section):
    """The rules a game is judged by; `adjudicator.rulesets.Ruleset` adds the service's fields.

    One pass fills every default: a table's `source` is the ruleset's id unless it names one.
    The keys the file wrote are remembered in its order, for the public view (`as_written`).
    """

    id: StrictStr = Field(description="The ruleset's id: the file's name without `.toml`.")
    language: StrictStr = Field(description="The ruleset's language (a language profile's code).")
    max_players: Count = Field(
        2, description="Players a game may have; tournament rules are for two (000 §1a)."
    )
    players_source: StrictStr = Field(
        "", description="Where `max_players` comes from, when not the default two."
    )
    challenge: ChallengeRule = Field(description="A challenge and what its ruling costs.")
    exchange: ExchangeRule = Field(description="Exchanging tiles.")
    pass_: PassRule = Field(alias="pass", description="Passing.")
    end: EndRule = Field(description="How a game ends.")
    final: FinalRule = Field(description="The final adjustment of the scores.")
    clock: ClockRule = Field(description="The clock, overtime and a loss on time.")
    draw: DrawRule = Field(description="Who starts (docs/rules.md §12).")
    overdraw: OverdrawRule = Field(description="Drawing too many tiles (docs/rules.md §13).")
    restart: RestartRule = Field(description="Starting the game again (docs/rules.md §8).")

    _written: dict[str, tuple[str, ...]] = PrivateAttr(default_factory=dict)

    @model_validator(mode="wrap")
    @classmethod
    def _fill_defaults(cls, data: Any, handler: Any) -> Rules:
        if not isinstance(data, dict):
            return handler(data)
        written = {key: tuple(value) for key, value in data.items() if isinstance(value, dict)}
        data = dict(data)
        for key, kind in tables(cls).items():
            value = data.setdefault(key, {})  # absent: its required keys are named as missing
            if (
                isinstance(value, dict)
                and issubclass(kind, Sourced)
                and isinstance(data.get("id"), str)
            ):
                data[key] = {"source": data["id"], **value}
        rules = handler(data)
        rules._written = written
        return rules

    def as_written(self, table: str) -> dict[str, Any]:
        """A table with the keys its file wrote, in the file's order: the public view shows a
        rule as its federation's file states it, not with the defaults filled in."""
        name = next(n for n, f in type(self).model_fields.items() if (f.alias or n) == table)
        values = getattr(self, name).model_dump(by_alias=True)
        return {key: values[key] for key in self._written.get(table, ())}

    def endings(self) -> list[str]:
        """The ways a game can end under these rules, in the order of `ENDINGS`."""
        return [ending for ending, rule in ENDINGS.items() if getattr(self.end, rule)]


def tables(model: type[BaseModel]) -> dict[str, type[Section]]:
    """The tables of a ruleset file, by their names in the file, with their models."""
    return {
        field.alias or name: field.annotation
        for name, field in model.model_fields.items()
        if isinstance(field.annotation, type) and issubclass(field.annotation, Section)
    }
