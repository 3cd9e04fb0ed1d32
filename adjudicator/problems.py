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

from enum import StrEnum

# RFC 4151 tag URI; a problem's `type` is this followed by its code (RFC 9457 §3.1.1).
PROBLEM_TYPE_PREFIX = "tag:scrabble-adjudicator,2026:problem:"


class Problem(StrEnum):
    """A problem code: the member's value is the code clients see."""

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
    BAD_REQUEST = (
        "bad_request",
        400,
        "the request could not be read (e.g. a malformed chunked body)",
    )
    NOT_FOUND = "not_found", 404, "nothing is served at this path"
    METHOD_NOT_ALLOWED = "method_not_allowed", 405, "the path does not take this method; see Allow"
    BODY_TOO_LARGE = "body_too_large", 413, "the request body is larger than this endpoint takes"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type", 415, "the body's media type is not taken"
    RANGE_NOT_SATISFIABLE = (
        "range_not_satisfiable",
        416,
        "a Range header asks for bytes a file lacks",
    )
    HTTP_ERROR = "http_error", None, "any other HTTP error, at the status it came with"
    INTERNAL_ERROR = "internal_error", 500, "the service failed; the error is logged, not shown"
    REQUEST_LINE_TOO_LONG = "request_line_too_long", 414, "the request line is over the limit"
    HEADERS_TOO_LARGE = "headers_too_large", 431, "too many request headers, or one too large"
    MALFORMED_REQUEST_LINE = "malformed_request_line", 400, "the method, target or version is bad"
    MALFORMED_HEADER = "malformed_header", 400, "a request header is malformed or folded"
    UNSUPPORTED_TRANSFER_CODING = (
        "unsupported_transfer_coding",
        501,
        "the request's Transfer-Encoding is not supported",
    )
    EXPECTATION_FAILED = "expectation_failed", 417, "the Expect header asks for what is not done"
    NOT_ACCEPTABLE = "not_acceptable", 406, "the Accept header excludes the only form of the answer"
    # nginx's own refusals in front of the service (deploy/nginx_conf.py), worded as ours
    TOO_MANY_REQUESTS = "too_many_requests", 429, "nginx: too many requests from this address"
    SERVICE_UNAVAILABLE = "service_unavailable", 503, "nginx: no service instance answered"
    REQUEST_TIMEOUT = "request_timeout", 408, "nginx: the request was not received in time"

    # --- the body and the query ---------------------------------------------------------------
    NOT_JSON = "not_json", 415, "the body is not sent as application/json"
    INVALID_JSON = "invalid_json", 400, "the body (or an uploaded record) is not valid JSON"
    WRONG_SHAPE = "wrong_shape", 400, "a value has the wrong JSON type or structure", (422,)
    DUPLICATE_KEY = "duplicate_key", 400, "a JSON object gives the same key twice"
    TOO_DEEP = "too_deep", 400, "the body nests objects and lists too deeply"
    UNKNOWN_FIELD = "unknown_field", 400, "the body has a field this endpoint does not take"
    MISSING_FIELD = "missing_field", 400, "a field this request needs is missing", (422,)
    TOO_LONG = "too_long", 400, "a text field is longer than its bound"
    OUT_OF_RANGE = "out_of_range", 400, "a number or a choice is outside what is allowed", (422,)
    UNKNOWN_PARAMETER = (
        "unknown_parameter",
        400,
        "the query has a parameter this path does not take",
    )
    REPEATED_PARAMETER = "repeated_parameter", 400, "a query parameter is given more than once"
    MISSING_PARAMETER = "missing_parameter", 400, "a query parameter this request needs is missing"
    NOT_PRINTABLE = "not_printable", 400, "a query parameter has a control character"
    NOT_A_NUMBER = "not_a_number", 400, "a query parameter must be a whole number"
    NOT_A_BOOLEAN = "not_a_boolean", 400, "a query parameter must be true or false"
    BAD_IDEMPOTENCY_KEY = "bad_idempotency_key", 400, "the Idempotency-Key header is malformed"
    IDEMPOTENCY_KEY_REUSED = (
        "idempotency_key_reused",
        422,
        "this Idempotency-Key was used for a different request",
    )

    # --- words ----------------------------------------------------------------------------------
    WORD_COUNT = "word_count", 400, "too few or too many words in one challenge"
    WORD_NOT_STRING = "word_not_string", 400, "a word is not a string"
    WORD_EMPTY = "word_empty", 400, "a word is empty"
    WORD_HAS_SPACE = "word_has_space", 400, "a word contains a space"
    WORD_HAS_CONTROL_CHARACTER = (
        "word_has_control_character",
        400,
        "a word contains a control character",
    )
    WORD_HAS_DIGIT = "word_has_digit", 400, "a word contains a digit"
    WORD_HAS_HYPHEN = "word_has_hyphen", 400, "a word contains a hyphen"
    WORD_HAS_NON_LETTER = "word_has_non_letter", 400, "a word contains a character not a letter"
    WORD_HAS_FOREIGN_LETTER = (
        "word_has_foreign_letter",
        400,
        "a word has a letter the language's tiles cannot spell",
    )
    WORD_TOO_SHORT = "word_too_short", 400, "a word has fewer than 2 letters"
    WORD_TOO_LONG = "word_too_long", 400, "a word has more than 15 letters"
    WORD_INVALID_FORM = "word_invalid_form", 400, "a word is not a form the lexicon can hold"

    # --- boards, plays and game records ---------------------------------------------------------
    BAD_BOARD = "bad_board", 400, "the board is not 15 rows of the set's letters"
    BAD_NOTATION = "bad_notation", 400, "a play is not in the notation '8H WORD'"
    ILLEGAL_EARLIER_PLAY = "illegal_earlier_play", 400, "an earlier play in the history is illegal"
    TOO_MANY_PLAYS = "too_many_plays", 400, "the history has more plays than allowed"
    TOO_MANY_TILES = "too_many_tiles", 400, "more tiles than a play or the set can have", (422,)
    TOO_MANY_TURNS = "too_many_turns", 400, "the record has more turns than allowed"
    BAD_RECORD = "bad_record", 422, "the game record cannot be read or has no moves"
    REPORT_TOO_LARGE = "report_too_large", 422, "the record's report would be too large"
    BAD_RACK = "bad_rack", 422, "a rack cannot be true under the tile set"
    UNKNOWN_LETTER = "unknown_letter", 422, "a letter is not a tile of the set"
    INCONSISTENT_INPUT = (
        "inconsistent_input",
        422,
        "well-formed input that cannot be true under the ruleset",
    )
    PLAYER_COUNT = "player_count", 422, "the ruleset is not played by this many players"
    DUPLICATE_PLAYER = "duplicate_player", 422, "two players have the same name"
    UNKNOWN_PLAYER = "unknown_player", 422, "a name is not one of the players'"
    UNKNOWN_ENDING = "unknown_ending", 422, "the ruleset has no such way for a game to end"
    NO_OVERTIME = "no_overtime", 422, "the ruleset has no overtime to score"

    # --- rulesets, labels and the service's own state -----------------------------------------
    UNKNOWN_RULESET = "unknown_ruleset", 404, "no ruleset has this id"
    RULESET_UNAVAILABLE = (
        "ruleset_unavailable",
        503,
        "the ruleset's lexicon is not loaded, or is a house build only a house variant may use",
    )
    HOUSE_RULESET = (
        "house_ruleset",
        403,
        "the ruleset is a house variant (004), which a tournament never serves",
    )
    STORE_UNAVAILABLE = "store_unavailable", 503, "the store cannot record a ruling right now"
    STORE_REFUSES_WRITES = (
        "store_refuses_writes",
        503,
        "the store refuses to record rulings (its audit log is damaged, or it is full): an"
        " operator must act; `cause` and readyz say which",
    )
    LABEL_LENGTH = "label_length", 400, "a player or game label is empty or too long"
    LABEL_DISALLOWED_CHARACTER = (
        "label_disallowed_character",
        400,
        "a label has a character its PRECIS profile disallows (named, e.g. U+FE0F VARIATION"
        " SELECTOR-16): default-ignorable, control, Hangul filler, or a symbol in an identifier",
    )
    LABEL_MIXED_SCRIPTS = "label_mixed_scripts", 400, "a label mixes scripts (a look-alike)"
    JURY_LIMIT_REACHED = (
        "jury_limit_reached",
        409,
        "the player has put all the words allowed to the jury in this game",
    )
    RATE_LIMITED = "rate_limited", 429, "too many rulings in 60 s for this caller; see Retry-After"
    VERIFY_BUSY = "verify_busy", 429, "this worker's time for records is spent; see Retry-After"

    # --- credentials, the judge PIN and the operators' pages ----------------------------------
    BAD_AUTHORIZATION = "bad_authorization", 401, "the Authorization header is not a Bearer token"
    CREDENTIAL_INVALID = "credential_invalid", 401, "the key, token or session is unknown or ended"
    CREDENTIAL_REQUIRED = "credential_required", 401, "tournament mode needs a credential for this"
    DIRECTOR_REQUIRED = "director_required", 401, "this needs a director's session"
    OUT_OF_SCOPE = "out_of_scope", 403, "the credential is not for this ruleset"
    CSRF_HEADER_MISSING = "csrf_header_missing", 403, "a cookie-authenticated call lacks the header"
    CSRF_FAILED = "csrf_failed", 403, "the form is stale or was not sent by this site"
    PIN_NOT_SET = "pin_not_set", 403, "no judge PIN is configured"
    WRONG_PIN = "wrong_pin", 403, "the judge PIN is wrong"
    TOO_MANY_ATTEMPTS = "too_many_attempts", 429, "too many wrong PINs on this tablet; wait"
    METRICS_FORBIDDEN = "metrics_forbidden", 403, "/metrics answers only the operators' networks"

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
