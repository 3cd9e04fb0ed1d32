"""Reading JSON bodies and query strings strictly, with errors that name the field."""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from typing import Any

import orjson
from flask import Request as FlaskRequest
from flask import request
from gunicorn.http.errors import ParseException
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.routing import IntegerConverter
from werkzeug.utils import cached_property
from werkzeug.wsgi import LimitedStream, get_input_stream

from adjudicator.bounds import MAX_JSON_DEPTH, MAX_ROW_ID
from adjudicator.problems import Problem
from adjudicator.web.errors import ApiError

BODY_FRAMING_ERRORS = (ParseException, OSError)


class WholeBodyStream(LimitedStream):
    """A streamed body (chunked: no Content-Length) held to `max_content_length`, refused
    (413) when longer instead of cut at the limit.

    Werkzeug's `readall` stops at the limit and returns what it read, so a 20 KiB chunked
    challenge was answered `invalid_json` (its first 16 KiB), and a body whose first 16 KiB
    happened to be whole JSON would have been ruled on with the rest ignored."""

    def readall(self) -> bytes:
        data = super().readall()
        if self.is_exhausted and self._stream.read(1):  # the server's stream ends the body
            raise RequestEntityTooLarge()
        return data


class RowId(IntegerConverter):
    """`<int:...>` in every route: a number the stores' 64-bit ids can hold. A larger one names
    no row, so its URL matches no route (404) rather than overflowing the store (a 500)."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_ROW_ID)
        super().__init__(map, *args, **kwargs)


class Request(FlaskRequest):
    """The app's request class: its body stream is a `WholeBodyStream` where the server ends
    the body itself (gunicorn: `wsgi.input_terminated`) and a limit applies."""

    @cached_property
    def stream(self) -> Any:
        # Werkzeug's own stream first: it refuses a declared length past the limit (413) before
        # anything is read. Only the one it would hold to the limit is replaced.
        stream = get_input_stream(self.environ, max_content_length=self.max_content_length)
        limit = self.max_content_length
        if "wsgi.input_terminated" in self.environ and limit is not None:
            return WholeBodyStream(self.environ["wsgi.input"], limit, is_max=True)
        return stream


def query_args(known: Collection[str]) -> dict[str, str]:
    """The query string as one value a name, for an endpoint that takes the names `known`.

    A name it does not take is refused, as is one given twice: `?verdict=valid&verdict=invalid`
    has no one meaning, and answering for the first would make the second silently count for
    nothing (the same rule as a JSON body's duplicate keys). So is a value with a control
    character, which no parameter means (and PostgreSQL refuses a NUL in any text)."""
    args = request.args
    for name in args:
        if name not in known:
            raise ApiError(Problem.UNKNOWN_PARAMETER, f"unknown query parameter {name!r}", name)
        values = args.getlist(name)
        if len(values) > 1:
            raise ApiError(Problem.REPEATED_PARAMETER, f"give '{name}' once in the query", name)
        if not values[0].isprintable():
            raise ApiError(Problem.NOT_PRINTABLE, f"'{name}' has a control character", name)
    return args.to_dict()


# A whole number as a query writes it: at most 19 digits (2**62 has 19), so that no value
# long enough to cost anything to convert is ever converted.
_WHOLE = re.compile(r"[+-]?[0-9]{1,19}")


def int_arg(
    args: dict[str, str], name: str, low: int, high: int, required: bool = False
) -> int | None:
    """A whole number from `query_args`, `low` to `high`; None when absent. An empty value
    (`?turn=`) is not a number: the document says integer, and guessing "absent" would answer a
    question the client did not ask."""
    text = args.get(name)
    if text is None:
        if required:
            raise ApiError(Problem.MISSING_PARAMETER, f"give '{name}' in the query", name)
        return None
    if not _WHOLE.fullmatch(text):
        raise ApiError(Problem.NOT_A_NUMBER, f"'{name}' must be a whole number", name)
    value = int(text)
    if not low <= value <= high:
        raise ApiError(Problem.OUT_OF_RANGE, f"'{name}' must be {low} to {high}", name)
    return value


def bool_arg(args: dict[str, str], name: str) -> bool | None:
    """`true` or `false` from `query_args`, in any case (Python clients send `True`); None when
    absent. An empty value, `1` or `yes` is refused rather than guessed at."""
    text = args.get(name)
    if text is None:
        return None
    value = {"true": True, "false": False}.get(text.lower())
    if value is None:
        raise ApiError(Problem.NOT_A_BOOLEAN, f"'{name}' must be true or false", name)
    return value


def json_body() -> dict[str, Any]:
    req = request._get_current_object()  # one context lookup instead of one per attribute
    if not req.is_json:
        raise ApiError(
            Problem.NOT_JSON, "send the body as JSON with Content-Type: application/json"
        )
    try:
        raw = req.get_data(cache=True)
    except BODY_FRAMING_ERRORS:
        # gunicorn reads a chunked body only when the app does, and raises its parse errors (a
        # bad chunk size, a missing terminator) or NoMoreData (an OSError: the body was cut
        # short) here: the framing is the client's fault, not ours.
        raise ApiError(Problem.BAD_REQUEST, "the request body's framing is malformed") from None
    return json_object(raw)


def json_object(raw: bytes | str, field: str | None = None) -> dict[str, Any]:
    """JSON text as an object, refused as a request body is (a key twice, nesting past the
    bound). A form's JSON (the *Check a game* page's record) is read here too, `field` naming it
    where the text is not JSON at all."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if exc.msg.startswith(_PARSER_DEPTH_LIMIT):  # orjson's own limit, 1024 levels
            raise _too_deep("$") from None
        whose = "the body" if field is None else f"'{field}'"
        raise ApiError(Problem.INVALID_JSON, f"{whose} is not valid JSON", field) from None
    if not isinstance(data, dict):
        raise ApiError(Problem.WRONG_SHAPE, "the body must be a JSON object", field or "$")
    # orjson keeps the last of two equal keys; `{"pin": "0000", "pin": "4711"}` must not pass.
    # Every key in the text is followed by a colon, so when the text has no more colons than the
    # parsed objects have keys, no key can repeat. Only bodies with colons inside strings (GCG
    # text, notation) are read a second time, by the standard library, watching every object.
    if raw.count(b":" if isinstance(raw, bytes) else ":") > _keys_within_depth(data):
        json.loads(raw, object_pairs_hook=_unique_pairs)
    return data


_PARSER_DEPTH_LIMIT = "depth limit exceeded"


def _too_deep(field: str) -> ApiError:
    return ApiError(
        Problem.TOO_DEEP,
        f"the body nests objects and lists more than {MAX_JSON_DEPTH} levels deep",
        field,
    )


def _keys_within_depth(data: dict[str, Any]) -> int:
    """The number of keys in all the body's objects, counted without recursion: a body nested
    past MAX_JSON_DEPTH is refused first, naming the top-level field it is under.

    orjson reads 1024 levels; a recursive walk of ~600 overflowed Python's stack (a 500 and a
    150 KB traceback in the log, for anyone's request). Nothing after this walks deeper."""
    keys = len(data)
    for field, top in data.items():
        stack: list[tuple[Any, int]] = [(top, 2)]  # the body's own object is level 1
        while stack:
            node, depth = stack.pop()
            children: Collection[Any]
            if isinstance(node, dict):
                keys += len(node)
                children = node.values()
            elif isinstance(node, list):
                children = node
            else:
                continue
            if depth > MAX_JSON_DEPTH:
                raise _too_deep(field)
            stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return keys


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ApiError(Problem.DUPLICATE_KEY, f"the key {key!r} appears twice", key)
        out[key] = value
    return out
