"""What each API route answers, declared once: openapi.json's answer schemas come from here.

Each answer is a `TypedDict` whose keys are the keys the view's dict has, in its order; a view
is annotated to return it, `@operation` names it, `make openapi` (tools/openapi.py) writes its
JSON Schema into `components/schemas` (`NotRequired`: a key some answers leave out), and a test
sends every route its requests and validates each real answer against its declaration with
extra keys refused (adjudicator/tests/test_answers.py), so neither can drift from the other.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from adjudicator.engine.placement import ERROR_CODES
from adjudicator.game.rules import CONSEQUENCE_KINDS, DRAW_BLANKS, DRAW_NEAREST
from adjudicator.problems import Problem as Code


def said(text: str, **bounds: Any) -> Any:
    """A key's description (and bounds) in its schema."""
    return Field(description=text, **bounds)


Natural = Annotated[int, Field(ge=0)]
Policy = Literal["play", "word"]
Verdict = Literal["valid", "invalid"]
_JURY = 'Jury mode only (`challenge.mode = "jury"`, e.g. sbnl-punten): '
_IN_FORCE = (
    "The date this edition of the list is in force from, on the event's clock; absent: in "
    "force since always."
)
Date = Annotated[str, Field(description=_IN_FORCE, json_schema_extra={"format": "date"})]


class Health(TypedDict):
    status: Literal["ok"]


class LexiconSummary(TypedDict):
    id: str
    title: str
    version: str
    sha256: str
    stand_in: Annotated[bool, said("An open stand-in list, not the federation's official one")]
    in_force_from: NotRequired[Date]
    language: str
    license: str
    word_count: int
    needs_blank: int | None
    filters_off: NotRequired[
        Annotated[
            dict[str, str],
            said(
                "A house build only: each compiler filter it turned off, with why (e.g. "
                "`capitalised`: proper names kept, 004 Almindelige varianter); absent for a "
                "tournament list"
            ),
        ]
    ]


class LexiconList(TypedDict):
    lexicons: list[LexiconSummary]


class LexiconIdentity(TypedDict):
    id: str
    title: str
    version: str
    sha256: str
    stand_in: bool
    in_force_from: NotRequired[Date]


class LexiconNamed(TypedDict):
    """A ruleset's lexicon that is not loaded: its id alone."""

    id: str


class RulesetReadiness(TypedDict):
    available: bool
    reason: NotRequired[Annotated[str, said("why it cannot serve")]]
    lexicon: NotRequired[str]
    sha256: NotRequired[Annotated[str, said("the build serving it")]]


class OnDisk(TypedDict):
    state: Literal["same", "newer_installed", "damaged"]
    sha256: NotRequired[Annotated[str, said("the installed build, when newer")]]
    detail: NotRequired[Annotated[str, said("what is wrong, when damaged")]]


class FailedLexicon(TypedDict):
    file: str
    reason: str


class Workers(TypedDict):
    abnormal_exits: int
    window_seconds: float
    limit: int


class StoreHealth(TypedDict):
    """Whether the store (audit log, counts, accounts) answers a query, and takes rulings;
    without either nothing is ruled (503 store_unavailable, or 503 store_refuses_writes)."""

    reachable: bool
    writable: Annotated[
        bool,
        said(
            "the store takes rulings: the audit log's triggers are in place, its head names its "
            "last entry, and the database has room (no refusal met while recording in the last "
            "minute)"
        ),
    ]
    cause: Annotated[
        Literal["audit_log_damaged", "store_full", None],
        said(
            "why the store refuses rulings (null when it takes them, or is unreachable); the "
            "detail is in the service's log"
        ),
    ]


class Reload(TypedDict):
    """The last SIGHUP reload."""

    time: float
    ok: bool
    error: str | None
    lexicons: Annotated[dict[str, str], said("id → sha256")]
    failed: Annotated[dict[str, str], said("file → why it was not loaded")]
    seconds: float


class Readiness(TypedDict):
    ready: bool
    partial_allowed: bool
    rulesets: Annotated[
        dict[str, RulesetReadiness],
        said("each required ruleset (ADJUDICATOR_RULESETS, default all)"),
    ]
    unavailable_rulesets: list[str]
    lexicons: list[str]
    on_disk: Annotated[
        dict[str, OnDisk], said("per loaded lexicon: whether its files still hold the served build")
    ]
    failed: list[FailedLexicon]
    workers: Workers
    store: StoreHealth
    last_reload: Reload | None


class Ruleset(TypedDict):
    id: str
    name: Annotated[str, said("In the federation's language")]
    name_en: str
    language: str
    sources: str
    available: bool
    disclosure: Policy
    lexicon: Annotated[
        LexiconSummary | LexiconNamed, said("The lexicon's summary when loaded, else its id")
    ]
    rules: Annotated[
        dict[str, dict[str, Any]],
        said(
            "Every rule table as the ruleset file writes it: challenge, exchange, pass, end, "
            "final, clock, draw, overdraw, restart and card (the two-letter card, 003)"
        ),
    ]
    house: NotRequired[
        Annotated[
            dict[str, Any],
            said(
                "A house variant only (004 Almindelige varianter): its `[house]` table as "
                "written, `source` and `variant_of` (the ruleset whose rules it plays); never "
                "served in tournament mode (403 `house_ruleset`)"
            ),
        ]
    ]


class RulesetList(TypedDict):
    rulesets: list[Ruleset]


class Consequence(TypedDict):
    kind: Literal[CONSEQUENCE_KINDS]  # type: ignore[valid-type]
    points: int
    text: Annotated[dict[str, str], said("One line in the ruleset's language and in English")]


class ChallengedWord(TypedDict):
    input: str
    word: Annotated[str, said("The normalised word")]
    valid: NotRequired[Annotated[bool, said("Only under the word policy")]]


_REMAINING = (
    "how many more words this player may put to the jury in this game (the ruleset's "
    "`jury_submissions_per_player`, counted in words); null when the query was not counted (it "
    "named no game and player in open mode, or the limit does not apply at this event)."
)


class Ruling(TypedDict):
    ruling_id: Annotated[
        str, said("Random; the audit log's key for this ruling (a dispute names it)")
    ]
    ruleset: str
    policy: Policy
    ruling: Verdict
    words: list[ChallengedWord]
    consequence: Consequence
    lexicon: LexiconIdentity
    if_placed: NotRequired[
        Annotated[
            Consequence | None,
            said(
                _JURY + "a query comes before the word is placed and costs nothing, so "
                "`consequence` is `none`; for a rejected word this is what placing it all the "
                "same would cost (003 Strafpuntenregel: the turn's points and 20 more), null "
                "when the words are accepted. Absent outside jury mode."
            ),
        ]
    ]
    queries_remaining: NotRequired[Annotated[Natural | None, said(_JURY + _REMAINING)]]


class JuryWordsLeft(TypedDict):
    ruleset: str
    limit: Annotated[
        Annotated[int, Field(ge=1)] | None,
        said(
            "The words a player may put to the jury in a game here; null where this event counts none"
        ),
    ]
    queries_remaining: Annotated[
        Natural | None,
        said(
            "The words this player may still put to the jury in this game; null where the "
            "query would not be counted"
        ),
    ]


class PlacementError(TypedDict):
    code: Literal[ERROR_CODES]  # type: ignore[valid-type]
    message: str
    square: str | None
    letter: str | None


class FormedWord(TypedDict):
    word: str
    display: Annotated[str, said("Blanks in lower case")]
    coordinate: str
    row: int
    col: int
    direction: Literal["across", "down"]
    squares: list[str]
    new: list[bool]
    blanks: list[bool]
    main: bool
    score: int
    valid: NotRequired[Annotated[bool, said("Only under the word policy")]]


class MoveResult(TypedDict):
    ruling_id: str
    ruleset: str
    policy: Policy
    legal: bool
    errors: list[PlacementError]
    notation: Annotated[str | None, said("The play in standard notation")]
    words: Annotated[
        list[FormedWord],
        said("The words the play forms, main word first; empty when the play is illegal"),
    ]
    bingo: bool
    score: Annotated[int | None, said("The play's score; null when the play is illegal")]
    ruling: Annotated[
        Verdict | None,
        said(
            "All formed words valid or not; null when the play is illegal (see errors) or "
            "formed no word"
        ),
    ]
    lexicon: LexiconIdentity
    queries_remaining: NotRequired[
        Annotated[
            Natural | None,
            said(
                _JURY + "a validated play is a query to the jury, and the words it forms count as "
                "a challenge's words do; how many more words this player may put to the jury in "
                "this game; null when the query was not counted. Absent under other rulesets."
            ),
        ]
    ]


class ExchangeVerdict(TypedDict):
    ruleset: str
    bag: int
    uses_turn_history: Annotated[
        bool, said("Whether this ruleset's answer depends on turn and previous_placed")
    ]
    allowed: bool
    code: Literal[
        "bag_has_enough", "bag_too_small", "opening_turns", "previous_turn_placed_nothing"
    ]
    reason: str
    source: Annotated[
        str,
        said(
            "The federation document and section the rule follows, e.g. 000 §4.7b (DSF 2015 "
            "§4.7b; docs/rules.md §1 lists the documents by number)"
        ),
    ]


class Adjustment(TypedDict):
    kind: Literal["rack", "out_bonus", "overtime", "time_loss_spread"]
    points: int
    reason: str
    source: str


class PlayerResult(TypedDict):
    name: str
    score_before: int
    rack: str
    rack_value: int
    adjustments: list[Adjustment]
    final_score: int
    lost_on_time: bool
    result: Literal["win", "tie", "loss"]


class FinalScore(TypedDict):
    ruleset: str
    ending: str
    ending_text: str
    went_out: str | None
    players: list[PlayerResult]
    final_scores: dict[str, int]
    winner: Annotated[str | None, said("null on a tie")]
    winners: list[str]
    tie: bool


class DrawRound(TypedDict):
    draws: dict[str, str]
    again: NotRequired[list[str]]
    why: str


class DrawOrder(TypedDict):
    ruleset: str
    decided: bool
    starts: Annotated[
        str | None,
        said("Who starts; null under a ruleset where the winner chooses, or while undecided"),
    ]
    chooses: Annotated[
        str | None, said("ssf-1999: the winner of the draw, who chooses one of `choices`")
    ]
    choices: list[Literal["start", "board_orientation"]]
    next_draw: Annotated[list[str], said("Who draws next while the draw is not settled")]
    rounds: list[DrawRound]
    settled_by: Annotated[
        Literal["tiles", "given"],
        said(
            "`tiles`: settled by the tiles drawn; `given`: the request gave the winner of the "
            "players' own draw (ssf-1999, 002)"
        ),
    ]
    nearest: Annotated[
        Literal[DRAW_NEAREST],  # type: ignore[valid-type]
        said("The end of the alphabet that won the draw: `start` (nearest A) or `end`"),
    ]
    blank: Literal[DRAW_BLANKS]  # type: ignore[valid-type]
    tiles_go_back: bool
    source: Annotated[str, said("The section of the federation document the draw follows")]


class PlayerTotal(TypedDict):
    nick: str
    recorded_total: int
    computed_total: int


class TurnCheck(TypedDict):
    """The engine's score check (score_ok, total_ok, errors), the rules check (bag,
    scoreless_in_a_row, rule_ok, deviations, placement_errors, rule_notes: every placement error
    the engine finds, as moves/validate names them, is a rule deviation, listed first in
    `deviations` as `code: message` and in `placement_errors` with its code, square and letter)
    and the lexicon ruling of one line, through the disclosure gate: `ruling` (valid, invalid,
    or null when the line formed no word or the play cannot be made: a play with a placement
    error is not ruled on) under every policy; `not_in_lexicon` (the words the lexicon lacks)
    only under the `word` policy; both null for every line when no lexicon was consulted
    (`lexicon` null: a device or key in tournament mode)"""

    line: int
    player: str
    kind: str
    move: str
    notation: str | None
    recorded_score: int
    computed_score: int
    recorded_total: int
    computed_total: int
    ok: bool
    score_ok: bool
    total_ok: bool
    words: list[str]
    errors: list[str]
    info: list[str]
    bag: int
    scoreless_in_a_row: int
    rule_ok: bool
    deviations: list[str]
    placement_errors: list[PlacementError]
    rule_notes: list[str]
    ruling: Verdict | None
    not_in_lexicon: NotRequired[list[str] | None]


class RecordChallenge(TypedDict):
    """A challenge ruling read from the record."""

    line: int
    points: int
    player: NotRequired[str]
    challenger: NotRequired[str]
    valid: NotRequired[bool]
    consequence: NotRequired[Literal[CONSEQUENCE_KINDS]]  # type: ignore[valid-type]


class Restart(TypedDict):
    line: int
    jury: str | None
    allowed: bool
    code: str
    turns_voided: int
    clock_reset: Annotated[
        bool, said("Always false: a restart never gives back time already used (003)")
    ]
    seconds_used: int | None


class GameResult(TypedDict):
    ended: bool
    ending: str | None
    ending_text: str | None
    went_out: str | None
    final_scores: dict[str, int]
    winner: str | None
    winners: list[str]
    tie: bool
    leader: str | None
    lost_on_time: list[str]
    deviations: list[str]


class GameReport(TypedDict):
    ruleset: str
    file: str
    language: str
    lexicon: str | None
    ok: bool
    score_disagreements: int
    rule_deviations: int
    players: list[PlayerTotal]
    turns: list[TurnCheck]
    challenges: list[RecordChallenge]
    restarts: NotRequired[
        Annotated[
            list[Restart],
            said(
                "Only when the record states one: the restarts it states with a `restart; jury: "
                "NAME` note (SBNL 003 Verloop van het spel): the line, the jury named, whether "
                "the ruleset allows it there, the turns it takes out of the score; the clock is "
                "never reset"
            ),
        ]
    ]
    result: GameResult
    board: list[str]


class UnlockedRuleset(TypedDict):
    id: str
    name: str
    language: str


class Unlocked(TypedDict):
    unlocked: Literal[True]
    rulesets: list[UnlockedRuleset]


class Caller(TypedDict):
    """Who is asking, as the audit log records it"""

    kind: Literal["anonymous", "director", "device", "app"]
    id: Annotated[
        str | None,
        said("The director's, device's or key's id; null when anonymous", max_length=20),
    ]
    name: Annotated[
        str,
        said("The director's name, the tablet's name (\"Table 12\") or the key's", max_length=64),
    ]
    rulesets: Annotated[
        list[str] | None, said("The rulesets the credential may rule under; null: all")
    ]
    mode: Literal["open", "tournament"]


class RecordedLexicon(TypedDict):
    id: str
    sha256: str
    version: str | None
    in_force_from: str | None


class RecordedCaller(TypedDict):
    kind: str
    id: str
    name: str


class AuditEntry(TypedDict):
    """One ruling as recorded before it was answered"""

    seq: Annotated[int, Field(ge=1)]
    ruling_id: str
    created_at: Annotated[str, said("UTC, YYYY-MM-DDTHH:MM:SS.ffffffZ")]
    kind: Annotated[
        Literal["challenge", "jury", "move", "prune"],
        said(
            "What was ruled; `prune`: an `adjudicator audit prune`, recorded in the chain (its "
            "`consequence.pruned`: before, entries, first_seq, last_seq, last_hash)"
        ),
    ]
    ruleset: str
    lexicon: RecordedLexicon
    caller: RecordedCaller
    event: str | None
    round: str | None
    table: str | None
    game: str | None
    player: str | None
    words: Annotated[
        list[
            Annotated[
                dict[str, Any],
                said(
                    "A word as the ruling's answer listed it: a challenge's (`ChallengedWord`) "
                    "or a move's (`FormedWord`)"
                ),
            ]
        ],
        said("The words as the answer listed them"),
    ]
    verdict: str | None
    consequence: dict[str, Any] | None
    play: str | None
    hash: str
    malformed: Annotated[
        list[str],
        said(
            "Empty for an entry the service wrote. Otherwise why this row is not what the "
            "service writes (a value of the wrong kind, words or a consequence of the wrong "
            "shape: written around the service): the row is listed as stored, and `adjudicator "
            "audit verify` names it too"
        ),
    ]


class ChainHead(TypedDict):
    """The chain head: the newest entry's seq and hash"""

    seq: int
    hash: str


class AuditPage(TypedDict):
    rulings: list[AuditEntry]
    next_before: Annotated[
        int | None, said("Pass as `before` for the next (older) page; null on the last")
    ]
    head: ChainHead


class Problem(TypedDict):
    """An RFC 9457 problem document (`application/problem+json`) with two extension members:
    `code`, the machine-readable reason, and `field`, the request field at fault (and, for
    `jury_limit_reached`, `queries_remaining`; for `wrong_pin`, `attempts_remaining`; for
    `label_disallowed_character`, `character` and `character_name`)."""

    type: Annotated[
        str,
        said(
            "The problem type: a tag URI ending in the code, e.g. "
            "tag:scrabble-adjudicator,2026:problem:word_count",
            json_schema_extra={"format": "uri"},
        ),
    ]
    title: Annotated[str, said("The HTTP status phrase, e.g. Bad Request")]
    status: Annotated[int, said("The HTTP status code, repeated")]
    detail: Annotated[str, said("What is wrong with this request, in English")]
    code: Annotated[
        Literal[tuple(sorted(c.value for c in Code))],  # type: ignore[valid-type]
        said("Machine-readable reason"),
    ]
    field: NotRequired[
        Annotated[
            str, said("The request field at fault, e.g. words[2], play.tiles[0], players[1].rack")
        ]
    ]
    queries_remaining: NotRequired[
        Annotated[
            Natural,
            said(
                "`jury_limit_reached` only: how many words this player may still put to the jury "
                "in this game"
            ),
        ]
    ]
    attempts_remaining: NotRequired[
        Annotated[
            Natural,
            said("`wrong_pin` only: how many more PINs this tablet may try before it must wait"),
        ]
    ]
    character: NotRequired[
        Annotated[
            str,
            said(
                "`label_disallowed_character` only: the code point refused, e.g. U+FE0F",
                pattern=r"^U\+[0-9A-F]{4,6}$",
            ),
        ]
    ]
    character_name: NotRequired[
        Annotated[
            str,
            said("`label_disallowed_character` only: its Unicode name, e.g. VARIATION SELECTOR-16"),
        ]
    ]
    cause: NotRequired[
        Annotated[
            Literal["audit_log_damaged", "store_full"],
            said(
                "For `store_refuses_writes`: why the store refuses to record rulings (readyz "
                "says the same)"
            ),
        ]
    ]


# Every answer, by the name the document gives it; no key outside its declaration is allowed.
ANSWERS: dict[str, type] = {
    name: kind
    for name, kind in list(globals().items())
    if isinstance(kind, type) and issubclass(kind, dict) and kind.__module__ == __name__
}
for _kind in ANSWERS.values():
    _kind.__pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[attr-defined]
