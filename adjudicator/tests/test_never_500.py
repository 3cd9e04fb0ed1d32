"""Whatever a client sends, the answer is a JSON error or a result, never a 500."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import create_app
from adjudicator.bounds import MAX_JSON_DEPTH
from adjudicator.tests.letters import TWO_LETTER_CAPITALS, letter_bodies

POSTS = [
    "/api/v1/rulesets/{}/challenge",
    "/api/v1/rulesets/{}/moves/validate",
    "/api/v1/rulesets/{}/games/final-score",
    "/api/v1/rulesets/{}/games/draw-order",
    "/api/v1/rulesets/{}/games/verify",
    "/api/v1/rulesets/{}/games/board",
    "/api/v1/judge/unlock",
]
RULESETS = ["ssf-1999", "dsf-2015", "sbnl-punten", "naspa", "nope"]
FIELDS = [
    "words", "board", "plays", "play", "rack", "tiles", "players", "ending", "went_out",
    "gcg", "turns", "pin", "name", "score", "overtime_minutes", "row", "col", "letter", "turn",
]  # fmt: skip

# words with letters whose capital is two letters (issue 27)
capital_words = st.text(st.sampled_from(TWO_LETTER_CAPITALS + "CAT.?"), min_size=1, max_size=7)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(["8H HEJ", "H8 ord", "?", "QXZ", "." * 15, "-", "ÆØÅ", "#player1 a b"]),
    capital_words,
    st.builds("{} {}".format, st.sampled_from(["8H", "H8", "9G"]), capital_words),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from(FIELDS), inner, max_size=5),
    ),
    max_leaves=20,
)
bodies = st.dictionaries(st.sampled_from(FIELDS), values, max_size=6)


def _ok(response) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.mimetype == "image/svg+xml":  # games/board's answer: a picture, never an error
        assert response.status_code == 200
        return
    assert response.is_json, response.get_data(as_text=True)[:200]


@pytest.fixture
def pin_client(lexicon_dir):
    """judge/unlock reads its body only when a PIN is configured."""
    app = create_app({"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "JUDGE_PIN": "4711"})
    return app.test_client()


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(POSTS), st.sampled_from(RULESETS), bodies)
def test_random_json_bodies(client, path, ruleset, body):
    _ok(client.post(path.format(ruleset), data=json.dumps(body), content_type="application/json"))


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(POSTS), st.binary(max_size=200))
def test_random_bytes(client, path, raw):
    _ok(client.post(path.format("ssf-1999"), data=raw, content_type="application/json"))


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(RULESETS),
    st.dictionaries(
        st.sampled_from(["bag", "turn", "previous_placed", "count", "x"]),
        st.one_of(st.text(max_size=6), st.integers(-5, 200).map(str)),
        max_size=4,
    ),
)
def test_random_exchange_queries(client, ruleset, params):
    _ok(client.get(f"/api/v1/rulesets/{ruleset}/exchange-allowed", query_string=params))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(POSTS),
    st.sampled_from(FIELDS),
    st.integers(MAX_JSON_DEPTH, 3000),
    st.sampled_from(["[", '[{"a":']),
)
def test_deep_nesting(pin_client, path, field, depth, opener):
    """Lists, or lists of objects, nested past the bound, up to past the parser's own limit:
    about 600 levels were a RecursionError (issue 27)."""
    closer = "]" if opener == "[" else "}]"
    body = f'{{"{field}": {opener * depth}1{closer * depth}}}'
    response = pin_client.post(path.format("naspa"), data=body, content_type="application/json")
    _ok(response)
    if response.status_code != 413:  # past an endpoint's body limit
        assert response.status_code == 400 and response.json["code"] == "too_deep", response.json


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(RULESETS[:-1]), st.sampled_from(TWO_LETTER_CAPITALS), st.integers(0, 2))
def test_two_letter_capitals_wherever_a_letter_is_read(client, ruleset, char, at):
    text = "CA"[:at] + char + "CA"[at:]
    for path, body in letter_bodies(text, char):
        url = f"/api/v1/rulesets/{ruleset}/{path}"
        response = client.post(url, data=json.dumps(body), content_type="application/json")
        _ok(response)
