"""Reading JSON bodies strictly, with errors that name the field."""

from __future__ import annotations

from typing import Any

from flask import request

from adjudicator.errors import ApiError


def json_body() -> dict[str, Any]:
    req = request._get_current_object()  # one context lookup instead of one per attribute
    if not req.is_json:
        raise ApiError(415, "not_json", "send the body as JSON with Content-Type: application/json")
    # force=True: the content type was checked just above, so get_json need not parse it again.
    data = req.get_json(force=True, silent=True)
    if data is None:
        raise ApiError(400, "invalid_json", "the body is not valid JSON")
    if not isinstance(data, dict):
        raise ApiError(400, "wrong_shape", "the body must be a JSON object", "$")
    return data


def only_fields(data: dict[str, Any], allowed: set[str], within: str = "") -> None:
    """Refuse keys the endpoint does not read; `within` names a nested object (`players[2]`)."""
    for key in data:
        if key not in allowed:
            field = f"{within}.{key}" if within else key
            raise ApiError(400, "unknown_field", f"unknown field {key!r}", field)
