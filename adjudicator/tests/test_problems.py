"""Every error is an RFC 9457 problem document, Werkzeug's own errors included."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import adjudicator
from adjudicator import problems
from adjudicator.problems import PROBLEM_TYPE_PREFIX, DomainError, Problem
from adjudicator.tests.problem_codes import codes_raised_with, statuses
from adjudicator.web.errors import DOMAIN_STATUSES, ApiError, as_problem

ROOT = Path(__file__).resolve().parents[2]

MEMBERS = {"type", "title", "status", "detail", "code"}


def _problem(response, status: int, code: str) -> dict:
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    body = response.get_json(force=True)
    assert MEMBERS <= set(body) <= MEMBERS | {"field"}
    assert body["status"] == status and body["code"] == code
    assert body["type"] == PROBLEM_TYPE_PREFIX + code
    assert body["title"] and body["detail"]
    assert "<" not in body["detail"]  # no HTML, no Werkzeug boilerplate
    assert response.headers["Cache-Control"] == "no-store"
    return body


def test_an_api_error_keeps_code_and_field(client):
    r = client.post("/api/v1/rulesets/ssf-1999/challenge", json={"words": ["a1"]})
    body = _problem(r, 400, "word_has_digit")
    assert body["field"] == "words[0]" and body["title"] == "Bad Request"


@pytest.mark.parametrize("path", ["/api/v1/nothing", "/nothing", "/api/v1/rulesets/x/y/z"])
def test_unknown_paths_are_json_404(client, path):
    body = _problem(client.get(path), 404, "not_found")
    assert body["detail"] == f"nothing is served at {path}"
    assert "If you entered the URL manually" not in body["detail"]


def test_wrong_method_is_json_405_with_allow(client):
    r = client.delete("/api/v1/rulesets/ssf-1999/challenge")
    body = _problem(r, 405, "method_not_allowed")
    assert (
        body["detail"] == "DELETE is not allowed on /api/v1/rulesets/ssf-1999/challenge; use POST"
    )
    assert "POST" in r.headers["Allow"]


def test_body_too_large_is_a_problem(client):
    r = client.post("/api/v1/rulesets/ssf-1999/challenge", json={"words": ["a" * 40000]})
    assert "16384 bytes" in _problem(r, 413, "body_too_large")["detail"]


def test_unexpected_failure_is_a_problem_without_the_exception(app, client):
    @app.get("/api/v1/boom")
    def boom():
        raise RuntimeError("secret internals")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    r = client.get("/api/v1/boom")
    body = _problem(r, 500, "internal_error")
    assert "secret" not in r.get_data(as_text=True) and "field" not in body


# --- the codes are declared once (adjudicator/problems.py) -------------------------------------


def test_an_api_error_takes_only_a_declared_code():
    """A plain string (a typo, an undeclared code) fails where it is raised, in any test."""
    with pytest.raises(TypeError, match="Problem"):
        ApiError("wrong_shape", "a plain string")
    with pytest.raises(TypeError, match="Problem"):
        ApiError(400, "wrong_shape", "the old order")  # codes_convert: keep
    with pytest.raises(TypeError, match="status"):
        ApiError(Problem.HTTP_ERROR, "this code has no status of its own")
    assert ApiError(Problem.WRONG_SHAPE, "x").status == 400  # the code's own status
    assert ApiError(Problem.OUT_OF_RANGE, "x", status=422).status == 422
    assert ApiError(Problem.WRONG_PIN, "x", "pin").to_dict() == {
        "type": PROBLEM_TYPE_PREFIX + "wrong_pin",
        "title": "Forbidden",
        "status": 403,
        "detail": "x",
        "code": "wrong_pin",
        "field": "pin",
    }


def test_every_status_given_where_raised_is_one_its_code_declares():
    """The reference lists each code's statuses from the enum: a raise site that gives another
    status must be declared there too."""
    for code, given in statuses().items():
        assert given <= set(Problem[code].statuses), (code, given)


# --- the domain's errors: each layer raises its own, the web layer answers them all ------------


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def domain_error_types() -> list[type[DomainError]]:
    """Every subclass of `DomainError` in the package, each of its modules imported."""
    for found in pkgutil.walk_packages(adjudicator.__path__, "adjudicator."):
        name = found.name
        if ".tests" in name or ".migrations" in name or name.endswith(("wsgi", "__main__")):
            continue  # wsgi builds an app; a migration runs only under Alembic
        importlib.import_module(name)
    return sorted(set(_subclasses(DomainError)), key=lambda t: f"{t.__module__}.{t.__name__}")


def _instance(kind: type[DomainError], code: Problem, **extra: object) -> DomainError:
    """An error of `kind` with `code`, whatever the order of its own constructor's arguments."""
    error = kind.__new__(kind)
    DomainError.__init__(error, code, f"refused by {kind.__name__}", "field", extra=extra)
    return error


def test_the_domain_errors_are_found():
    """The enumeration below sees each layer's own error (a plant would be missed otherwise)."""
    names = {t.__name__ for t in domain_error_types()}
    assert {
        "WordFormError",
        "RulesetRefused",
        "LabelError",
        "RecordError",
        "GameInputError",
    } <= names
    assert "RackError" in names  # a subclass of a subclass


def test_every_domain_error_is_answered_at_a_status_its_code_declares():
    """Each type, with every code the source raises it with, maps (`as_problem`, the one
    mapping) to a problem at a status the code declares: a new domain error, or a code raised
    with one whose status the reference does not list, fails here, named."""
    types = domain_error_types()
    raised = codes_raised_with({t.__name__ for t in types})
    for kind in types:
        assert raised[kind.__name__], f"no code is raised with {kind.__name__}"
        for name in raised[kind.__name__]:
            code = Problem[name]
            problem = as_problem(_instance(kind, code, n=1))
            assert problem.status in code.statuses, (kind.__name__, name, problem.status)
            assert (problem.code, problem.field, problem.extra) == (code, "field", {"n": 1})
    assert set(DOMAIN_STATUSES) <= set(types)  # the table names only domain errors


def test_the_game_rules_refusals_are_422_where_a_views_own_check_is_400():
    from adjudicator.game.errors import GameInputError
    from adjudicator.game.racks import RackError

    assert Problem.WRONG_SHAPE.status == 400
    assert as_problem(GameInputError("x", "f", Problem.WRONG_SHAPE)).status == 422
    assert as_problem(RackError("x", "f", Problem.WRONG_SHAPE)).status == 422


def test_a_domain_error_leaves_as_a_problem_document(app, client):
    """Through the one handler, each type's error is the problem document its mapping says,
    with no trace of the type that carried it."""
    types = domain_error_types()
    raised = codes_raised_with({t.__name__ for t in types})

    @app.get("/api/v1/refuse/<int:i>")
    def refuse(i: int):
        kind = types[i]
        raise _instance(kind, Problem[sorted(raised[kind.__name__])[0]])

    for i, kind in enumerate(types):
        code = Problem[sorted(raised[kind.__name__])[0]]
        expected = as_problem(_instance(kind, code))
        body = _problem(client.get(f"/api/v1/refuse/{i}"), expected.status, code.value)
        assert body["detail"] == f"refused by {kind.__name__}" and body["field"] == "field"


def test_a_domain_error_takes_only_a_declared_code():
    with pytest.raises(TypeError, match="Problem"):
        DomainError("wrong_shape", "a plain string")


def test_the_problem_codes_reference_is_the_enum():
    """The docs page renders `problems.markdown_table()`; nothing else lists the codes."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import docs_hooks
    finally:
        sys.path.remove(str(ROOT / "tools"))
    page = (ROOT / "docs" / "reference" / "problem-codes.md").read_text("utf-8")
    assert page.count("<!-- generated: problem-codes -->") == 1
    assert docs_hooks.GENERATORS["problem-codes"]() == problems.markdown_table()
    table = problems.markdown_table()
    for problem in problems.Problem:
        assert f"| `{problem.value}` |" in table and problem.meaning


def test_the_refusals_nginx_answers_itself_are_declared_codes():
    """deploy/nginx_conf.py renders nginx's own refusals (429, 503, 408, ...) as problems: a
    client behind nginx gets those codes too, so the contract must declare them."""
    import importlib.util
    import json

    spec = importlib.util.spec_from_file_location("nginx_conf", ROOT / "deploy" / "nginx_conf.py")
    nginx_conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(nginx_conf)
    enum = json.loads((ROOT / "adjudicator" / "openapi.json").read_text("utf-8"))["components"]
    enum = enum["schemas"]["Problem"]["properties"]["code"]["enum"]
    for status in nginx_conf.PROBLEMS:
        body = json.loads(nginx_conf.problem_body(status))
        assert body["status"] == status and body["code"] in enum, body
        assert status in Problem(body["code"]).statuses, body
