"""Whatever a client sends, the answer is a JSON error or a result, never a 500."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

POSTS = [
    "/api/v1/rulesets/{}/challenge",
    "/api/v1/rulesets/{}/moves/validate",
    "/api/v1/rulesets/{}/games/final-score",
    "/api/v1/rulesets/{}/games/verify",
    "/api/v1/rulesets/{}/games/board",
    "/api/v1/judge/unlock",
]
RULESETS = ["ssf-1999", "dsf-2015", "sbnl-punten", "naspa", "nope"]
FIELDS = [
    "words", "board", "plays", "play", "rack", "tiles", "players", "ending", "went_out",
    "gcg", "turns", "pin", "name", "score", "overtime_minutes", "row", "col", "letter", "turn",
]  # fmt: skip

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(["8H HEJ", "H8 ord", "?", "QXZ", "." * 15, "-", "ÆØÅ", "#player1 a b"]),
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
