"""What each API route answers, declared once: openapi.json's answer schemas come from here.

Each answer is a `TypedDict` whose keys are the keys the view's dict has, in its order
(`NotRequired`: a key some answers leave out), or, where the game answers with a dataclass as it
is (`Plain`: its fields are the keys), that dataclass itself: one declaration of each shape.
`@operation` names it, a view that builds it is annotated to return it, and `make openapi`
(tools/openapi.py) writes its JSON Schema (pydantic's, of either kind) into
`components/schemas`, with the descriptions from adjudicator/openapi-prose.yaml (`schemas`). A
key no declaration names is refused, and a test validates every route's real answers against
their declarations (adjudicator/tests/test_answers.py), so neither can drift from the other.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from adjudicator.engine.placement import PlacementError
from adjudicator.game.draw import DrawOrder, DrawRound
from adjudicator.game.final import Adjustment, FinalScore, PlayerResult
from adjudicator.game.rules import CONSEQUENCE_KINDS
from adjudicator.problems import Problem as Code

Natural = Annotated[int, Field(ge=0)]
Date = Annotated[str, Field(json_schema_extra={"format": "date"})]
Policy = Literal["play", "word"]
Verdict = Literal["valid", "invalid"]


class Health(TypedDict):
    status: Literal["ok"]


class OpenApiInfo(TypedDict):
    title: str
    description: NotRequired[str]
    version: str


class OpenApiDocument(TypedDict):
    openapi: Annotated[str, Field(pattern=r"^3\.1\.\d+$")]
    info: OpenApiInfo
    servers: NotRequired[list[dict[str, str]]]
    paths: dict[str, dict[str, Any]]
    components: NotRequired[dict[str, dict[str, Any]]]
    tags: NotRequired[list[dict[str, str]]]


class LexiconIdentity(TypedDict):
    id: str
    title: str
    version: str
    sha256: str
    stand_in: bool
    in_force_from: NotRequired[Date]


class LexiconSummary(LexiconIdentity):
    language: str
    license: str
    word_count: int
    needs_blank: int | None
    filters_off: NotRequired[dict[str, str]]


class LexiconList(TypedDict):
    lexicons: list[LexiconSummary]


class LexiconNamed(TypedDict):
    id: str


class RulesetReadiness(TypedDict):
    available: bool
    reason: NotRequired[str]
    lexicon: NotRequired[str]
    sha256: NotRequired[str]


class OnDisk(TypedDict):
    state: Literal["same", "newer_installed", "damaged"]
    sha256: NotRequired[str]
    detail: NotRequired[str]


class FailedLexicon(TypedDict):
    file: str
    reason: str


class Workers(TypedDict):
    abnormal_exits: int
    window_seconds: float
    limit: int


class StoreHealth(TypedDict):
    reachable: bool
    writable: bool
    cause: Literal["audit_log_damaged", "store_full", None]


class Reload(TypedDict):
    time: float
    ok: bool
    error: str | None
    lexicons: dict[str, str]
    failed: dict[str, str]
    seconds: float


class Readiness(TypedDict):
    ready: bool
    partial_allowed: bool
    rulesets: dict[str, RulesetReadiness]
    unavailable_rulesets: list[str]
    lexicons: list[str]
    on_disk: dict[str, OnDisk]
    failed: list[FailedLexicon]
    workers: Workers
    store: StoreHealth
    last_reload: Reload | None


class Ruleset(TypedDict):
    id: str
    name: str
    name_en: str
    language: str
    sources: str
    available: bool
    disclosure: Policy
    lexicon: LexiconSummary | LexiconNamed
    rules: dict[str, dict[str, Any]]
    house: NotRequired[dict[str, Any]]


class RulesetList(TypedDict):
    rulesets: list[Ruleset]


class Consequence(TypedDict):
    kind: Literal[CONSEQUENCE_KINDS]  # type: ignore[valid-type]
    points: int
    text: dict[str, str]


class ChallengedWord(TypedDict):
    input: str
    word: str
    valid: NotRequired[bool]


class Ruling(TypedDict):
    ruling_id: str
    ruleset: str
    policy: Policy
    ruling: Verdict
    words: list[ChallengedWord]
    consequence: Consequence
    lexicon: LexiconIdentity
    if_placed: NotRequired[Consequence | None]
    queries_remaining: NotRequired[Natural | None]


class JuryWordsLeft(TypedDict):
    ruleset: str
    limit: Annotated[int, Field(ge=1)] | None
    queries_remaining: Natural | None


class FormedWord(TypedDict):
    word: str
    display: str
    coordinate: str
    row: int
    col: int
    direction: Literal["across", "down"]
    squares: list[str]
    new: list[bool]
    blanks: list[bool]
    main: bool
    score: int
    valid: NotRequired[bool]


class MoveResult(TypedDict):
    ruling_id: str
    ruleset: str
    policy: Policy
    legal: bool
    errors: list[PlacementError]
    notation: str | None
    words: list[FormedWord]
    bingo: bool
    score: int | None
    ruling: Verdict | None
    lexicon: LexiconIdentity
    queries_remaining: NotRequired[Natural | None]


class ExchangeVerdict(TypedDict):
    ruleset: str
    bag: int
    uses_turn_history: bool
    allowed: bool
    code: Literal[
        "bag_has_enough", "bag_too_small", "opening_turns", "previous_turn_placed_nothing"
    ]
    reason: str
    source: str


class PlayerTotal(TypedDict):
    nick: str
    recorded_total: int
    computed_total: int


class TurnCheck(TypedDict):
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
    clock_reset: Literal[False]
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
    restarts: NotRequired[list[Restart]]
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
    kind: Literal["anonymous", "director", "device", "app"]
    id: Annotated[str, Field(max_length=20)] | None
    name: Annotated[str, Field(max_length=64)]
    rulesets: list[str] | None
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
    seq: Annotated[int, Field(ge=1)]
    ruling_id: str
    created_at: str
    kind: Literal["challenge", "jury", "move", "prune"]
    ruleset: str
    lexicon: RecordedLexicon
    caller: RecordedCaller
    event: str | None
    round: str | None
    table: str | None
    game: str | None
    player: str | None
    words: list[dict[str, Any]]
    verdict: str | None
    consequence: dict[str, Any] | None
    play: str | None
    hash: str
    malformed: list[str]


class ChainHead(TypedDict):
    seq: int
    hash: str


class AuditPage(TypedDict):
    rulings: list[AuditEntry]
    next_before: int | None
    head: ChainHead


class Problem(TypedDict):
    type: Annotated[str, Field(json_schema_extra={"format": "uri"})]
    title: str
    status: int
    detail: str
    code: Literal[tuple(sorted(c.value for c in Code))]  # type: ignore[valid-type]
    field: NotRequired[str]
    queries_remaining: NotRequired[Natural]
    attempts_remaining: NotRequired[Natural]
    character: NotRequired[Annotated[str, Field(pattern=r"^U\+[0-9A-F]{4,6}$")]]
    character_name: NotRequired[str]
    cause: NotRequired[Literal["audit_log_damaged", "store_full"]]


# Every answer and part, by the name the document gives it; each refuses a key it does not name.
# Those the game answers as they are (`Plain`) are declared by its dataclasses' fields.
ANSWERS: dict[str, type] = {
    name: kind
    for name, kind in list(globals().items())
    if isinstance(kind, type) and issubclass(kind, dict) and kind.__module__ == __name__
} | {
    kind.__name__: kind
    for kind in (PlacementError, Adjustment, PlayerResult, FinalScore, DrawRound, DrawOrder)
}
for _kind in ANSWERS.values():
    _kind.__pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[attr-defined]
