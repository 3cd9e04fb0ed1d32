"""Every problem code the service can answer with, declared once.

A code is what a client branches on (the `code` member of an RFC 9457 problem), so it is part of
the contract: `ApiError` takes only a member of `Problem`, so a misspelt code fails where it is
raised, in every test that reaches it, instead of shipping. The OpenAPI document's `Problem.code`
enum, the docs' problem-codes reference and the codes the kiosk's JavaScript branches on are all
read from here (tests keep each equal to it).

Each member carries its usual HTTP status, which `ApiError` uses when no status is given, the
other statuses it is answered with somewhere (the game rules' refusals are 422 where a view's
own check of the same kind is a 400), and a one-line meaning for the reference. This module
imports nothing of the service, so every layer raises with it: the domain its own subclass of
`DomainError`, which the web layer answers as a problem document; the views `ApiError`.
"""

from __future__ import annotations

from enum import StrEnum, auto

# RFC 4151 tag URI; a problem's `type` is this followed by its code (RFC 9457 §3.1.1).
PROBLEM_TYPE_PREFIX = "tag:scrabble-adjudicator,2026:problem:"
PROBLEM_MIMETYPE = "application/problem+json"  # RFC 9457 §3


class Problem(StrEnum):
    """A problem code: the member's value is the code clients see, its name in lower case
    (`auto()`), so that a member and its code cannot be spelt apart."""

    status: int | None  # None: the status is the one the error arrived with (given where raised)
    statuses: tuple[int, ...]  # every status it is answered with, the usual one first
    meaning: str

    def __new__(cls, code: str, status: int | None, meaning: str, also: tuple[int, ...] = ()):
        member = str.__new__(cls, code)
        member._value_ = code
        member.status = status
        member.statuses = (() if status is None else (status,)) + also
        member.meaning = meaning
        return member

    # --- the request as HTTP: read by nginx, Werkzeug or gunicorn, before any view -------------
    BAD_REQUEST = auto(), 400, "the request could not be read (e.g. a malformed chunked body)"
    NOT_FOUND = auto(), 404, "nothing is served at this path"
    METHOD_NOT_ALLOWED = auto(), 405, "the path does not take this method; see Allow"
    BODY_TOO_LARGE = auto(), 413, "the request body is larger than this endpoint takes"
    UNSUPPORTED_MEDIA_TYPE = auto(), 415, "the body's media type is not taken"
    RANGE_NOT_SATISFIABLE = auto(), 416, "a Range header asks for bytes a file lacks"
    HTTP_ERROR = auto(), None, "any other HTTP error, at the status it came with"
    INTERNAL_ERROR = auto(), 500, "the service failed; the error is logged, not shown"
    REQUEST_LINE_TOO_LONG = auto(), 414, "the request line is over the limit"
    HEADERS_TOO_LARGE = auto(), 431, "too many request headers, or one too large"
    MALFORMED_REQUEST_LINE = auto(), 400, "the method, target or version is bad"
    MALFORMED_HEADER = auto(), 400, "a request header is malformed or folded"
    UNSUPPORTED_TRANSFER_CODING = auto(), 501, "the request's Transfer-Encoding is not supported"
    EXPECTATION_FAILED = auto(), 417, "the Expect header asks for what is not done"
    NOT_ACCEPTABLE = auto(), 406, "the Accept header excludes the only form of the answer"
    # nginx's own refusals in front of the service (deploy/nginx_conf.py), worded as ours
    TOO_MANY_REQUESTS = auto(), 429, "nginx: too many requests from this address"
    SERVICE_UNAVAILABLE = auto(), 503, "nginx: no service instance answered"
    REQUEST_TIMEOUT = auto(), 408, "nginx: the request was not received in time"

    # --- the body and the query ---------------------------------------------------------------
    NOT_JSON = auto(), 415, "the body is not sent as application/json"
    INVALID_JSON = auto(), 400, "the body (or an uploaded record) is not valid JSON"
    WRONG_SHAPE = auto(), 400, "a value has the wrong JSON type or structure", (422,)
    DUPLICATE_KEY = auto(), 400, "a JSON object gives the same key twice"
    TOO_DEEP = auto(), 400, "the body nests objects and lists too deeply"
    UNKNOWN_FIELD = auto(), 400, "the body has a field this endpoint does not take"
    MISSING_FIELD = auto(), 400, "a field this request needs is missing", (422,)
    TOO_LONG = auto(), 400, "a text field is longer than its bound"
    OUT_OF_RANGE = auto(), 400, "a number or a choice is outside what is allowed", (422,)
    UNKNOWN_PARAMETER = auto(), 400, "the query has a parameter this path does not take"
    REPEATED_PARAMETER = auto(), 400, "a query parameter is given more than once"
    MISSING_PARAMETER = auto(), 400, "a query parameter this request needs is missing"
    NOT_PRINTABLE = auto(), 400, "a query parameter has a control character"
    NOT_A_NUMBER = auto(), 400, "a query parameter must be a whole number"
    NOT_A_BOOLEAN = auto(), 400, "a query parameter must be true or false"
    BAD_IDEMPOTENCY_KEY = auto(), 400, "the Idempotency-Key header is malformed"
    IDEMPOTENCY_KEY_REUSED = auto(), 422, "this Idempotency-Key was used for a different request"

    # --- words ----------------------------------------------------------------------------------
    WORD_COUNT = auto(), 400, "too few or too many words in one challenge"
    WORD_NOT_STRING = auto(), 400, "a word is not a string"
    WORD_EMPTY = auto(), 400, "a word is empty"
    WORD_HAS_SPACE = auto(), 400, "a word contains a space"
    WORD_HAS_CONTROL_CHARACTER = auto(), 400, "a word contains a control character"
    WORD_HAS_DIGIT = auto(), 400, "a word contains a digit"
    WORD_HAS_HYPHEN = auto(), 400, "a word contains a hyphen"
    WORD_HAS_NON_LETTER = auto(), 400, "a word contains a character not a letter"
    WORD_HAS_FOREIGN_LETTER = auto(), 400, "a word has a letter the language's tiles cannot spell"
    WORD_TOO_SHORT = auto(), 400, "a word has fewer than 2 letters"
    WORD_TOO_LONG = auto(), 400, "a word has more than 15 letters"
    WORD_INVALID_FORM = auto(), 400, "a word is not a form the lexicon can hold"

    # --- boards, plays and game records ---------------------------------------------------------
    BAD_BOARD = auto(), 400, "the board is not 15 rows of the set's letters"
    BAD_NOTATION = auto(), 400, "a play is not in the notation '8H WORD'"
    ILLEGAL_EARLIER_PLAY = auto(), 400, "an earlier play in the history is illegal"
    TOO_MANY_PLAYS = auto(), 400, "the history has more plays than allowed"
    TOO_MANY_TILES = auto(), 400, "more tiles than a play or the set can have", (422,)
    TOO_MANY_TURNS = auto(), 400, "the record has more turns than allowed"
    BAD_RECORD = auto(), 422, "the game record cannot be read or has no moves"
    REPORT_TOO_LARGE = auto(), 422, "the record's report would be too large"
    BAD_RACK = auto(), 422, "a rack cannot be true under the tile set"
    UNKNOWN_LETTER = auto(), 422, "a letter is not a tile of the set"
    INCONSISTENT_INPUT = auto(), 422, "well-formed input that cannot be true under the ruleset"
    PLAYER_COUNT = auto(), 422, "the ruleset is not played by this many players"
    DUPLICATE_PLAYER = auto(), 422, "two players have the same name"
    UNKNOWN_PLAYER = auto(), 422, "a name is not one of the players'"
    UNKNOWN_ENDING = auto(), 422, "the ruleset has no such way for a game to end"
    NO_OVERTIME = auto(), 422, "the ruleset has no overtime to score"

    # --- rulesets, labels and the service's own state -----------------------------------------
    UNKNOWN_RULESET = auto(), 404, "no ruleset has this id"
    RULESET_UNAVAILABLE = (
        auto(),
        503,
        "the ruleset's lexicon is not loaded, or is a house build only a house variant may use",
    )
    HOUSE_RULESET = (
        auto(),
        403,
        "the ruleset is a house variant (004), which a tournament never serves",
    )
    STORE_UNAVAILABLE = auto(), 503, "the store cannot record a ruling right now"
    STORE_REFUSES_WRITES = (
        auto(),
        503,
        "the store refuses to record rulings (its audit log is damaged, or it is full): an"
        " operator must act; `cause` and readyz say which",
    )
    LABEL_LENGTH = auto(), 400, "a player or game label is empty or too long"
    LABEL_DISALLOWED_CHARACTER = (
        auto(),
        400,
        "a label has a character its PRECIS profile disallows (named, e.g. U+FE0F VARIATION"
        " SELECTOR-16): default-ignorable, control, Hangul filler, or a symbol in an identifier",
    )
    LABEL_MIXED_SCRIPTS = auto(), 400, "a label mixes scripts (a look-alike)"
    JURY_LIMIT_REACHED = (
        auto(),
        409,
        "the player has put all the words allowed to the jury in this game",
    )
    RATE_LIMITED = auto(), 429, "too many rulings in 60 s for this caller; see Retry-After"
    VERIFY_BUSY = auto(), 429, "this worker's time for records is spent; see Retry-After"

    # --- credentials, the judge PIN and the operators' pages ----------------------------------
    BAD_AUTHORIZATION = auto(), 401, "the Authorization header is not a Bearer token"
    CREDENTIAL_INVALID = auto(), 401, "the key, token or session is unknown or ended"
    CREDENTIAL_REQUIRED = auto(), 401, "tournament mode needs a credential for this"
    DIRECTOR_REQUIRED = auto(), 401, "this needs a director's session"
    OUT_OF_SCOPE = auto(), 403, "the credential is not for this ruleset"
    CSRF_HEADER_MISSING = auto(), 403, "a cookie-authenticated call lacks the header"
    CSRF_FAILED = auto(), 403, "the form is stale or was not sent by this site"
    PIN_NOT_SET = auto(), 403, "no judge PIN is configured"
    WRONG_PIN = auto(), 403, "the judge PIN is wrong"
    TOO_MANY_ATTEMPTS = auto(), 429, "too many wrong PINs on this tablet; wait"
    METRICS_FORBIDDEN = auto(), 403, "/metrics answers only the operators' networks"

    @property
    def type(self) -> str:
        """The problem's `type` member: a tag URI made from the code, so the two never differ."""
        return PROBLEM_TYPE_PREFIX + self.value


class DomainError(Exception):
    """A refusal the domain raises with its problem code, message and field, knowing no HTTP:
    each layer raises its own subclass, and the web layer's one handler answers every one as a
    problem document (`adjudicator.web.errors.as_problem`). `extra`: further members a client
    acts on (`character`)."""

    def __init__(
        self,
        code: Problem,
        message: str,
        field: str | None = None,
        *,
        extra: dict[str, object] | None = None,
    ):
        if not isinstance(code, Problem):
            raise TypeError(f"{type(self).__name__} takes a Problem member, not {code!r}")
        super().__init__(message)
        self.code, self.message, self.field, self.extra = code, message, field, extra or {}


def markdown_table() -> str:
    """The codes as a Markdown table: the docs' problem-codes reference."""
    rows = ["| code | HTTP status | meaning | problem `type` |", "| --- | --- | --- | --- |"]
    for problem in sorted(Problem, key=lambda p: p.value):
        status = ", ".join(map(str, problem.statuses)) or "the error's own"
        rows.append(f"| `{problem.value}` | {status} | {problem.meaning} | `{problem.type}` |")
    return "\n".join(rows) + "\n"
