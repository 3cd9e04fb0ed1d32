"""What the kiosk page is told: one JSON block built from the ruleset and its language profile.

The page keeps no rule of its own. The characters a word may contain are the ones the service's
own normaliser accepts (the lexicon's, when it is loaded), the word limits are the normaliser's,
the word count is the ruleset's; the timers are this module's.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from typing import Any

from adjudicator.api.challenge import CHALLENGE_FIELDS
from adjudicator.audit import jury
from adjudicator.bounds import MAX_PIN_CHARS
from adjudicator.catalogue import rulesets, served_lexicon
from adjudicator.game.rules import CONSEQUENCE_KINDS
from adjudicator.judge.layouts import check_layouts, key_letters
from adjudicator.pages.page_language import LANGUAGES
from adjudicator.pages.strings import strings
from adjudicator.problems import Problem
from adjudicator.settings import current_settings
from adjudicator.store.labelforms import LABEL_MAX
from adjudicator.web import API_PREFIX
from lexicon.languages import LanguageProfile, load_profile
from lexicon.limits import MAX_LETTERS, MIN_LETTERS
from lexicon.normalise import Normaliser, query_characters

# The page's timers, in milliseconds (tests shorten them by replacing `TIMERS`).
TIMERS = {
    "result_ms": 10_000,  # how long a verdict stays
    "tap_guard_ms": 500,  # taps ignored after a verdict appears
    # half-typed words are cleared after this long without a touch or key (checking five words
    # against the board takes longer than 15 s), the last 10 s counted down on the screen
    "idle_ms": 60_000,
    "idle_warning_ms": 10_000,
    "lock_ms": 15_000,  # the PIN screen and the unlocked menu lock again after this long idle
    "request_ms": 8_000,  # then the page shows "no answer"
}
# The catalogue's keys only the server says: the director's pages' (`dir_…`), the game rules'
# sentences (a checked record's remarks, placement and rack errors, verdicts), the rulings
# page's consequences, the board's labels, durations and languages' names.
SERVER_ONLY = (
    "dir_", "record_", "placement_", "rack_", "ending_", "overtime_", "exchange_", "pass_",
    "board_", "unit_", "language_of_",
    *(f"consequence_{kind}" for kind in (*CONSEQUENCE_KINDS, "unknown")),
)  # fmt: skip


@cache
def kiosk_strings(language: str) -> dict[str, str]:
    """The strings a kiosk page carries: what only the server says (`SERVER_ONLY`) stays there,
    so every judge page is not many KB heavier with text it never shows."""
    return {k: v for k, v in strings(language).items() if not k.startswith(SERVER_ONLY)}


def word_characters(profile: LanguageProfile) -> str:
    """Every upper-case character the service's query check accepts: the alphabet, then the
    letters its folding map names (Danish É → E, Dutch Ĳ → IJ); never a look-alike."""
    accepted = query_characters(profile)
    extra = sorted(c for c in accepted if c == c.upper() and c not in profile.alphabet)
    return profile.alphabet + "".join(extra)


def word_capitals(profile: LanguageProfile) -> dict[str, str]:
    """Each accepted character that is not itself one of `word_characters`, mapped to the one
    it is shown as (æ → Æ, ĳ → Ĳ): the service's query check reads them alike.

    The page upper-cases by this map and nothing else. Its own case rules would add letters:
    JavaScript's toUpperCase turns long s ſ into S and dotless ı into I, look-alikes the service
    refuses, and would name Ǆ where the service names ǅ. A character outside the map stays as
    typed (ß, ẞ), so the page refuses it naming what the service names.
    """
    accepted = query_characters(profile)
    shown = set(word_characters(profile))
    return {
        c: c.upper()
        for c in sorted(accepted)
        if c not in shown and len(c.upper()) == 1 and c.upper() in shown
    }


@cache
def asset_version() -> str:
    """A digest of the page's assets, so a new release is never served from a stale cache."""
    digest = hashlib.sha256()
    folder = resources.files("adjudicator") / "static" / "judge"
    for name in sorted(p.name for p in folder.iterdir()):
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()[:12]


def _lexicon_shown(identity: dict[str, Any]) -> dict[str, Any]:
    """What the entry screen says of the word list: what a ruling's `lexicon` says too (the
    edition's date where it has one: the edition a ruling now rests on, 000 §2.1)."""
    keys = ("title", "version", "stand_in", "in_force_from")
    return {key: identity[key] for key in keys if key in identity}


def _layouts(language: str, normaliser: Normaliser) -> list[dict]:
    """The keyboards: the lexicon's alphabet, and the keys its language declares beyond it."""
    profile = normaliser.profile
    try:
        declared = load_profile(profile.code)
    except LookupError:  # a lexicon of a language this package does not declare: no extras
        declared = profile
    taken = normaliser.query_characters.__contains__  # what the service's query check takes
    extra = key_letters(declared, taken)
    return check_layouts(language, profile.alphabet, taken, extra)


def page_config(ruleset_id: str) -> dict[str, Any]:
    ruleset = rulesets()[ruleset_id]
    language = ruleset.language if ruleset.language in LANGUAGES else "en"  # the page's
    # The normaliser the challenge endpoint uses: the loaded lexicon's own (its compiled
    # profile). Without the lexicon the page cannot judge, and offers no keys either.
    lexicon = served_lexicon(ruleset)  # the edition a ruling now would rest on
    normaliser = lexicon.normaliser if lexicon is not None else None
    mode = ruleset.challenge.mode
    return {
        "ruleset": {
            "id": ruleset.id,
            "name": ruleset.name,
            "language": language,
            "policy": ruleset.disclosure.policy,
            "mode": mode,
            "max_words": ruleset.challenge.max_words,
            "available": lexicon is not None,
        },
        # The word list a verdict will rest on, shown before it is asked for (as the ruling
        # names it: the same identity, so the two can never differ).
        "lexicon": _lexicon_shown(lexicon.identity()) if lexicon is not None else None,
        # A house variant (004) says so on the entry screen: its list is no tournament's.
        "house": ruleset.house_variant,
        # Tournament mode: the page checks its pairing when it loads (`endpoints.whoami`).
        "service_mode": current_settings().mode,
        "limits": {
            "min_letters": MIN_LETTERS,
            "max_letters": MAX_LETTERS,
            "max_words": ruleset.challenge.max_words,
            "label": LABEL_MAX,  # the jury's player and game, as the challenge takes them
            "pin": MAX_PIN_CHARS,
        },
        "layouts": _layouts(language, normaliser) if normaliser else [],
        "word_characters": word_characters(normaliser.profile) if normaliser else "",
        "word_capitals": word_capitals(normaliser.profile) if normaliser else {},
        # The words a player may put to the jury in a game, where this event counts them (None
        # where it does not: a home or club game in open mode), as the service enforces it.
        "jury": {"submissions_per_player": jury.limit_for(ruleset)} if mode == "jury" else None,
        # The fields the challenge endpoint takes: the page sends the jury's player and game
        # once the endpoint accepts them (the tournament store), and only then.
        "challenge_fields": sorted(CHALLENGE_FIELDS),
        "timers": dict(TIMERS),
        "endpoints": {
            "challenge": f"{API_PREFIX}/rulesets/{ruleset.id}/challenge",
            # the jury's words left, read before a query (api/challenge.py: jury_words_left)
            "jury_left": f"{API_PREFIX}/rulesets/{ruleset.id}/jury",
            "unlock": f"{API_PREFIX}/judge/unlock",
            "kiosk": "/judge/",
            "whoami": f"{API_PREFIX}/auth/whoami",
            "pair": f"/judge/pair?lang={language}",
        },
        "strings": kiosk_strings(language),
        # The problem codes the scripts branch on, as `Problem.NAME` (config.js): from the one
        # declaration, so a script cannot spell a code the service does not send.
        "problems": {problem.name: problem.value for problem in Problem},
    }
