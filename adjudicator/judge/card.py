"""The two-letter card for the tables (003 Verloop van het spel: "een lijstje met
tweeletterwoorden ligt op elke speeltafel"): every two-letter word of a ruleset's lexicon on one
printed page, A4 or A5 (`?size=a5`), in the ruleset's language, the lexicon's edition (title,
version, sha256 prefix) and the date in the footer.

Only a ruleset whose `[card]` table asks for one has a card (`two_letter`). A list of all
two-letter words discloses words, so it is served to a director always and to anyone else only
where the ruleset says so (`public`: 003 puts it on every table), or in open mode under the
`word` policy, where anyone may ask for each word's verdict anyway. Anyone else is sent to the
directors' login, as the directors' pages send them.
"""

from __future__ import annotations

from datetime import date

from flask import Blueprint, render_template, url_for

from adjudicator.auth.guard import _director_required, identify
from adjudicator.catalogue import lexicon_for, ruleset_or_404
from adjudicator.pages.headers import security_headers
from adjudicator.pages.strings import fill, strings
from adjudicator.problems import Problem
from adjudicator.rulesets import Ruleset
from adjudicator.settings import current_settings
from adjudicator.web.access import public
from adjudicator.web.errors import ApiError
from adjudicator.web.requests import query_args
from lexicon.artifact import Lexicon

bp = Blueprint("card", __name__)
bp.after_request(security_headers)

SIZES = ("a4", "a5")
SHA_PREFIX = 12  # enough to tell builds apart on paper


def card_served(ruleset: Ruleset, director: bool, tournament: bool) -> bool:
    """Whether this caller may have the ruleset's card (the module's docstring)."""
    if not ruleset.card.two_letter:
        return False
    if director or ruleset.card.public:
        return True
    return not tournament and ruleset.disclosure.policy == "word"


def two_letter_words(lexicon: Lexicon) -> list[str]:
    """Every two-letter word of the lexicon, in its alphabet's order (Danish Æ Ø Å last)."""
    sha256 = lexicon.manifest["marisa"]["sha256"]
    words = _BY_BUILD.get(sha256)
    if words is None:
        alphabet = lexicon.profile.alphabet
        words = [a + b for a in alphabet for b in alphabet if a + b in lexicon]
        _BY_BUILD[sha256] = words
    return words


_BY_BUILD: dict[str, list[str]] = {}  # by the trie's sha256: a new build is a new entry


@bp.get("/rulesets/<ruleset_id>/two-letter-card")
@public  # the view decides, by the ruleset: a public card needs no store lookup
def two_letter_card(ruleset_id: str):
    ruleset = ruleset_or_404(ruleset_id)
    if not ruleset.card.two_letter:
        raise ApiError(Problem.NOT_FOUND, f"ruleset {ruleset.id!r} asks for no two-letter card")
    tournament = current_settings().tournament
    if not card_served(ruleset, False, tournament):  # only then is the store asked who it is
        if not card_served(ruleset, identify().kind == "director", tournament):
            return _director_required()
    # `lang` as every page takes it; the card itself is in the ruleset's language.
    size = query_args(("size", "lang")).get("size", "a4")
    if size not in SIZES:
        raise ApiError(Problem.OUT_OF_RANGE, f"'size' must be one of {list(SIZES)}", "size")
    lexicon = lexicon_for(ruleset)
    words = two_letter_words(lexicon)
    identity = lexicon.identity()
    in_force = lexicon.manifest.get("in_force_from")  # an edition's date, where the build has one
    t = strings(ruleset.language)
    return render_template(
        "two_letter_card.html",
        t=t,
        lang=ruleset.language,
        ruleset=ruleset,
        size=size,
        words=words,
        title=fill(t["card_title"], n=len(words)),
        edition=fill(
            t["card_edition"],
            title=identity["title"],
            version=identity["version"],
            sha256=identity["sha256"][:SHA_PREFIX],
        ),
        in_force=fill(t["card_in_force"], date=in_force) if in_force else None,
        printed=fill(t["card_printed"], date=date.today().isoformat()),
        stand_in=identity["stand_in"],
        other_size=url_for(
            "card.two_letter_card", ruleset_id=ruleset.id, size="a5" if size == "a4" else "a4"
        ),
    )
