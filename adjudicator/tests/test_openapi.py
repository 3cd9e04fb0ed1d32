"""The OpenAPI document stays true: every route is in it, and it names no route that is not."""

from __future__ import annotations

import json
import re
from urllib.parse import urlparse
from xml.etree import ElementTree

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from adjudicator import create_app
from adjudicator.api.meta import openapi_document
from adjudicator.tests.problem_codes import codes_in_source
from lexicon import __version__
from tools import openapi as schemas

SVG = "image/svg+xml"


def _routes(app):
    found = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            found.add((path, method.lower()))
    return found


def test_every_route_is_documented_and_nothing_else(app, client):
    doc = client.get("/api/v1/openapi.json").json
    assert doc["openapi"].startswith("3.1")
    documented = {
        (server_path, method)
        for server_path, ops in doc["paths"].items()
        for method in ops
        if method in {"get", "post", "put", "delete", "patch"}
    }
    prefix = urlparse(doc["servers"][0]["url"]).path
    documented = {(prefix + path, method) for path, method in documented}
    assert _routes(app) == documented


def test_every_operation_has_responses_and_an_id():
    doc = openapi_document()
    ids = []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            if method == "parameters":
                continue
            assert op.get("operationId"), (path, method)
            assert "200" in op["responses"], (path, method)
            ids.append(op["operationId"])
    assert len(ids) == len(set(ids))


def test_the_generated_parts_are_fresh():
    """`make openapi` writes the paths (from the routes' declarations and the prose file), the
    request schemas (from the models) and the problem codes; a declaration, model or prose
    changed without it leaves the document stale."""
    committed = schemas.DOCUMENT.read_text("utf-8")
    assert schemas.dumps(schemas.generated(json.loads(committed))) == committed, (
        "openapi.json differs from the routes' declarations, the models or the prose file:"
        " run `make openapi`"
    )


def test_every_api_route_declares_its_operation(app):
    """The paths are generated from `@operation` (adjudicator.web.contract): an API route
    without one would be missing from the document, so there is none."""
    from adjudicator.web.contract import operation_of

    undeclared = [
        rule.rule
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/") and operation_of(app.view_functions[rule.endpoint]) is None
    ]
    assert undeclared == []


def test_a_route_without_a_declaration_stops_the_generator(lexicon_dir):
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir)})
    app.add_url_rule("/api/v1/undeclared", "undeclared", lambda: "")
    with pytest.raises(schemas.ContractError, match=r"/api/v1/undeclared \(undeclared\)"):
        schemas.declared_routes(app)


def test_prose_for_no_declared_answer_stops_the_generator(lexicon_dir, monkeypatch):
    """The prose file follows the declarations: a status no route declares is an error, not a
    response made up from prose."""
    prose = schemas._prose()
    operations = dict(prose["operations"])
    operations["healthz"] = operations["healthz"] | {"responses": {200: {"description": "x"},
                                                                   418: {"description": "x"}}}  # fmt: skip
    monkeypatch.setattr(schemas, "_prose", lambda: prose | {"operations": operations})
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir)})
    with pytest.raises(schemas.ContractError, match=r"healthz: prose for undeclared .*418"):
        schemas.paths(app, schemas._prose())


def test_each_problem_code_the_prose_names_is_declared_at_that_status(app):
    """A response's description names codes (`rate_limited`), its examples show them; each is
    one its route declares (`@operation(problems=...)`) and is answered with that status."""
    from adjudicator.problems import Problem
    from adjudicator.web.contract import operation_of

    declared = {}
    for rule in app.url_map.iter_rules():
        found = operation_of(app.view_functions[rule.endpoint])
        if found is not None:
            declared[found.id] = found.problem_statuses()
    codes = {p.value for p in Problem}
    wrong = []
    for _path, _method, op in _operations(openapi_document()):
        for status, response in op["responses"].items():
            named = set(re.findall(r"`([a-z_]+)`", response["description"])) & codes
            for media in response["content"].values():
                for example in media.get("examples", {}).values():
                    if int(status) >= 400 and isinstance(example["value"], dict):
                        named.add(example["value"].get("code"))
            at_status = {p.value for p in declared[op["operationId"]].get(int(status), ())}
            wrong += [(op["operationId"], status, code) for code in sorted(named - at_status)]
    assert wrong == []


def _names_in(node, found: set[str]) -> set[str]:
    """Every property name and enum value anywhere in a part of the document."""
    if isinstance(node, dict):
        found.update(node.get("properties", {}))
        found.update(v for v in node.get("enum", ()) if isinstance(v, str))
        for value in node.values():
            _names_in(value, found)
    elif isinstance(node, list):
        for value in node:
            _names_in(value, found)
    return found


def test_an_error_response_names_only_codes_and_fields_that_exist():
    """A code the prose names (`label_not_printable`) that the service no longer answers, or a
    misspelt one, is caught: a backticked name in an error response is a problem code, or a
    field or value some schema of the document declares."""
    doc = openapi_document()
    known = _names_in(doc, set())
    stale = [
        (op["operationId"], status, name)
        for _path, _method, op in _operations(doc)
        for status, response in op["responses"].items()
        if int(status) >= 400
        for name in re.findall(r"`([a-z]+_[a-z_]+)`", response["description"])
        if name not in known
    ]
    assert stale == []


def test_schema_refs_resolve():
    doc = openapi_document()
    text = str(doc)
    for ref in set(re.findall(r"#/components/schemas/(\w+)", text)):
        assert ref in doc["components"]["schemas"], ref


def test_info_version_is_the_package_version(client):
    assert client.get("/api/v1/openapi.json").json["info"]["version"] == __version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_servers_are_absolute_and_configurable(lexicon_dir, client):
    doc = client.get("/api/v1/openapi.json", base_url="https://judge.example:8443").json
    assert doc["servers"][0]["url"] == "https://judge.example:8443/api/v1"
    app = create_app({"LEXICON_DIR": str(lexicon_dir), "PUBLIC_URL": "https://scrabble.dk/x/"})
    doc = app.test_client().get("/api/v1/openapi.json").json
    assert doc["servers"][0]["url"] == "https://scrabble.dk/x/api/v1"


def test_every_operation_is_tagged_with_a_declared_tag():
    doc = openapi_document()
    declared = {tag["name"] for tag in doc["tags"]}
    used = set()
    for _, _, op in _operations(doc):
        assert op.get("tags"), op["operationId"]
        used.update(op["tags"])
    assert used <= declared and declared <= used  # no tag undeclared, none left unused


def test_problem_code_enum_is_every_code_the_source_can_emit():
    enum = openapi_document()["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]
    assert enum == sorted(enum)
    assert set(enum) == codes_in_source()


def test_error_responses_are_problem_documents():
    for path, _method, op in _operations(openapi_document()):
        for status, response in op["responses"].items():
            if int(status) >= 400 and op["operationId"] != "readyz":
                assert list(response["content"]) == ["application/problem+json"], (path, status)
                schema = response["content"]["application/problem+json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Problem"}, (path, status)


# --- examples: every operation has one, and each does what the document says ------------------


def _operations(doc):
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method != "parameters":
                yield path, method, op


def _examples():
    doc = openapi_document()
    for path, method, op in _operations(doc):
        names = {}
        for status, response in op["responses"].items():
            for mt in response.get("content", {}).values():
                for name in mt.get("examples", {}):
                    assert name not in names, (op["operationId"], name)
                    names[name] = int(status)
        assert names, f"{op['operationId']} has no example"
        for name, status in sorted(names.items()):
            yield pytest.param(path, method, op, name, status, id=f"{op['operationId']}-{name}")


def _validator(doc, schema):
    resource = Resource.from_contents(doc, default_specification=DRAFT202012)
    registry = Registry().with_resource("urn:openapi", resource)
    # Local references (`#/components/...`) point into the whole document, wherever they sit.
    text = json.dumps(schema).replace('"#/components/', '"urn:openapi#/components/')
    return Draft202012Validator(json.loads(text), registry=registry)


@pytest.mark.parametrize("path, method, op, name, status", list(_examples()))
def test_example_gets_its_documented_status_and_shape(lexicon_dir, path, method, op, name, status):
    doc = openapi_document()
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "JUDGE_PIN": "4711"})
    params = doc["paths"][path].get("parameters", []) + op.get("parameters", [])
    url, query = "/api/v1" + path, {}
    for param in params:
        if name in param.get("examples", {}):
            value = param["examples"][name]["value"]
            if param["in"] == "path":
                url = url.replace("{" + param["name"] + "}", str(value))
            else:
                query[param["name"]] = value
        else:
            # only an example of a refused request may leave a required parameter out
            assert status >= 400 or not param.get("required"), (name, param["name"])
    body = None
    if "requestBody" in op:
        media = op["requestBody"]["content"]["application/json"]
        body = media["examples"][name]["value"]
        if status < 400:  # an example of a valid request is valid by the document's schema
            _validator(doc, media["schema"]).validate(body)
    response = app.test_client().open(url, method=method.upper(), query_string=query, json=body)
    assert response.status_code == status, response.get_data(as_text=True)
    ((media_type, documented),) = op["responses"][str(status)]["content"].items()
    assert response.mimetype == media_type
    validator = _validator(doc, documented["schema"])
    if media_type == SVG:  # a picture (games/board): well-formed SVG, its example a string
        root = ElementTree.fromstring(response.get_data())
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        validator.validate(documented["examples"][name]["value"])
        return
    validator.validate(response.get_json(force=True))
    validator.validate(documented["examples"][name]["value"])
    if status >= 400:
        assert response.json["code"] == documented["examples"][name]["value"]["code"]


def test_problem_code_enum_is_the_declared_enum():
    """`make openapi` (tools/openapi.py) writes the enum from `adjudicator.problems`."""
    from adjudicator.problems import Problem

    enum = openapi_document()["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]
    assert enum == sorted(p.value for p in Problem)


def _security_for(access: str) -> list[list[dict]] | None:
    """The `security` an operation must declare for its access marker (adjudicator.web.access,
    enforced by adjudicator.auth.guard): None for a public one, which may also declare the
    optional list (whoami reads a credential when one comes)."""
    from adjudicator.web.access import DIRECTORS_ONLY, PUBLIC

    anyone = [{}, {"appKey": []}, {"deviceToken": []}, {"deviceCookie": []},
              {"directorSession": []}]  # fmt: skip
    return {PUBLIC: [None, anyone], DIRECTORS_ONLY: [[{"directorSession": []}]]}.get(
        access, [anyone]
    )


def test_each_operations_security_is_its_routes_access_marker(app):
    """Issue 37 item 3: games/board took credentials in tournament mode but declared none, so a
    generated client sent none."""
    from adjudicator.auth.guard import LEXICON_DEPENDENT, access_of

    doc = openapi_document()
    wrong = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/"):
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule.removeprefix("/api/v1"))
        access = access_of(app, rule.endpoint) or LEXICON_DEPENDENT
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            declared = doc["paths"][path][method.lower()].get("security")
            if declared not in _security_for(access):
                wrong[f"{method} {path}"] = (access, declared)
    assert wrong == {}


def test_both_copies_of_the_document_validate(client):
    """The served document and the documentation site's copy (tools/docs_hooks.py): the site's
    once had no `info.version`, and generators refused it."""
    from openapi_spec_validator import validate

    from tools.docs_hooks import site_openapi

    served = client.get("/api/v1/openapi.json").json
    site = json.loads(site_openapi())
    for document in (served, site):
        validate(document)
    assert site["info"]["version"] == served["info"]["version"] == __version__


def test_every_array_schema_says_what_it_holds():
    """`AuditEntry.words` was an array of anything: a generated client typed it `list[Any]`."""
    untyped = []

    def walk(node, where):
        if isinstance(node, dict):
            if node.get("type") == "array" or (
                isinstance(node.get("type"), list) and "array" in node["type"]
            ):
                if "items" not in node and "prefixItems" not in node:
                    untyped.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk(openapi_document(), "#")
    assert untyped == []


def test_a_problem_is_declared_only_with_a_status_it_is_answered_with():
    """`(problem, status)` names another of the code's statuses (`Problem.statuses`), never a
    status the code is not answered with."""
    from adjudicator.problems import Problem
    from adjudicator.web.contract import operation, operation_of

    def view():
        return ""

    ok = operation_of(
        operation("x", "games", "Ruling", problems=((Problem.TOO_MANY_TILES, 422),))(view)
    )
    assert ok.problem_statuses() == {422: (Problem.TOO_MANY_TILES,)}
    wrong = operation_of(
        operation("x", "games", "Ruling", problems=((Problem.WORD_EMPTY, 422),))(view)
    )
    with pytest.raises(ValueError, match="word_empty is never answered with 422"):
        wrong.problem_statuses()


def test_the_numbers_the_prose_states_are_the_services_own():
    """The document states a few fixed numbers in words (constants since they stopped being
    settings): each must be the constant's value, so changing one without the prose fails."""
    from adjudicator.api import meta
    from adjudicator.auth import lockout
    from adjudicator.web import idempotency

    text = json.dumps(openapi_document())
    hours = idempotency.TTL.total_seconds() / 3600
    assert f"Keys are kept {hours:g} hours." in text
    assert meta.CRASH_WINDOW_SECONDS == 60  # "within a minute"
    assert f"workers died {meta.CRASH_LIMIT} times within a minute" in text
    minutes = lockout.PIN.window / 60
    assert f"{lockout.PIN.attempts} in {minutes:g} minutes" in text
