"""Jury labels against a real gunicorn in tournament mode (issue 35, item 1): the attack as it was
made. After Anna's 10 words under sbnl-punten, `Anna` with a variation selector, a Hangul filler
or a combining grapheme joiner after it, or the game with a Unicode hyphen or minus for `-`, got
a fresh allowance, and the director's page showed the same name. Now such a character is refused
(400, naming it), a look-alike dash counts as `-`, and the log shows each label in its profile's
form.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from api_tests.conftest import Server, director_login, start_server, store_cli

pytestmark = pytest.mark.slow  # a server of its own

JURY = "/rulesets/sbnl-punten/challenge"
PASSWORD = "correct horse battery"
DIRECTOR = {"X-Forwarded-For": "10.0.0.1", "X-Requested-With": "x"}


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[tuple[Server, str, str]]:
    folder = tmp_path_factory.mktemp("labels-gunicorn")
    database = f"sqlite:///{folder / 'store.db'}"
    assert store_cli(database, "db", "upgrade").returncode == 0
    made = store_cli(database, "directors", "add", "dir", "--password-stdin", stdin=PASSWORD)
    assert made.returncode == 0, made.stderr
    key = store_cli(database, "keys", "create", "--role", "app", "--name", "tablet")
    assert key.returncode == 0, key.stderr
    server = start_server(
        folder,
        ADJUDICATOR_DATABASE_URL=database,
        ADJUDICATOR_MODE="tournament",  # sbnl-punten counts jury queries at tournaments
        ADJUDICATOR_RATE_RULINGS_PER_MINUTE="1000",
        ADJUDICATOR_TRUSTED_PROXIES="1",
    )
    yield server, key.stdout.strip(), database
    server.stop()


def use_all(server: Server, key: str, game: str, player: str) -> None:
    """Anna puts her 10 words to the jury in `game`."""
    for words, left in ((5, 5), (5, 0)):  # a query is at most 8 words
        answer = ask(server, key, game, player, words=words)
        assert answer.status_code == 200, answer.text
        assert answer.json()["queries_remaining"] == left, answer.text


def ask(server: Server, key: str, game: str, player: str, words: int = 1) -> requests.Response:
    body = {"words": ["woord"] * words, "game": game, "player": player}
    auth = {"Authorization": f"Bearer {key}"}
    return requests.post(server.api(JURY), json=body, headers=auth, timeout=10)


@pytest.mark.parametrize(
    ("player", "named"),
    [
        ("Anna\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
        ("Anna\u3164", "U+3164 HANGUL FILLER"),
        ("Anna\u115f", "U+115F HANGUL CHOSEONG FILLER"),
        ("Anna\uffa0", "U+FFA0 HALFWIDTH HANGUL FILLER"),
        ("Anna\u034f", "U+034F COMBINING GRAPHEME JOINER"),
        ("An\u200bna", "U+200B ZERO WIDTH SPACE"),
    ],
)
def test_an_invisible_character_after_the_name_is_refused_naming_it(served, player, named):
    server, key, _ = served
    game = f"g-{named[2:6]}"
    use_all(server, key, game, "Anna")
    refused = ask(server, key, game, player)
    assert refused.status_code == 400, refused.text
    problem = refused.json()
    assert problem["code"] == "label_disallowed_character" and problem["field"] == "player"
    assert named in problem["detail"]
    assert f"{problem['character']} {problem['character_name']}" == named
    assert "ruling" not in problem


@pytest.mark.parametrize("dash", ["\u2010", "\u2011", "\u2013", "\u2212", "\ufe63", "\uff0d"])
def test_a_game_spelt_with_another_dash_is_the_same_game(served, dash):
    server, key, _ = served
    game = f"R{ord(dash)}-T12"
    use_all(server, key, game, "Anna")
    again = ask(server, key, game.replace("-", dash), "Anna")
    assert again.status_code == 409 and again.json()["code"] == "jury_limit_reached", again.text
    assert again.json()["queries_remaining"] == 0


def test_the_directors_log_shows_each_label_in_its_profiles_form(served):
    server, key, _ = served
    assert ask(server, key, "R9\u2010T1", "\uff21nna  de\u00a0Vries").status_code == 200
    director = director_login(server, "dir", PASSWORD, DIRECTOR)
    found = director.get(server.api("/audit/rulings?q=vries"), timeout=10).json()["rulings"]
    assert [(r["game"], r["player"]) for r in found] == [("R9-T1", "Anna de Vries")]
    answer = ask(server, key, "R9-T1", "anna de vries", words=8)
    assert answer.json()["queries_remaining"] == 1, answer.text
