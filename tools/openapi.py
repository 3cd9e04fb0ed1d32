"""The generated parts of adjudicator/openapi.json: its paths, from the routes' declarations
(`adjudicator.web.contract`) with their prose and examples from adjudicator/openapi-prose.yaml;
the request-body schemas, from the models in `adjudicator.api.bodies`; and the answers' schemas
(the `Problem` document's among them, its `code` enum from `adjudicator.problems`), from the
declarations in `adjudicator.web.answers` (a `TypedDict`, or the game's dataclass an answer is),
with their descriptions from the prose file's `schemas`.

    make openapi                      # python tools/openapi.py: rewrite them in place
    python tools/openapi.py --check   # exit 1 when the committed document is stale

The document stays one committed file (the service serves it as shipped, the documentation site
publishes it, a reviewer reads its diff). A test fails when it differs from what this generates.
Still kept by hand in it: `info`, `tags` and the security schemes. A tool, not part of the
installed package.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from flask import Flask
from pydantic import TypeAdapter
from pydantic.json_schema import models_json_schema
from werkzeug.routing import Rule

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adjudicator.api import bodies  # noqa: E402
from adjudicator.problems import PROBLEM_MIMETYPE  # noqa: E402
from adjudicator.web import API_PREFIX  # noqa: E402
from adjudicator.web.access import DIRECTORS_ONLY, LEXICON_DEPENDENT, PUBLIC  # noqa: E402
from adjudicator.web.answers import ANSWERS  # noqa: E402
from adjudicator.web.contract import (  # noqa: E402
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    PROBLEM_HEADERS,
    Answer,
    Operation,
    operation_of,
)

DOCUMENT = ROOT / "adjudicator" / "openapi.json"
PROSE = ROOT / "adjudicator" / "openapi-prose.yaml"
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

# games/board's body: one of two models, told apart by their keys.
BOARD_REQUEST = {
    "description": "A position (`board` or `plays`, as moves/validate takes them) or a record"
    " (`gcg`, or `players` and `turns`, as games/verify takes them) and the `turn` to show.",
    "oneOf": [
        {"$ref": REF.format(model=m.__name__)} for m in (bodies.Position, bodies.RecordPicture)
    ],
}

# Who may call, by the route's access marker (`adjudicator.web.access`, enforced by the guard):
# a ruleset's route takes anyone in open mode and any credential in tournament mode.
ANYONE = [{}, {"appKey": []}, {"deviceToken": []}, {"deviceCookie": []}, {"directorSession": []}]
SECURITY: dict[str, list[dict[str, list]] | None] = {
    PUBLIC: None,
    LEXICON_DEPENDENT: ANYONE,
    DIRECTORS_ONLY: [{"directorSession": []}],
}
# A path variable's schema by its Werkzeug converter.
CONVERTERS = {
    "default": {"type": "string"},
    "string": {"type": "string"},
    "int": {"type": "integer"},
}
_VARIABLE = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")


class ContractError(Exception):
    """A route or its prose the generator cannot document: names which and why."""


def component_schemas() -> dict[str, Any]:
    """Each body's schema and its parts', and each answer's and its parts', as
    `components/schemas` holds them; a name given to both a body and an answer is an error."""
    _, top = models_json_schema([(m, "validation") for m in MODELS], ref_template=REF)
    found = dict(top["$defs"])
    found["Label"] = TypeAdapter(bodies.LabelText).json_schema(ref_template=REF)
    found["BoardRequest"] = BOARD_REQUEST
    answers: dict[str, Any] = {}
    for name, kind in ANSWERS.items():
        schema = TypeAdapter(kind).json_schema(ref_template=REF, mode="serialization")
        answers |= schema.pop("$defs", {}) | {name: schema}
    if both := sorted(set(found) & set(answers)):
        raise ContractError(f"both a request body and an answer are named {both}")
    found |= _described(answers, _prose()["schemas"])
    return {name: _tidy(schema) for name, schema in sorted(found.items())}


def _described(answers: dict[str, Any], prose: dict[str, Any]) -> dict[str, Any]:
    """The answers' schemas with their descriptions from the prose file (`schemas`); prose for
    an answer or a key no declaration has is an error."""
    for name, words in prose.items():
        schema = answers.get(name)
        if schema is None:
            raise ContractError(f"{PROSE.name} describes no declared answer {name!r}")
        if unknown := set(words) - {"description", "properties"}:
            raise ContractError(f"{PROSE.name}: schema {name}: unknown keys {sorted(unknown)}")
        if "description" in words:
            answers[name] = schema = {"description": words["description"]} | schema
        for key, text in words.get("properties", {}).items():
            if key not in schema["properties"]:
                raise ContractError(f"{PROSE.name}: {name} has no key {key!r}")
            schema["properties"][key] = {"description": text} | schema["properties"][key]
    return answers


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


# --- paths, from the URL map ------------------------------------------------------------------


@cache
def _app() -> Flask:
    """The app whose URL map is documented; no lexicon is needed to list its routes."""
    from adjudicator import create_app

    logging.disable(logging.WARNING)  # "ruleset ... is unavailable": no lexicon is loaded here
    try:
        with tempfile.TemporaryDirectory(prefix="openapi-") as folder:
            return create_app({"TESTING": True, "LEXICON_DIR": folder})
    finally:
        logging.disable(logging.NOTSET)


def declared_routes(app: Flask) -> list[tuple[str, str, Rule, str, Operation]]:
    """Each API route as (path as the document writes it, method, rule, access marker,
    declaration); a route without a declaration is an error naming it."""
    from adjudicator.auth.guard import access_of

    found = []
    missing = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(API_PREFIX + "/"):
            continue
        declared = operation_of(app.view_functions[rule.endpoint])
        if declared is None:
            missing.append(f"{rule.rule} ({rule.endpoint})")
            continue
        path = _VARIABLE.sub(r"{\2}", rule.rule.removeprefix(API_PREFIX))
        access = access_of(app, rule.endpoint) or LEXICON_DEPENDENT
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            found.append((path, method.lower(), rule, access, declared))
    if missing:
        raise ContractError(
            "no @operation declaration (adjudicator.web.contract) on: " + ", ".join(missing)
        )
    return found


def paths(app: Flask, prose: dict[str, Any]) -> dict[str, Any]:
    """`paths`, in the order the prose file lists the operations."""
    written = prose["operations"]
    items: dict[str, dict[str, Any]] = {}
    order: dict[str, int] = {}
    ids = list(written)
    for path, method, rule, access, declared in declared_routes(app):
        said = written.get(declared.id)
        if said is None:
            raise ContractError(f"{PROSE.name} has no entry for the operation {declared.id!r}")
        item = items.setdefault(path, {})
        variables = [
            _parameter(name, "path", CONVERTERS[converter or "default"], True, said, prose)
            for converter, name in _VARIABLE.findall(rule.rule)
        ]
        if variables:
            item["parameters"] = variables
        item[method] = operation = _operation(declared, access, said, prose)
        named = {p["name"] for p in variables + operation.get("parameters", [])}
        if unknown := set(said.get("parameters", {})) - named:
            raise ContractError(f"{declared.id}: prose for no parameter of it: {sorted(unknown)}")
        if "requestBody" in said and "requestBody" not in operation:
            raise ContractError(f"{declared.id}: prose for a body it does not take")
        order[path] = ids.index(declared.id)
    unknown = sorted(
        set(ids)
        - {op["operationId"] for i in items.values() for m, op in i.items() if m != "parameters"}
    )
    if unknown:
        raise ContractError(f"{PROSE.name} has prose for no route's operation: {unknown}")
    return {path: items[path] for path in sorted(items, key=order.__getitem__)}


def _parameter(name: str, where: str, schema: Any, required: bool, said: dict, prose: dict) -> dict:
    """A parameter with its description (the operation's, else the prose file's shared one; a
    null says none) and examples."""
    words = prose["parameters"].get(name, {}) | said.get("parameters", {}).get(name, {})
    unknown = set(words) - {"description", "examples"}
    if unknown:
        raise ContractError(f"{PROSE.name}: parameter {name}: unknown keys {sorted(unknown)}")
    words = {key: value for key, value in words.items() if value is not None}
    return {"name": name, "in": where, "required": required, "schema": schema} | words


def _query(declared: Operation, said: dict, prose: dict) -> list[dict]:
    """The query parameters: declared one by one, or the fields of a pydantic model."""
    if isinstance(declared.query, tuple):
        return [
            _parameter(q.name, "query", dict(q.schema), q.required, said, prose)
            for q in declared.query
        ]
    schema = _tidy(declared.query.model_json_schema(ref_template=REF))
    required = set(schema.get("required", ()))
    out = []
    for name, field in schema["properties"].items():
        field = dict(field)
        meant = field.pop("description", None)
        param = _parameter(name, "query", field, name in required, said, prose)
        if "description" not in param and meant:
            param["description"] = meant
        out.append(param)
    return out


def _operation(declared: Operation, access: str, said: dict, prose: dict) -> dict[str, Any]:
    """One operation: its declaration, its security from the access marker, its prose."""
    op: dict[str, Any] = {"operationId": declared.id, "tags": [declared.tag]}
    op["summary"] = said["summary"]
    if "description" in said:
        op["description"] = said["description"]
    security = SECURITY[access]
    if security is None and declared.credentials:
        security = ANYONE
    if security is not None:
        op["security"] = security
    parameters = _query(declared, said, prose)
    if declared.idempotent:
        parameters.append(
            _parameter("Idempotency-Key", "header", IDEMPOTENCY_KEY, False, said, prose)
        )
    if parameters:
        op["parameters"] = parameters
    if declared.body is not None:
        name = declared.body if isinstance(declared.body, str) else declared.body.__name__
        media: dict[str, Any] = {"schema": {"$ref": REF.format(model=name)}}
        if "requestBody" in said:
            media["examples"] = said["requestBody"]["examples"]
        op["requestBody"] = {"required": True, "content": {"application/json": media}}
    op["responses"] = _responses(declared, said, prose)
    return op


def _responses(declared: Operation, said: dict, prose: dict) -> dict[str, Any]:
    """The declared answers and a problem document at each declared problem's status, each
    described by the prose file (a status it does not describe is an error)."""
    answers: dict[int, tuple[str, Any, dict]] = {}
    for status, answer in declared.answers.items():
        headers = dict(answer.headers)
        if declared.idempotent and status == 200:
            headers["Idempotent-Replayed"] = IDEMPOTENT_REPLAYED
        answers[status] = (answer.media_type, _schema(answer), headers)
    problem = {"$ref": REF.format(model="Problem")}
    for status, problems in declared.problem_statuses().items():
        if status in answers:
            raise ContractError(f"{declared.id}: {status} is both an answer and a problem")
        headers = {}
        for code in problems:
            headers.update(PROBLEM_HEADERS.get(code, {}))
        answers[status] = (PROBLEM_MIMETYPE, problem, headers)
    written = {str(k): v for k, v in said.get("responses", {}).items()}
    unknown = set(written) - {str(s) for s in answers}
    if unknown:
        raise ContractError(f"{declared.id}: prose for undeclared responses {sorted(unknown)}")
    out = {}
    for status in sorted(answers):
        media_type, schema, headers = answers[status]
        words = written.get(str(status))
        if not words or "description" not in words:
            raise ContractError(f"{declared.id}: {PROSE.name} describes no {status} response")
        media: dict[str, Any] = {"schema": schema}
        if "examples" in words:
            media["examples"] = words["examples"]
        response: dict[str, Any] = {
            "description": words["description"],
            "content": {media_type: media},
        }
        if headers:
            response["headers"] = {
                name: _header(name, kind, words.get("headers", {}), prose["headers"])
                for name, kind in headers.items()
            }
        out[str(status)] = response
    return out


def _header(name: str, schema: Any, here: dict, shared: dict) -> dict:
    description = here[name] if name in here else shared.get(name)
    return ({"description": description} if description else {}) | {"schema": dict(schema)}


def _schema(answer: Answer) -> Any:
    if isinstance(answer.schema, type):
        return {"$ref": REF.format(model=answer.schema.__name__)}
    return json.loads(json.dumps(answer.schema))


@cache
def _prose() -> dict[str, Any]:
    return yaml.safe_load(PROSE.read_text("utf-8"))


# --- the document -----------------------------------------------------------------------------


def generated(document: dict[str, Any]) -> dict[str, Any]:
    """`document` with its paths from the routes' declarations and its schemas from the
    request models and the answers' declarations."""
    return document | {
        "paths": paths(_app(), _prose()),
        "components": document["components"] | {"schemas": component_schemas()},
    }


def dumps(document: dict[str, Any]) -> str:
    """The document as the committed file writes it."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """Write the generated parts into the committed document; `--check`: exit 1 if stale."""
    text = DOCUMENT.read_text("utf-8")
    try:
        fresh = dumps(generated(json.loads(text)))
    except ContractError as exc:
        print(f"make openapi: {exc}", file=sys.stderr)
        return 1
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
