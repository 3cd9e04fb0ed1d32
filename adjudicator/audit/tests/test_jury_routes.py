"""Every route that rules on words counts a labelled player's jury words, or refuses (issue 35,
item 2: with Anna's 10 words used, moves/validate still ruled on any word for her).

The routes are taken from the app's URL map: each whose answer depends on the word list
(`lexicon_dependent`) must be in one of the two tables below, or the test fails and says so,
so a new ruling route cannot be forgotten. A route that takes the labels must count the words
it rules on for that player (and refuse with 409 once they are used up); a route that takes no
labels must refuse them, so no request of it can be a labelled player's query.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator import create_app, store
from adjudicator.auth import keys, store_time
from adjudicator.auth.guard import access_of
from adjudicator.catalogue import rulesets
from adjudicator.store import Store, migrate
from adjudicator.web.access import LEXICON_DEPENDENT

RULESET = "sbnl-punten"  # jury mode, 10 words per player and game
LIMIT = 10
GAME = {"game": "r3-t12"}
GCG = "\n".join(
    ["#player1 Anna Anna", "#player2 Bo Bo", ">Anna: AKTEFGH H7 KAT +10 10", ""]
)  # fmt: skip

# Endpoint → (a body that rules on words, how many words it rules on). Add every new route that
# takes `game` and `player` here.
LABELLED: dict[str, tuple[dict[str, Any], int]] = {
    "challenge.challenge": ({"words": ["kat", "hond"]}, 2),
    # H7 KAT down through the centre, then 10H SO under it: forms KATS and SO
    "moves.validate": ({"plays": ["H7 KAT"], "play": "10H SO"}, 2),
}
# Endpoint → a body that rules on words but takes no labels (a record, no player's query).
UNLABELLED: dict[str, dict[str, Any]] = {
    "games.verify_game": {"gcg": GCG},
    "games.board_picture": {"gcg": GCG},
}
# Endpoints that take the labels but rule on no word: they say how many words are left (the
# kiosk asks before each query, issue 36 item 5), give no verdict and use nothing up.
COUNT_ONLY = {"challenge.jury_words_left"}


@pytest.fixture(params=["open, ADJUDICATOR_JURY_LIMIT=on", "tournament"])
def ask(request, database_url, lexicon_dir):
    """A caller of an event that counts jury words: `ask(endpoint, body)`."""
    migrate.upgrade(Store(database_url))
    config = {"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": database_url}
    if request.param == "tournament":
        app = create_app(config | {"MODE": "tournament"})
        with app.app_context(), store.connection(write=True) as conn:
            key = keys.create(conn, "scorer", "app", [], set(rulesets()), store_time.now()).key
        headers = {"Authorization": f"Bearer {key}"}
    else:
        app = create_app(config | {"JURY_LIMIT": "on"})
        headers = {}
    client = app.test_client()
    paths = {rule.endpoint: rule.rule for rule in app.url_map.iter_rules()}

    def post(endpoint: str, body: dict[str, Any]):
        path = paths[endpoint].replace("<ruleset_id>", RULESET)
        return client.post(path, json=body, headers=headers)

    def get(endpoint: str, query: dict[str, Any]):
        path = paths[endpoint].replace("<ruleset_id>", RULESET)
        return client.get(path, query_string=query, headers=headers)

    post.app = app  # type: ignore[attr-defined]
    post.get = get  # type: ignore[attr-defined]
    return post


def ruling_routes(app) -> list[str]:
    """Every route whose answer depends on the word list (unmarked ones count as such)."""
    return sorted(
        {
            rule.endpoint
            for rule in app.url_map.iter_rules()
            if (access_of(app, rule.endpoint) or LEXICON_DEPENDENT) == LEXICON_DEPENDENT
        }
    )


def use_up(ask, player: str) -> None:
    for _ in range(LIMIT):
        answer = ask("challenge.challenge", {"words": ["woord"], **GAME, "player": player})
        assert answer.status_code == 200, answer.json
    assert answer.json["queries_remaining"] == 0


def test_every_ruling_route_is_known(ask):
    unknown = set(ruling_routes(ask.app)) - set(LABELLED) - set(UNLABELLED) - COUNT_ONLY
    assert not unknown, (
        "these routes rule on words but are in neither table of this test, so nobody has shown"
        f" that they count a player's jury words: {sorted(unknown)}"
    )


@pytest.mark.parametrize("endpoint", sorted(LABELLED))
def test_a_labelled_ruling_counts_the_words_it_rules_on(ask, endpoint):
    body, words = LABELLED[endpoint]
    answer = ask(endpoint, body | GAME | {"player": "Bo"})
    assert answer.status_code == 200, answer.json
    assert answer.json["queries_remaining"] == LIMIT - words
    after = ask("challenge.challenge", {"words": ["woord"], **GAME, "player": "Bo"})
    assert after.json["queries_remaining"] == LIMIT - words - 1  # one count, every route


@pytest.mark.parametrize("endpoint", sorted(LABELLED))
def test_a_labelled_ruling_is_refused_once_the_words_are_used(ask, endpoint):
    use_up(ask, "Anna")
    body, _ = LABELLED[endpoint]
    refused = ask(endpoint, body | GAME | {"player": "anna"})  # her label, spelt another way
    assert refused.status_code == 409, refused.json
    assert refused.json["code"] == "jury_limit_reached"
    assert refused.json["queries_remaining"] == 0
    assert "ruling" not in refused.json and "words" not in refused.json
    other = ask(endpoint, body | GAME | {"player": "Bo"})  # another player still may
    assert other.status_code == 200


@pytest.mark.parametrize("endpoint", sorted(UNLABELLED))
def test_a_route_without_labels_refuses_them(ask, endpoint):
    use_up(ask, "Anna")
    refused = ask(endpoint, UNLABELLED[endpoint] | GAME | {"player": "Anna"})
    assert refused.status_code == 400, refused.json
    assert refused.json["code"] == "unknown_field"


def test_an_unlabelled_validation_is_a_query_as_a_challenge_is(ask):
    """Without game and player: refused in tournament mode (the limit could not be counted),
    answered uncounted in open mode, exactly as a challenge put to the jury."""
    body, _ = LABELLED["moves.validate"]
    validated = ask("moves.validate", body)
    challenged = ask("challenge.challenge", {"words": ["woord"]})
    assert validated.status_code == challenged.status_code
    if validated.status_code == 400:
        assert validated.json["code"] == challenged.json["code"] == "missing_field"
    else:
        assert validated.json["queries_remaining"] is challenged.json["queries_remaining"] is None


@pytest.mark.parametrize("endpoint", sorted(COUNT_ONLY))
def test_a_count_query_gives_no_verdict_and_uses_nothing(ask, endpoint):
    for _ in range(2):
        answer = ask.get(endpoint, GAME | {"player": "Bo"})
        assert answer.status_code == 200, answer.json
        assert answer.json["queries_remaining"] == LIMIT
        assert not {"ruling", "words", "valid"} & set(answer.json)
    after = ask("challenge.challenge", {"words": ["woord"], **GAME, "player": "Bo"})
    assert after.json["queries_remaining"] == LIMIT - 1
