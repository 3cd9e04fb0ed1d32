"""The request-body models (`adjudicator.api.bodies`): refusals keep the API's code and field."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from adjudicator.api.bodies import ChallengeRequest, field_name, to_api_error

VERIFY = "/api/v1/rulesets/naspa/games/verify"
BOARD = "/api/v1/rulesets/naspa/games/board"


@pytest.mark.parametrize("kind", [[], ["play"], {}, {"a": 1}])
@pytest.mark.parametrize("path", [VERIFY, BOARD])
def test_a_turn_type_that_is_a_list_or_object_is_a_400(client, path, kind):
    """Before, `TURN_TYPES.get(turn["type"])` raised TypeError (unhashable): a 500."""
    body = {"players": ["a", "b"], "turns": [{"player": "a", "type": kind}]}
    r = client.post(path, json=body, headers={"Accept": "image/svg+xml"})
    assert r.status_code == 400, r.get_data(as_text=True)
    assert r.json["code"] == "wrong_shape" and r.json["field"] == "turns[0].type"


@pytest.mark.parametrize("count", ["x", 999, -1, 1.5])
def test_a_turn_s_count_is_held_to_its_bounds_whatever_the_turn(client, count):
    """The document states `count` (0 to MAX_BAG) for every turn; before, only an exchange
    without tiles read it, so a pass with `"count": "x"` was verified as if it had none."""
    turns = [{"player": "a", "type": "pass", "count": count}]
    r = client.post(VERIFY, json={"players": ["a", "b"], "turns": turns})
    assert r.status_code == 400, r.json
    assert r.json["field"] == "turns[0].count"
    assert r.json["code"] == ("wrong_shape" if isinstance(count, str | float) else "out_of_range")


def test_field_names_are_the_api_s():
    assert field_name(("turns", 3, "type")) == "turns[3].type"
    assert field_name(("play", "tiles", 0)) == "play.tiles[0]"
    assert field_name(()) == ""


def test_an_object_s_unknown_key_is_named_before_its_values():
    """As the hand checks did: the keys of an object first, then what they hold."""
    error = to_api_error(_errors(ChallengeRequest, {"words": 5, "zzz": 1}))
    assert (error.status, error.code, error.field) == (400, "unknown_field", "zzz")
    error = to_api_error(_errors(ChallengeRequest, {"words": 5}))
    assert (error.code, error.field) == ("wrong_shape", "words")


def _errors(model, data) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return caught.value
