"""JSON in and out through orjson: the challenge path is mostly parsing and serialising."""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import JSONProvider


class OrjsonProvider(JSONProvider):
    """Keys keep their order and text stays UTF-8, as the API documents show."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return orjson.dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any):
        obj = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(orjson.dumps(obj), mimetype="application/json")
