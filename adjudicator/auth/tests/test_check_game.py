"""The directors' "Check a game" page: a record pasted or uploaded, read and disclosed exactly as
games/verify reads and discloses it, shown as the board at every turn beside the turn table."""

from __future__ import annotations

import io
import json
import re

import pytest
from markupsafe import escape

from adjudicator import create_app
from adjudicator.api.check_page import placement_text
from adjudicator.pages.headers import FORM_PAGE_HEADERS as PAGE_HEADERS
from adjudicator.pages.strings import strings
from adjudicator.tests.differential import GCG, TURNS, build_pair

from .conftest import add_director, form_csrf, login

PAGE = "/director/games"


@pytest.fixture
def app(make_app):
    app = make_app(MODE="tournament")
    add_director(app)
    return app


def check(client, ruleset: str = "naspa", record: str = GCG, **extra):
    csrf = form_csrf(client.get(PAGE).get_data(as_text=True))
    data = {"csrf": csrf, "ruleset": ruleset, "record": record, **extra}
    return client.post(PAGE, data=data, content_type="multipart/form-data")


def test_a_directors_page_linked_from_the_home_screen(app, director):
    anonymous = app.test_client().get(PAGE)
    assert anonymous.status_code == 303 and "/director/login" in anonymous.headers["Location"]
    home = director.get("/director/").get_data(as_text=True)
    assert f'id="check-link" href="{PAGE}"' in home
    form = director.get(PAGE)
    assert form.status_code == 200
    html = form.get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in html and 'name="record"' in html
    assert 'type="file" name="file"' in html and '<option value="naspa"' in html
    assert form.headers["Content-Security-Policy"] == PAGE_HEADERS["Content-Security-Policy"]
    assert 'id="game"' not in html


def test_a_record_is_shown_turn_by_turn_as_verify_reports_it(app, director):
    response = check(director)
    assert response.status_code == 200, response.get_data(as_text=True)
    html = response.get_data(as_text=True)
    report = director.post(
        "/api/v1/rulesets/naspa/games/verify", json={"gcg": GCG}, headers={"X-Requested-With": "t"}
    ).json
    n = len(report["turns"])
    assert f'id="turn-slider" min="0" max="{n}" step="1" value="{n}"' in html
    for k, turn in enumerate(report["turns"], start=1):
        row = re.search(rf'<tr id="turn-{k}" data-turn="{k}".*?</tr>', html, re.S).group(0)
        assert f"<code>{turn['move']}</code>" in row
        assert f"{turn['recorded_total']} / {turn['computed_total']}" in row
        placement = turn["placement_errors"]  # the first deviations, in the page's language
        for error in placement:
            shown = str(escape(placement_text(error, strings("en"))))
            assert shown in row
            assert re.search(rf'<li><a href="#turn-{k}" data-turn="{k}">[^<]*</a> <span>'
                             rf"{re.escape(shown)}</span>", html)  # fmt: skip
        for deviation in turn["deviations"][len(placement) :]:  # in the row and listed, linked
            shown = str(escape(deviation))
            assert shown in row
            assert re.search(rf'<li><a href="#turn-{k}" data-turn="{k}">[^<]*</a> <span>'
                             rf"{re.escape(shown)}</span>", html)  # fmt: skip
    assert report["rule_deviations"] and report["score_disagreements"]
    # The board: every tile with its turns; Bo's withdrawn SO (turn 3) is off at the end.
    assert 'data-square="H10" data-from="2" data-until="3" visibility="hidden"' in html
    assert 'data-square="H7" data-from="1"' in html
    assert html.count('class="premium"') == 61
    # Within the pages' CSP: no inline script or style anywhere.
    assert "style=" not in html and "<style" not in html
    assert re.findall(r"<script(?![^>]*\bsrc=)", html) == []
    assert '<script src="/auth/static/board.js" defer>' in html


def test_json_turns_and_an_uploaded_file_take_the_same_path(app, director):
    turns = check(director, record=json.dumps(TURNS))
    assert turns.status_code == 200, turns.get_data(as_text=True)
    assert f'max="{len(TURNS["turns"])}"' in turns.get_data(as_text=True)
    latin1 = GCG.replace("#player1 Ann Ann", "#player1 Ann Åse").replace("Ann", "Åse")
    upload = (io.BytesIO(latin1.encode("latin-1")), "game.gcg")
    uploaded = check(director, record="", file=upload)
    assert uploaded.status_code == 200, uploaded.get_data(as_text=True)
    assert "<td>Åse</td>" in uploaded.get_data(as_text=True)


@pytest.mark.parametrize(
    "ruleset, record, status, code, field",
    [
        ("naspa", "no record here", 422, "bad_record", "gcg"),
        ("naspa", '{"players": ["A", "B"]', 400, "invalid_json", "record"),
        ("naspa", '{"players": ["A", "B"], "turns": [], "x": 1}', 400, "unknown_field", "x"),
        ("nope", GCG, 404, "unknown_ruleset", "ruleset"),
        # Read as games/verify reads a body: a key twice, or nesting past the bound, is refused.
        (
            "naspa",
            '{"players": ["A", "B"], "turns": [], "turns": []}',
            400,
            "duplicate_key",
            "turns",
        ),
        (
            "naspa",
            '{"players": ["A", "B"], "turns": ' + "[" * 200 + "]" * 200 + "}",
            400,
            "too_deep",
            "turns",
        ),
        ("naspa", '{"turns": ' + "[" * 1100 + "]" * 1100 + "}", 400, "too_deep", "$"),
    ],
)
def test_a_refused_record_is_said_on_the_page(director, ruleset, record, status, code, field):
    response = check(director, ruleset, record)
    assert response.status_code == status
    html = response.get_data(as_text=True)
    alert = re.search(r'<div class="error" role="alert" id="check-error">.*?</div>', html, re.S)
    assert alert and f"<code>{code}</code>" in alert.group(0), html
    assert f"field {field}" in alert.group(0)
    assert 'name="record"' in html and 'id="game"' not in html  # the form, to try again


def _page(lexicon_dir, tmp_path, name: str, ruleset: str) -> str:
    app = create_app(
        {
            "TESTING": True,
            "LEXICON_DIR": str(lexicon_dir),
            "DATABASE_URL": f"sqlite:///{tmp_path / f'{name}.db'}",
        }
    )
    add_director(app)
    client = app.test_client()
    assert login(client).status_code == 303
    html = check(client, ruleset).get_data(as_text=True)
    return re.sub(r'name="csrf" value="[^"]+"', "", html)


def test_the_page_discloses_no_more_than_the_rulesets_policy(tmp_path):
    """Two lexicons, each lacking another word of Bo's play: under `play` the pages are the
    same; under `word` (dsf-2015) each names its own missing word, as games/verify does."""
    dir_a, dir_b = build_pair(tmp_path / "lexicons")
    same = [_page(d, tmp_path, f"play-{i}", "naspa") for i, d in enumerate((dir_a, dir_b))]
    assert same[0] == same[1]
    assert "not in the lexicon" not in same[0]
    a, b = (_page(d, tmp_path, f"word-{i}", "dsf-2015") for i, d in enumerate((dir_a, dir_b)))
    assert "ikke i ordlisten" not in a  # the page is in English: no Accept-Language
    assert "not in the lexicon: CATS" in a and "not in the lexicon: SO" in b
