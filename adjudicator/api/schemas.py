"""openapi.json's request-body schemas, generated from the models in `api.bodies`.

The document stays one committed file (the service serves it as shipped, the documentation site
publishes it, a reviewer reads its diff); only its `components/schemas` for the request bodies
are written from the models, by `make openapi` (`python -m adjudicator.api.schemas`). A test
fails when the committed document differs from what the models generate. Paths, examples,
answers and the `Problem` schema stay hand-kept.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter
from pydantic.json_schema import models_json_schema

from adjudicator.api import bodies

DOCUMENT = Path(__file__).parents[1] / "openapi.json"
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
    """`document` with its request-body schemas from the models (the others kept)."""
    schemas = dict(document["components"]["schemas"])
    schemas.update(component_schemas())
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
