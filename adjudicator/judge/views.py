"""The kiosk page `/judge/<ruleset>`, the set-up page `/judge/`, their assets and the PIN route."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, make_response, render_template

from adjudicator.catalogue import house_refusal, rulesets, served_lexicon
from adjudicator.judge import pin
from adjudicator.judge.config import asset_version, page_config
from adjudicator.pages.headers import security_headers
from adjudicator.pages.render import page
from adjudicator.web import API_PREFIX
from adjudicator.web.access import public_blueprint

# The kiosk's pages and assets hold no word: public. Its rulings go through the API's guard.
bp = public_blueprint(
    Blueprint(
        "judge",
        __name__,
        static_folder="../static/judge",
        static_url_path="/judge/static",
    )
)
bp.after_request(security_headers)
bp.add_url_rule(f"{API_PREFIX}/judge/unlock", "unlock", pin.unlock, methods=["POST"])


def listed_rulesets() -> list[dict]:
    """Every ruleset with its names, language and whether its word list is loaded."""
    return [
        {
            "id": r.id,
            "name": r.name,
            "name_en": r.name_en,
            "language": r.language,
            "mode": r.challenge.mode,
            "available": served_lexicon(r) is not None,
        }
        for _, r in sorted(rulesets().items())
    ]


def judge_page(template: str, status: int = 200, **context: Any) -> Response:
    """A page of the judge's set-up in the visitor's language, with its language switch; its
    assets' URLs carry their version."""
    return page(template, status, version=asset_version(), **context)


@bp.get("/judge/")
def index():
    """Where the kiosk is set up and where it goes when the director leaves it."""
    return judge_page("judge_index.html", rulesets=listed_rulesets())


@bp.get("/judge/<ruleset_id>")
def kiosk(ruleset_id: str):
    if ruleset_id not in rulesets():
        # A house variant (004) in tournament mode: refused, saying so; anything else: unknown.
        house = house_refusal(ruleset_id) is not None
        status = 403 if house else 404
        return judge_page("judge_missing.html", status, ruleset_id=ruleset_id, house=house)
    config = page_config(ruleset_id)
    body = render_template(
        "judge.html",
        config=config,
        t=config["strings"],
        lang=config["ruleset"]["language"],
        version=asset_version(),
    )
    return pin.give_kiosk_device(make_response(body))
