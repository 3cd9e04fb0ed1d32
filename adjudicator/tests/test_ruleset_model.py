"""One typed ruleset: the model the loader fills is the only reading of a ruleset file.

The public view served by `GET /rulesets` is pinned byte for byte (golden/public_rulesets.jsonl),
so moving from the raw TOML tables to the typed model changes nothing a client sees.
"""

from __future__ import annotations

import os
from pathlib import Path

import orjson

GOLDEN = Path(__file__).parent / "golden" / "public_rulesets.jsonl"


def _served(client) -> bytes:
    """Each ruleset's public view as served, one JSON line each; the lexicon's own summary and
    availability (the lexicon's, not the ruleset's) are left out."""
    lines = []
    for view in client.get("/api/v1/rulesets").json["rulesets"]:
        view["available"] = False
        view["lexicon"] = {"id": view["lexicon"]["id"]}
        lines.append(orjson.dumps(view) + b"\n")
    return b"".join(lines)


def test_the_public_ruleset_view_is_unchanged(client):
    served = _served(client)
    if os.environ.get("ADJUDICATOR_REGENERATE_GOLDEN"):
        GOLDEN.write_bytes(served)
    assert served == GOLDEN.read_bytes()
