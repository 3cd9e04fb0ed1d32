"""A request refused on the way uses up none of a device's or key's rulings, on every route that
counts them (issue 35, item 8: 20 malformed `games/board` requests locked a tablet out for a
minute, while games/verify's refusals already cost nothing).

The routes are taken from the app's URL map: every route the rate limit counts (in tournament
mode, `lexicon_dependent`) must be in the table below, or the test fails and says so.
"""

from __future__ import annotations

import pytest

from adjudicator.auth.guard import access_of
from adjudicator.auth.tests.conftest import add_key, bearer
from adjudicator.web.access import COUNTED_WHEN_ANSWERED, LEXICON_DEPENDENT, NOT_A_RULING, RULES

RULESET = "dsf-2015"
LIMIT = 3  # the `tournament` fixture's rulings a minute
MALFORMED = [{}, {"nonsense": 1}, {"words": 5}, {"board": "x"}, {"gcg": 7}]
# Endpoint → a body it answers.
ANSWERED = {
    "challenge.challenge": {"words": ["kat"]},
    "moves.validate": {"play": "8H KAT"},
    "games.verify_game": {"players": ["A", "B"], "turns": [{"player": "A", "type": "pass"}]},
    "games.board_picture": {"plays": ["8H KAT"]},
}


def counted_routes(app) -> dict[str, str]:
    """The routes the rate limit counts: those needing a credential, but the reads marked
    `not_a_ruling` (the jury kiosk's words-left query), which it never counts."""
    return {
        rule.endpoint: rule.rule.replace("<ruleset_id>", RULESET)
        for rule in app.url_map.iter_rules()
        if (access_of(app, rule.endpoint) or LEXICON_DEPENDENT) == LEXICON_DEPENDENT
        and not getattr(app.view_functions[rule.endpoint], NOT_A_RULING, False)
    }


def test_every_counted_route_is_known_and_counts_only_once_answered(tournament):
    routes = counted_routes(tournament)
    assert set(routes) == set(ANSWERED), (
        "add each route the rate limit counts to ANSWERED in this test, with a body it answers"
    )
    for endpoint in routes:
        view = tournament.view_functions[endpoint]
        assert getattr(view, RULES, False) or getattr(view, COUNTED_WHEN_ANSWERED, False), (
            f"{endpoint} is counted before it runs: mark it @rules or @counted_when_answered"
        )


@pytest.mark.parametrize("endpoint", sorted(ANSWERED))
def test_malformed_requests_use_up_no_ruling(tournament, endpoint):
    key = add_key(tournament)
    client = tournament.test_client()
    path = counted_routes(tournament)[endpoint]
    for _ in range(4):
        for body in MALFORMED:
            refused = client.post(path, json=body, headers=bearer(key))
            assert refused.status_code == 400, refused.get_data(as_text=True)
    statuses = [
        client.post(path, json=ANSWERED[endpoint], headers=bearer(key)).status_code
        for _ in range(LIMIT + 1)
    ]
    assert statuses == [200] * LIMIT + [429]
