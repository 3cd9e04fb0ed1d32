"""Every answer is what its route declares (`adjudicator.web.answers`): each route is sent the
requests the differential disclosure test builds for it (differential.py), under every
ruleset, in open mode anonymously and as a director, in tournament mode as a director, a paired
judge tablet and an app key, and a few more that reach the answers' other shapes;
every JSON answer must validate against its declaration, strictly and with no key the
declaration lacks, and against the schema openapi.json publishes for it. A view that adds a key,
drops one or changes a type without its declaration fails here."""

from __future__ import annotations

import dataclasses
import importlib
import json
import pkgutil
from functools import cache

import pytest
from pydantic import TypeAdapter, ValidationError

import adjudicator.engine
import adjudicator.game
import adjudicator.game.final
from adjudicator import create_app
from adjudicator.api.meta import openapi_document
from adjudicator.auth.tests.conftest import add_director, add_key, bearer, login, pair, pairing_code
from adjudicator.process.hotswap import reload_app
from adjudicator.store import Store, migrate
from adjudicator.tests.differential import BOARD, FIRST, PIN, Req, build_pair, requests_for
from adjudicator.tests.test_differential import _send
from adjudicator.tests.test_openapi import _validator
from adjudicator.web.answers import ANSWERS
from adjudicator.web.contract import operation_of

PASSWORD = "correct horse battery staple"
JSON = ("application/json", "application/problem+json")
V1 = "/api/v1/rulesets"
# Beyond the differential's requests: illegal plays (placement errors), jury queries naming a
# game and player, a draw the winner chooses after, a failed challenge in a record.
MORE = [
    Req("POST", f"{V1}/naspa/moves/validate", {"board": BOARD, "play": "A1 ZZ"}),
    Req("POST", f"{V1}/naspa/moves/validate", {"plays": [FIRST], "play": "H7 CAT"}),
    Req("POST", f"{V1}/sbnl-punten/challenge", {"words": ["so"], "game": "g", "player": "Ann"}),
    Req(
        "POST",
        f"{V1}/sbnl-punten/moves/validate",
        {"plays": [FIRST], "play": "10H SO", "game": "g", "player": "Bo"},
    ),  # fmt: skip
    Req("GET", f"{V1}/sbnl-punten/jury", query={"game": "g", "player": "Ann"}),
    Req(
        "POST",
        f"{V1}/ssf-1999/games/draw-order",
        {"players": ["Ann", "Bo"], "draws": [{"Ann": "A", "Bo": "K"}]},
    ),  # fmt: skip
    Req(
        "POST",
        f"{V1}/dsf-2015/games/verify",
        {
            "players": ["Ann", "Bo"],
            "turns": [
                {"player": "Ann", "type": "play", "move": "H7 CAT", "score": 10},
                {"player": "Bo", "type": "challenge", "score": -5},
                {"player": "Bo", "type": "play", "move": "I7 AT", "score": 4},
            ],
        },
    ),  # fmt: skip
]


@pytest.fixture(scope="module", params=["open", "tournament"])
def answered(request, tmp_path_factory):
    """(caller, operation, status, body) of every JSON answer the corpus gets in the mode."""
    root = tmp_path_factory.mktemp("answers")
    lexicons, _ = build_pair(root)
    url = f"sqlite:///{root / 'adjudicator.db'}"
    migrate.upgrade(Store(url))
    tournament = request.param == "tournament"
    mode = {"MODE": "tournament", "RATE_RULINGS_PER_MINUTE": 100_000} if tournament else {}
    app = create_app(
        {"TESTING": True, "JUDGE_PIN": PIN, "LEXICON_DIR": str(lexicons), "DATABASE_URL": url}
        | mode
    )
    add_director(app, password=PASSWORD)
    reload_app(app)  # readyz's `last_reload` is then the reload's report, not null
    director, other = app.test_client(), app.test_client()
    assert login(director, password=PASSWORD).status_code in (302, 303)
    callers = {"director": (director, {}), "anyone": (other, {})}
    if tournament:  # a tablet paired for one ruleset, and an app key for every one
        assert pair(other, pairing_code(director, ruleset="dsf-2015")).status_code == 303
        callers = {"director": (director, {}), "tablet": (other, {})}
        callers["key"] = (app.test_client(), bearer(add_key(app)))
    reqs, unknown = requests_for(app, [*sorted(app.extensions["rulesets"]), "no-such-ruleset"])
    assert not unknown
    adapter = app.url_map.bind("localhost")
    out = []
    for who, (client, headers) in callers.items():
        for req in [r for _, _, r in reqs if r.method not in ("HEAD", "OPTIONS")] + MORE:
            endpoint, _ = adapter.match(req.path, method=req.method)
            declared = operation_of(app.view_functions[endpoint])
            if declared is None:
                continue
            answer = _send(client, req, {"X-Requested-With": "test", **headers})
            if answer.mimetype in JSON:
                out.append((who, declared, answer.status_code, answer.get_data()))
    return out


@cache
def _adapter(kind: type) -> TypeAdapter:
    return TypeAdapter(kind)


def test_every_answer_is_its_declaration(answered):
    doc = openapi_document()
    wrong = []
    for who, declared, status, body in answered:
        given = declared.answers.get(status)
        kind = given.schema if given is not None else ANSWERS["Problem"]
        try:
            _adapter(kind).validate_json(body, strict=True)
        except ValidationError as exc:
            wrong.append(f"{who}: {declared.id} {status} ({kind.__name__}): {exc}")
            continue
        schema = doc["components"]["schemas"][kind.__name__]
        errors = _validator(doc, schema).iter_errors(json.loads(body))
        wrong += [f"{who}: {declared.id} {status} in openapi.json: {e.message}" for e in errors]
    assert wrong == []


def test_every_declared_answer_is_met(answered):
    """A declaration no real answer was checked against proves nothing: each operation's 200
    (and the problem document) is seen at least once in each mode, and each caller's
    rulings and identity."""
    seen = {(declared.id, status) for _, declared, status, _ in answered}
    ops = {declared.id: declared for _, declared, _, _ in answered}
    missing = [
        op_id
        for op_id, declared in ops.items()
        if isinstance(declared.answers[200].schema, type) and (op_id, 200) not in seen
    ]
    assert missing == []
    assert any(status >= 400 for _, _, status, _ in answered)
    for who in {who for who, _, _, _ in answered}:  # and each caller's rulings are checked
        ruled = {d.id for by, d, status, _ in answered if by == who and status == 200}
        assert {"challenge", "validateMove", "verifyGame", "whoami"} <= ruled, who


def test_a_key_the_declaration_lacks_is_refused():
    """Every declaration refuses a key it does not name, and its published schema says so."""
    schemas = openapi_document()["components"]["schemas"]
    for name in ANSWERS:
        assert schemas[name]["additionalProperties"] is False, name
    with pytest.raises(ValidationError, match="extra_forbidden|Extra inputs"):
        _adapter(ANSWERS["Health"]).validate_python({"status": "ok", "debug": True}, strict=True)


def test_prose_for_no_declared_key_stops_the_generator(monkeypatch):
    """The answers' descriptions (openapi-prose.yaml `schemas`) follow the declarations: prose
    for a key an answer does not have is an error, not a key made up from prose."""
    from tools import openapi as generator

    prose = generator._prose()
    schemas = prose["schemas"] | {"Health": {"properties": {"uptime": "seconds"}}}
    monkeypatch.setattr(generator, "_prose", lambda: prose | {"schemas": schemas})
    with pytest.raises(generator.ContractError, match="Health has no key 'uptime'"):
        generator.component_schemas()


def test_no_answer_repeats_a_dataclass_of_the_game():
    """A shape is declared once: an answer the game or engine gives as a dataclass (its fields
    the answer's keys) is declared by that dataclass, not mirrored here by a `TypedDict`."""
    fields = {}
    for package in (adjudicator.game, adjudicator.engine):
        for found in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{found.name}")
            for kind in vars(module).values():
                if isinstance(kind, type) and dataclasses.is_dataclass(kind):
                    fields[frozenset(f.name for f in dataclasses.fields(kind))] = kind
    twice = [
        f"{name} repeats {fields[keys].__module__}.{fields[keys].__name__}"
        for name, kind in ANSWERS.items()
        if issubclass(kind, dict) and (keys := frozenset(kind.__annotations__)) in fields
    ]
    assert twice == []
    assert ANSWERS["PlayerResult"] is adjudicator.game.final.PlayerResult
