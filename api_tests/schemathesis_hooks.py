"""schemathesis hooks, loaded by `test_schemathesis.py` (SCHEMATHESIS_HOOKS): beside its
documented examples, every operation that reads a JSON body is sent one nested far past the
bound, and bodies spelling letters whose capital is two letters wherever a tile or notation is
read (issue 27: both were 500s that schema-driven data never reaches).

The cases are sent in the examples phase, whatever the seed, with the example's path parameters
and headers; a missing credential and the rest are the configuration's, as for any case.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import schemathesis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's `adjudicator`
from adjudicator.tests.letters import SAMPLE, letter_bodies  # noqa: E402

# Past the ~600 levels at which the body's recursive walk overflowed, within the parser's 1024.
# Sent as bytes: the tool copies a JSON value for its reports with a limit of 255 levels.
DEPTH = 900
_PLACE = "nested past the bound"


def _nested(body: dict[str, Any], depth: int) -> bytes:
    """`body` with its first field's value in `depth` lists, as JSON text."""
    first, *_ = body
    text = json.dumps({**body, first: _PLACE})
    return text.replace(json.dumps(_PLACE), "[" * depth + "]" * depth, 1).encode()


@schemathesis.hook
def before_add_examples(context, examples: list) -> None:
    """Append the deep body and the spelled ones to the operation's documented examples."""
    base = next((case for case in examples if isinstance(case.body, dict) and case.body), None)
    if base is None:
        return  # no JSON body to vary
    operation = context.operation

    def like_base(body: dict[str, Any] | bytes):
        return operation.Case(
            method=base.method,
            path_parameters=dict(base.path_parameters),
            headers=dict(base.headers or {}),
            cookies=dict(base.cookies or {}),
            query=dict(base.query or {}),
            body=body,
            media_type=base.media_type,
        )

    examples.append(like_base(_nested(base.body, DEPTH)))
    for char in SAMPLE:
        for path, body in letter_bodies(f"CA{char}", char):
            if operation.path.endswith("/" + path):
                examples.append(like_base(body))
