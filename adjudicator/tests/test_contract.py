"""The routes' declarations (`@operation`, adjudicator/web/contract.py) say what the views read:
each query parameter the document gives is one its view takes, a name it does not give is
refused, and each name the view reads is one the document gives. (The paths themselves are
generated from the declarations: test_openapi.)"""

from __future__ import annotations

import sys

import pytest
from flask import Request
from werkzeug.datastructures import ImmutableMultiDict

from adjudicator import create_app, store
from adjudicator.api.meta import openapi_document
from adjudicator.auth import directors, store_time
from adjudicator.store import Store, migrate

PASSWORD = "correct horse battery staple"
REFUSED_NAME = {"unknown_parameter", "unknown_field"}


def _queried():
    for path, item in openapi_document()["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            names = [p for p in op.get("parameters", []) if p["in"] == "query"]
            if names:
                yield pytest.param(path, op, names, id=op["operationId"])


def _value(schema: dict) -> str:
    """A value of the parameter's type: what is said about it is not the question here."""
    if "enum" in schema:
        return str(schema["enum"][0])
    return {"integer": str(schema.get("minimum", 1)), "boolean": "true"}.get(
        schema.get("type"), "Anna"
    )


@pytest.fixture
def director(tmp_path, lexicon_dir):
    url = f"sqlite:///{tmp_path / 'adjudicator.db'}"
    migrate.upgrade(Store(url))
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": url})
    with app.app_context(), store.connection(write=True) as conn:
        directors.add(conn, "anna", PASSWORD, store_time.now())
    client = app.test_client()
    response = client.post("/director/login", data={"name": "anna", "password": PASSWORD})
    assert response.status_code in (302, 303)
    return client


@pytest.mark.parametrize("path, op, params", list(_queried()))
def test_each_declared_query_parameter_is_one_the_view_takes(director, path, op, params):
    url = "/api/v1" + path.replace("{ruleset_id}", "dsf-2015")
    for param in params:
        answer = director.get(url, query_string={param["name"]: _value(param["schema"])})
        assert answer.status_code < 500, answer.get_data(as_text=True)
        if answer.status_code >= 400:
            assert answer.json["code"] not in REFUSED_NAME, (param["name"], answer.json)
    answer = director.get(url, query_string={"not_declared": "1"})
    assert answer.status_code == 400 and answer.json["code"] in REFUSED_NAME, answer.json


class _Whole(dict):
    """The whole query as a dict: read by name only through a model (`bodies.parse`)."""


class _Reads:
    names: set[str]
    whole: bool  # the query was read as a whole, not through `query_args` or a model
    inside: bool = False  # within `query_args`, which reads it whole to check every name


class _Args(ImmutableMultiDict):
    """`request.args` that notes each name the view reads, and a read of all of them."""

    def __getitem__(self, key):
        _Reads.names.add(key)
        return super().__getitem__(key)

    def getlist(self, key, type=None):
        _Reads.names.add(key)
        return super().getlist(key, type)

    def __contains__(self, key):
        _Reads.names.add(key)
        return super().__contains__(key)

    def __iter__(self):
        _Reads.whole |= not _Reads.inside
        return super().__iter__()

    def to_dict(self, flat=True):
        _Reads.whole |= not _Reads.inside
        return _Whole(super().to_dict(flat))


class _RecordingRequest(Request):
    parameter_storage_class = _Args


def _spy(monkeypatch, original, spy):
    """`spy` in place of `original` wherever it was imported by name."""
    for module in list(sys.modules.values()):
        if module and module.__name__.startswith("adjudicator"):
            for name, value in list(vars(module).items()):
                if value is original:
                    monkeypatch.setattr(module, name, spy)


def test_each_query_parameter_a_view_reads_is_declared(director, monkeypatch):
    """The other direction: the names each API view reads from its query (the names it passes
    to `query_args`, the fields of a model it reads the query with, any it reads one by one) are
    exactly the parameters the document declares for it."""
    from adjudicator.api import bodies
    from adjudicator.web import requests

    def query_args(known):
        _Reads.names |= set(known)
        _Reads.inside = True
        try:
            return original_query_args(known)
        finally:
            _Reads.inside = False

    def parse(model, data):
        if isinstance(data, _Whole):
            _Reads.whole = False  # read through the model: its fields are the names
            _Reads.names |= {f.alias or name for name, f in model.model_fields.items()}
        return original_parse(model, data)

    original_query_args, original_parse = requests.query_args, bodies.parse
    _spy(monkeypatch, original_query_args, query_args)
    _spy(monkeypatch, original_parse, parse)
    director.application.request_class = _RecordingRequest
    wrong = {}
    for path, item in openapi_document()["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "query"}
            _Reads.names, _Reads.whole = set(), False
            url = "/api/v1" + path.replace("{ruleset_id}", "dsf-2015")
            answer = director.open(url, method=method.upper(), json=None if method == "get" else {})
            assert answer.status_code < 500, (url, answer.get_data(as_text=True))
            if _Reads.whole or _Reads.names != declared:
                wrong[op["operationId"]] = (sorted(_Reads.names), _Reads.whole, sorted(declared))
    assert wrong == {}


@pytest.mark.parametrize("authorization", ["Bearer", "Basic x", "Bearer not-a-key"])
def test_a_bad_credential_is_answered_as_the_route_declares(tmp_path, lexicon_dir, authorization):
    """A malformed or unknown `Authorization` (tournament mode, a PIN set) to every declared
    route: the problem it answers is one the route declares (`@operation(problems=...)`) at that
    status, so the document and a client generated from it know it (audit/rulings answered an
    undeclared 401)."""
    from adjudicator.web.contract import operation_of

    url = f"sqlite:///{tmp_path / 'adjudicator.db'}"
    migrate.upgrade(Store(url))
    app = create_app(
        {"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": url,
         "MODE": "tournament", "JUDGE_PIN": "2468"}
    )  # fmt: skip
    client = app.test_client()
    undeclared = []
    for rule in app.url_map.iter_rules():
        found = operation_of(app.view_functions[rule.endpoint])
        if found is None:
            continue
        target = rule.rule.replace("<ruleset_id>", "dsf-2015")
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            answer = client.open(
                target,
                method=method,
                headers={"Authorization": authorization, "X-Requested-With": "test"},
                json=None if method == "GET" else {},
            )
            if answer.status_code < 400:
                continue
            at_status = {p.value for p in found.problem_statuses().get(answer.status_code, ())}
            if answer.json["code"] not in at_status:
                undeclared.append((method, target, answer.status_code, answer.json["code"]))
    assert undeclared == []
