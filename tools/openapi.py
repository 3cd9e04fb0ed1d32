"""The generated parts of adjudicator/openapi.json: the request-body schemas, from the models in
`adjudicator.api.bodies`, and the `Problem` schema's `code` enum, from `adjudicator.problems`.

    make openapi                      # python tools/openapi.py: rewrite them in place
    python tools/openapi.py --check   # exit 1 when the committed document is stale

The document stays one committed file (the service serves it as shipped, the documentation site
publishes it, a reviewer reads its diff). A test fails when it differs from what this generates.
Paths, examples and answers stay hand-kept. A tool, not part of the installed package.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter
from pydantic.json_schema import models_json_schema

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adjudicator.api import bodies  # noqa: E402
from adjudicator.problems import Problem  # noqa: E402

DOCUMENT = ROOT / "adjudicator" / "openapi.json"
REF = "#/components/schemas/{model}"

# The bodies, by the name the document gives them; their parts (Tile, Turn, ...) come along.
MODELS = (
    bodies.ChallengeRequest,
    bodies.MoveRequest,
    bodies.Position,
    bodies.VerifyRequest,
    bodies.RecordPicture,
    bodies.FinalScoreRequest,
    bodies.DrawOrderRequest,
    bodies.UnlockRequest,
)


def component_schemas() -> dict[str, Any]:
    """Each body's schema and its parts', as `components/schemas` holds them."""
    _, top = models_json_schema([(m, "validation") for m in MODELS], ref_template=REF)
    found = dict(top["$defs"])
    found["Label"] = TypeAdapter(bodies.LabelText).json_schema(ref_template=REF)
    return {name: _tidy(schema) for name, schema in sorted(found.items())}


def _tidy(node: Any) -> Any:
    """Without pydantic's titles (the names say it) and its `"default": null` for a field whose
    absence is the default and whose null is refused; a label refers to the `Label` schema."""
    if isinstance(node, dict):
        if node.pop(bodies.LABEL_SCHEMA, False):
            node = {"$ref": REF.format(model="Label")} | node
        return {
            key: _tidy(value)
            for key, value in node.items()
            if not (key == "title" and isinstance(value, str))
            and not (key == "default" and value is None)
        }
    if isinstance(node, list):
        return [_tidy(item) for item in node]
    return node


def generated(document: dict[str, Any]) -> dict[str, Any]:
    """`document` with its request-body schemas from the models (the others kept) and the
    problem codes the enum declares."""
    schemas = dict(document["components"]["schemas"])
    schemas.update(component_schemas())
    problem = schemas["Problem"]
    code = problem["properties"]["code"] | {"enum": sorted(p.value for p in Problem)}
    schemas["Problem"] = problem | {"properties": problem["properties"] | {"code": code}}
    return document | {"components": document["components"] | {"schemas": schemas}}


def dumps(document: dict[str, Any]) -> str:
    """The document as the committed file writes it."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """Write the generated schemas into the committed document; `--check`: exit 1 if stale."""
    text = DOCUMENT.read_text("utf-8")
    fresh = dumps(generated(json.loads(text)))
    if "--check" in argv:
        if fresh != text:
            print(f"{DOCUMENT} is stale: run `make openapi`", file=sys.stderr)
            return 1
        return 0
    if fresh != text:
        DOCUMENT.write_text(fresh, "utf-8")
        print(f"wrote {DOCUMENT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
