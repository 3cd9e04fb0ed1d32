"""The directors' *Check a game* page (`/director/games`, on the directors' blueprint): a record
read, walked and disclosed by games/verify's one path (`games.check_game`), shown turn by turn
with its board, or refused beside the record with the code and field the API would name.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Response, request
from markupsafe import Markup

from adjudicator.api.games import check_game
from adjudicator.auth.views import bp, director_page, ruleset_choices
from adjudicator.catalogue import profile_for, ruleset_or_404
from adjudicator.engine import picture
from adjudicator.engine.board import Board
from adjudicator.game import gcg
from adjudicator.messages import Said, said_in
from adjudicator.pages.page_language import request_language
from adjudicator.pages.strings import fill, strings
from adjudicator.problems import DomainError, Problem
from adjudicator.rulesets import Ruleset
from adjudicator.web.access import directors_only
from adjudicator.web.errors import ApiError, as_problem
from adjudicator.web.requests import json_object
from lexicon.limits import RACK_SIZE


def _record_body() -> dict[str, Any]:
    """The form's record as games/verify's body: a GCG text, or the JSON turns it takes. An
    uploaded file wins over the text box; its bytes are read by the GCG rules unless they are
    JSON."""
    upload = request.files.get("file")
    text = request.form.get("record") or ""
    if upload is not None and upload.filename:
        data = upload.read()
        try:
            json_file = data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")
            text = data.decode("utf-8-sig") if json_file else gcg.decode(data, upload.filename)
        except UnicodeDecodeError:
            raise ApiError(Problem.BAD_RECORD, "the JSON file is not UTF-8", "file") from None
        except gcg.GcgError as exc:
            raise ApiError(Problem.BAD_RECORD, str(exc), "file") from None
    if not text.lstrip().startswith("{"):
        return {"gcg": text}
    return json_object(text, "record")


def _checked_view(ruleset: Ruleset, body: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of a record: games/verify's disclosed report (the one path, the one
    gate), the picture of every turn, and each turn's caption for the slider."""
    boards: list[Board] = []
    report = check_game(ruleset, body, boards)
    n = len(report["turns"])
    lang = request_language()
    t = strings(lang)
    for k, turn in enumerate(report["turns"], start=1):
        turn["k"] = k
        turn["caption"] = fill(
            t["dir_check_caption"], k=k, n=n, player=turn["player"], move=turn["move"]
        )
        turn["shown_deviations"] = _shown_deviations(turn, t, lang)
    labels = {code: t[f"board_{code.lower()}"] for code in picture.PREMIUM_CODES}
    svg = picture.game_svg(profile_for(ruleset), boards, title=t["dir_check_board"], labels=labels)
    return {"report": report, "n": n, "svg": Markup(svg), "ruleset": ruleset}


def placement_text(error: dict[str, Any], t: dict[str, str]) -> str:
    """An engine placement error (its code, square and letter) in the page's language."""
    key = "dir_check_placement_" + error["code"].replace("-", "_")
    return fill(
        t[key], square=error["square"] or "—", letter=error["letter"] or "—", most=RACK_SIZE
    )


def _shown_deviations(
    turn: dict[str, Any], t: dict[str, str], lang: str
) -> list[dict[str, str | None]]:
    """A turn's rule deviations as the page shows them: the placement errors (the first of
    `deviations`) and every deviation the game rules say (`Said`) in the page's language; any
    other (none is expected) as it came, marked English."""
    placement = turn["placement_errors"]
    return [{"text": placement_text(e, t), "lang": None} for e in placement] + [
        {"text": said_in(lang, d), "lang": None if isinstance(d, Said) else "en"}
        for d in turn["deviations"][len(placement) :]
    ]


def _check_page(status: int = 200, **shown: Any) -> Response:
    blank = {"chosen": None, "record": "", "game": None, "error": None}
    switch = "auth.check_game_form"
    return director_page(
        "director_check.html", status, switch, rulesets=ruleset_choices(), **blank | shown
    )


@bp.get("/director/games")
@directors_only
def check_game_form():
    return _check_page()


@bp.post("/director/games")
@directors_only
def check_game_page():
    """A record checked as games/verify checks it, for a director: a refusal is shown on the
    page, beside the record, with the code and field the API would name."""
    chosen = request.form.get("ruleset") or ""
    record = request.form.get("record") or ""
    try:
        ruleset = ruleset_or_404(chosen)
        game = _checked_view(ruleset, _record_body())
    except (ApiError, DomainError) as refused:
        # The code, the field and the record's line: the detail is the API's English.
        exc = as_problem(refused)
        line = re.match(r"line (\d+):", exc.message)
        error = {
            "status": exc.status,
            "code": exc.code,
            "field": exc.field,
            "line": line and int(line[1]),
        }
        return _check_page(exc.status, chosen=chosen, record=record, error=error)
    return _check_page(chosen=chosen, record=record, game=game)
