"""What each API route takes and answers, declared on its view: openapi.json's paths come from it.

`@operation(...)` only marks a view, as the access markers do (`adjudicator.web.access`); the
view's body reads its input as before. `tools/openapi.py` walks the app's URL map, reads each
route's declaration, its path variables and its access marker (which gives `security`), and
writes the operation; the prose and examples are merged in by operation id from
`adjudicator/openapi-prose.yaml`. A route under /api/ without a declaration fails the generator
and a test, so the document cannot miss one. A JSON answer is named by its declaration in
`adjudicator.web.answers` (a `TypedDict`, or the game's dataclass), which gives its schema.

A route's error answers are the problem codes it can answer with (`adjudicator.problems`): the
status each is answered with (its usual one unless named) is a documented response, with the
headers the code comes with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from adjudicator.problems import Problem
from adjudicator.store.models import IDEMPOTENCY_KEY_MAX
from adjudicator.web.answers import ANSWERS

OPERATION = "adjudicator_operation"
JSON = "application/json"

Schema = Mapping[str, Any]

V = TypeVar("V", bound=Callable)


@dataclass(frozen=True)
class Query:
    """A query parameter: its name, its JSON Schema and whether it must be given."""

    name: str
    schema: Schema
    required: bool = False


@dataclass(frozen=True)
class Answer:
    """A successful (or non-problem) answer: its declaration (`adjudicator.web.answers`), or
    the schema of one that is not JSON (a picture)."""

    schema: type | str | Schema
    media_type: str = JSON
    headers: Mapping[str, Schema] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """A name is resolved to its declaration (a name declared nowhere is an error)."""
        if isinstance(self.schema, str):
            if self.schema not in ANSWERS:
                raise ValueError(
                    f"no answer {self.schema!r} is declared in adjudicator.web.answers"
                )
            object.__setattr__(self, "schema", ANSWERS[self.schema])


@dataclass(frozen=True)
class Operation:
    """One route's contract, and the mark that declares it on its view (`@operation(...)`).
    `ok` is its 200 answer (an answer's declaration or its name in `adjudicator.web.answers`),
    `also` any other non-problem one; `answers` are both, by status, each name resolved.
    `query` is a tuple of `Query` or a pydantic model whose fields are the parameters; `body` a
    request model (or a component's name); `problems` every problem code the route answers with.
    `credentials`: a public route that still reads a credential when one comes (whoami).
    A problem is answered with its usual status; `(problem, status)` names another of its
    statuses (the game rules' refusals are 422 where a view's own check is 400)."""

    id: str
    tag: str
    ok: Answer | str | type | Schema
    problems: tuple[Problem | tuple[Problem, int], ...] = ()
    query: tuple[Query, ...] | type[BaseModel] = ()
    body: type[BaseModel] | str | None = None
    idempotent: bool = False
    credentials: bool = False
    also: Mapping[int, Answer] = field(default_factory=dict)
    answers: Mapping[int, Answer] = field(init=False)

    def __post_init__(self) -> None:
        given = {200: self.ok, **self.also}
        answers = {s: a if isinstance(a, Answer) else Answer(a) for s, a in given.items()}
        object.__setattr__(self, "answers", answers)
        object.__setattr__(self, "problems", tuple(dict.fromkeys(self.problems)))

    def __call__(self, view: V) -> V:
        setattr(view, OPERATION, self)
        return view

    def problem_statuses(self) -> dict[int, tuple[Problem, ...]]:
        """The problem codes by the status each is answered with, in status order."""
        by_status: dict[int, list[Problem]] = {}
        for entry in self.problems:
            problem, status = entry if isinstance(entry, tuple) else (entry, entry.status)
            if status not in problem.statuses:
                raise ValueError(f"{self.id}: {problem.value} is never answered with {status}")
            by_status.setdefault(status, []).append(problem)
        return {status: tuple(by_status[status]) for status in sorted(by_status)}


operation = Operation  # as the views write it: `@operation(id, tag, ok, ...)`


def operation_of(view: Callable) -> Operation | None:
    return getattr(view, OPERATION, None)


# --- what several routes share ------------------------------------------------------------------

# Any route under /rulesets/<ruleset_id>: no such ruleset, or a house variant in tournament
# mode (004), as `catalogue.ruleset_or_404` refuses them.
RULESET = (Problem.UNKNOWN_RULESET, Problem.HOUSE_RULESET)
# A JSON body read by `requests.json_body` and checked by its model; any body past the
# endpoint's (or the app's) size limit is refused before it is read.
JSON_BODY = (
    Problem.BODY_TOO_LARGE,
    Problem.NOT_JSON,
    Problem.INVALID_JSON,
    Problem.DUPLICATE_KEY,
    Problem.TOO_DEEP,
    Problem.WRONG_SHAPE,
    Problem.UNKNOWN_FIELD,
    Problem.MISSING_FIELD,
)
# A credential where tournament mode asks one, for a ruleset's route (`auth.guard`); a request
# that changes state with a cookie also needs `X-Requested-With` (CSRF_HEADER_MISSING).
CREDENTIALS = (
    Problem.CREDENTIAL_REQUIRED,
    Problem.CREDENTIAL_INVALID,
    Problem.BAD_AUTHORIZATION,
    Problem.OUT_OF_SCOPE,
)
# A challenged word that is no word form (`adjudicator.wordforms`): the codes of the enum's
# words section (`WORD_...`), and a text longer than its bound.
WORD_FORMS = (*(p for p in Problem if p.name.startswith("WORD_")), Problem.TOO_LONG)
# The labels a query or a count is kept by (`Label`): the `LABEL_...` codes.
LABELS = tuple(p for p in Problem if p.name.startswith("LABEL_"))
# A game record read and replayed (games/verify, games/board): its bounds, its rules, the time
# a worker may spend on records, and where tournament mode keeps the count.
RECORD = (
    Problem.OUT_OF_RANGE,
    Problem.TOO_LONG,
    Problem.TOO_MANY_TURNS,
    Problem.TOO_MANY_TILES,
    (Problem.TOO_MANY_TILES, 422),
    *RULESET,
    Problem.BAD_RECORD,
    Problem.PLAYER_COUNT,
    Problem.DUPLICATE_PLAYER,
    Problem.UNKNOWN_PLAYER,
    Problem.REPORT_TOO_LARGE,
    Problem.BAD_RACK,
    Problem.UNKNOWN_LETTER,
    Problem.INCONSISTENT_INPUT,
    Problem.RATE_LIMITED,
    Problem.VERIFY_BUSY,
    Problem.STORE_UNAVAILABLE,
)
# What the ruling step (`api/ruling.py`) may answer for any recorded ruling, before and after
# its view rules: the body, the labels, who asks, the ruleset, the jury's limit, a retry, the
# rate count and the store the ruling is recorded in.
RULING = (
    *JSON_BODY,
    *LABELS,
    Problem.OUT_OF_RANGE,  # a ruling naming another event than the service's (`under_event`)
    *CREDENTIALS,
    Problem.CSRF_HEADER_MISSING,
    *RULESET,
    Problem.JURY_LIMIT_REACHED,
    Problem.BAD_IDEMPOTENCY_KEY,
    Problem.IDEMPOTENCY_KEY_REUSED,
    Problem.RATE_LIMITED,
    Problem.RULESET_UNAVAILABLE,
    Problem.STORE_UNAVAILABLE,
    Problem.STORE_REFUSES_WRITES,
)
# A query read by `requests.query_args`.
QUERY = (Problem.UNKNOWN_PARAMETER, Problem.REPEATED_PARAMETER, Problem.NOT_PRINTABLE)

IDEMPOTENCY_KEY = {"type": "string", "minLength": 1, "maxLength": IDEMPOTENCY_KEY_MAX}
IDEMPOTENT_REPLAYED = {"type": "string", "enum": ["true"]}
_SECONDS = {"type": "integer"}
_SECONDS_OF_A_MINUTE = {"type": "integer", "minimum": 1, "maximum": 60}

# The headers a problem is answered with: the guard's Bearer challenge where it refuses a
# malformed `Authorization` (so on the routes that read a Bearer token), and when to retry.
PROBLEM_HEADERS: Mapping[Problem, Mapping[str, Schema]] = {
    Problem.BAD_AUTHORIZATION: {"WWW-Authenticate": {"type": "string"}},
    Problem.RATE_LIMITED: {"Retry-After": _SECONDS_OF_A_MINUTE},
    Problem.VERIFY_BUSY: {"Retry-After": _SECONDS_OF_A_MINUTE},
    Problem.TOO_MANY_ATTEMPTS: {"Retry-After": _SECONDS},
    Problem.STORE_UNAVAILABLE: {"Retry-After": _SECONDS},
    Problem.STORE_REFUSES_WRITES: {"Retry-After": _SECONDS},
}
