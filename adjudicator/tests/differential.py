"""The differential disclosure test's requests, shared by the in-process and the HTTP test.

Two lexicons per language, each lacking a different word of one play (A lacks CATS, B lacks
SO; the play 10H SO beside CAT forms both). Every route the app registers is sent requests
(built here per endpoint) under every ruleset; under the `play` policy the two answers must be
byte-identical once ruling ids and the lexicons' checksums are set aside. Under the `word`
policy the same requests must differ, which shows that the requests do reach the lexicon.

A route the registry below does not know fails the test, with a message saying to add it: a new
endpoint cannot be forgotten.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werkzeug.http import generate_etag, quote_etag

from adjudicator.judge.pin import KIOSK_COOKIE
from adjudicator.tests.conftest import HOUSE_FILTERS, HOUSE_LEXICON, build_lexicon

# Bundled lexicon ids, so the bundled rulesets resolve to them.
LEXICON_IDS = {"da": "wdanish", "sv": "wswedish", "nl": "wdutch", "en": "wamerican-huge"}
COMMON = ["cat", "dog", "hej", "ord", "tile", "spel"]
MISSING_IN_A = "cats"  # the cross-word of 10H SO after H7 CAT
MISSING_IN_B = "so"  # its main word
PIN = "2718"


def build_pair(root: Path) -> tuple[Path, Path]:
    """Lexicon folders A and B: the same words but for one word of the play each."""
    for side, words in (("a", [MISSING_IN_B]), ("b", [MISSING_IN_A])):
        for language, lexicon_id in LEXICON_IDS.items():
            build_lexicon(root / side, lexicon_id, language, COMMON + words)
        # the house variant's build (dk-home-egennavne, 004), so that every ruleset serves
        build_lexicon(root / side, HOUSE_LEXICON, "da", COMMON + words, HOUSE_FILTERS)
    return root / "a" / "lexicons", root / "b" / "lexicons"


NEXT = "-next"  # the edition in force, the same in A and B (a second opinion, 39.2)


def build_edition_pair(root: Path) -> tuple[Path, Path, Path]:
    """A second opinion's differential: in A and B the edition in force (`<id>-next`, in force
    since 2020) is the same list, holding both words of the play; the previous edition (the
    bundled id, with no date) is A's or B's of `build_pair`, each lacking one. A ruling rests on
    the first, so anything but the directors' page must be identical; the page tells them
    apart. Returns A's and B's lexicon folders and the ruleset folder naming the editions."""
    from adjudicator.rulesets import load_rulesets
    from adjudicator.tests.test_editions import build_edition

    dir_a, dir_b = build_pair(root)
    for side in (dir_a, dir_b):
        for language, lexicon_id in LEXICON_IDS.items():
            words = COMMON + [MISSING_IN_A, MISSING_IN_B]
            build_edition(side.parent, lexicon_id + NEXT, words, "2020-01-01", language)
        words = COMMON + [MISSING_IN_A, MISSING_IN_B]  # the house variant's edition too (004)
        build_lexicon(side.parent, HOUSE_LEXICON + NEXT, "da", words, HOUSE_FILTERS, "2020-01-01")
    rulesets = root / "rulesets"
    rulesets.mkdir()
    (rulesets / "lexicons.toml").write_text(
        "".join(
            f'{r.id} = ["{r.lexicon}", "{r.lexicon}{NEXT}"]\n' for r in load_rulesets().values()
        ),
        encoding="utf-8",
    )
    return dir_a, dir_b, rulesets


def checksums(folder: Path) -> list[str]:
    return [json.loads(p.read_text())["marisa"]["sha256"] for p in sorted(folder.glob("*.json"))]


@dataclass(frozen=True)
class Req:
    method: str
    path: str
    json: Any = None
    query: dict[str, str] = field(default_factory=dict)
    data: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def label(self) -> str:
        return f"{self.method} {self.path} {self.query or ''} {json.dumps(self.json)[:60]}"


# --- the plays -------------------------------------------------------------------------------

FIRST = "H7 CAT"  # down, through the centre
BOTH = "10H SO"  # S under CAT makes CATS, O beside it: SO
BOARD = ["." * 15] * 6 + ["." * 7 + c + "." * 7 for c in "CAT"] + ["." * 15] * 6
TILES = [
    {"row": 9, "col": 7, "letter": "S"},
    {"row": 9, "col": 8, "letter": "O"},
]

GCG = "\n".join(
    [
        "#player1 Ann Ann",
        "#player2 Bo Bo",
        ">Ann: ACTDEFG H7 CAT +10 10",
        ">Bo: SOXYZLM 10H SO +9 9",
        ">Bo: SOXYZLM -- -9 0",
        ">Ann: DEFGSOL 10H SO +9 19",
        ">Bo: XYZLMNP (challenge) +0 0",
        ">Bo: XYZLMNP 10H so +0 0",
        "",
    ]
)
TURNS = {
    "players": ["Ann", "Bo"],
    "turns": [
        {"player": "Ann", "type": "play", "move": "H7 CAT", "score": 10},
        {"player": "Bo", "type": "play", "move": "10H SO", "score": 9},
        {"player": "Bo", "type": "withdrawn", "score": -9},
        {"player": "Ann", "type": "play", "move": "10H SO", "score": 9},
        {"player": "Bo", "type": "challenge", "score": 0},
    ],
}


def _challenge(path: str) -> list[Req]:
    words = [["cats", "so"], ["SO", "CATS"], ["so", "cats", "cat"], ["cat", "Cats", "sO"]]
    return [Req("POST", path, {"words": w}) for w in words]


def _validate(path: str) -> list[Req]:
    return [
        Req("POST", path, {"plays": [FIRST], "play": BOTH}),
        Req("POST", path, {"board": BOARD, "play": BOTH, "rack": "SOABCDE"}),
        Req("POST", path, {"board": BOARD, "play": {"tiles": TILES}}),
        Req("POST", path, {"plays": [FIRST], "play": "10H so"}),  # blanks
    ]


def _verify(path: str) -> list[Req]:
    return [Req("POST", path, {"gcg": GCG}), Req("POST", path, TURNS)]


def _board(path: str) -> list[Req]:
    """The picture: of a record at the play of both words (its caption carries the ruling as
    games/verify discloses it), at the end, and of positions (no word is looked up)."""
    return [
        Req("POST", path, {"gcg": GCG, "turn": 2}),
        Req("POST", path, {"gcg": GCG}),
        Req("POST", path, {**TURNS, "turn": 4}),
        Req("POST", path, {"plays": [FIRST, BOTH]}),
        Req("POST", path, {"board": BOARD}),
    ]


def _final(path: str) -> list[Req]:
    body = {
        "players": [{"name": "Ann", "score": 300, "rack": "CATS"}, {"name": "Bo", "score": 290}],
        "ending": "out",
        "went_out": "Bo",
    }
    return [Req("POST", path, body)]


def _exchange(path: str) -> list[Req]:
    return [Req("GET", path, query={"bag": "20", "turn": "5", "previous_placed": "true"})]


def _draw(path: str) -> list[Req]:
    # no word is involved: the answer may not differ between the two lexicons at all
    return [
        Req(
            "POST",
            path,
            {"players": ["Ann", "Bo"], "draws": [{"Ann": "C", "Bo": "C"}, {"Ann": "S", "Bo": "O"}]},
        )
    ]


def _get(path: str) -> list[Req]:
    return [Req("GET", path)]


def _unlock(path: str) -> list[Req]:
    return [Req("POST", path, {"pin": PIN}), Req("POST", path, {"pin": "0000"})]


def _form(fields: dict[str, str], **headers: str) -> Callable[[str], list[Req]]:
    """A form POST (the directors' and pairing pages); `<int:…>` path parts become 1."""
    from urllib.parse import urlencode

    data = urlencode(fields).encode()
    kind = {"Content-Type": "application/x-www-form-urlencoded", **headers}
    return lambda path: [
        Req("POST", re.sub(r"<int:\w+>", "1", path), data=data, headers=kind),
        Req("POST", re.sub(r"<int:\w+>", "1", path), data=b"", headers=kind),
    ]


def _static(files: tuple[str, ...]) -> Callable[[str], list[Req]]:
    return lambda prefix: [Req("GET", prefix.replace("<path:filename>", f)) for f in files]


# Endpoint → the requests it gets, given its path with the ruleset filled in. Add every new
# endpoint here, with requests that form both words of the play where it takes any.
REGISTRY: dict[str, Callable[[str], list[Req]]] = {
    "static": _static(("judge/judge.css", "nothing-here.txt")),
    "judge.static": _static(("judge.css", "main.js", "words.js")),
    "meta.healthz": _get,
    "meta.readyz": _get,
    "meta.openapi": _get,
    "lexicons.list_lexicons": _get,
    "challenge.list_rulesets": _get,
    "challenge.get_ruleset": _get,
    "challenge.challenge": _challenge,
    "challenge.jury_words_left": lambda path: [
        Req("GET", path, query={"game": "g1", "player": "Ann"}),
        Req("GET", path),
    ],
    "moves.validate": _validate,
    "games.exchange_allowed": _exchange,
    "games.final_score_route": _final,
    "games.verify_game": _verify,
    "games.board_picture": _board,
    "games.draw_order_route": _draw,
    "judge.index": _get,
    "judge.kiosk": _get,
    "judge.unlock": _unlock,
    "auth.static": _static(("auth.css", "pair.js")),
    "auth.whoami": _get,
    "auth.login_form": _get,
    # From another site: refused before the store is asked, so no lockout builds up.
    "auth.login": _form({"name": "anna", "password": "x"}, Origin="http://elsewhere.example"),
    "auth.logout": _form({"csrf": "-"}),
    "auth.home": _get,
    "auth.new_pairing": _form({"csrf": "-", "name": "Table 1", "ruleset": "ssf-1999"}),
    "auth.revoke_device": _form({"csrf": "-"}),
    "auth.devices_state_json": _get,
    "auth.pairing_state_json": lambda path: [Req("GET", re.sub(r"<int:\w+>", "1", path))],
    "auth.clear_pin_lockouts": _form({"csrf": "-"}),
    "auth.check_game_form": _get,
    "auth.check_game_page": _form({"csrf": "-", "ruleset": "naspa", "record": GCG}),
    "auth.accounts": _get,
    "auth.create_key": _form({"csrf": "-", "name": "scorer", "scope": "ssf-1999"}),
    "auth.revoke_key": _form({"csrf": "-"}),
    "auth.add_director": _form(
        {"csrf": "-", "name": "bo", "password": "x" * 12, "password_again": "x" * 12}
    ),
    "auth.pair_form": _get,
    "auth.pair": _form({"code": "ABCD-EFGH"}, Origin="http://elsewhere.example"),
    # Directors only: an anonymous request is refused before the log is read.
    "audit.rulings_json": _get,
    "audit.rulings_page": _get,
    "audit.rulings_export": lambda path: [
        Req("GET", path, query={"format": "csv", "lang": "da"}),
        Req("GET", path, query={"format": "xlsx", "word": "so"}),
    ],
    "landing.landing": _get,
    # Every two-letter word (SO in A, not in B): see CARD below.
    "card.two_letter_card": lambda path: [Req("GET", path), Req("GET", path, query={"size": "a5"})],
}

# The two-letter card (adjudicator/judge/card.py) lists words by the ruleset's choice: where its
# `[card]` is `public` (003: "een lijstje met tweeletterwoorden ligt op elke speeltafel") anyone
# is meant to read them, so there the two lexicons' cards must differ; under every other
# ruleset an anonymous caller must learn nothing, like from any other route.
CARD = "card.two_letter_card"


def card_is_public(app, ruleset_id: str) -> bool:
    ruleset = app.extensions["rulesets"].get(ruleset_id)
    return ruleset is not None and ruleset.card.two_letter and ruleset.card.public


def requests_for(app, ruleset_ids: list[str]) -> tuple[list[tuple[str, str, Req]], list[str]]:
    """(ruleset, endpoint, request) for every route of `app`, and the routes nobody registered.

    A route with a `<ruleset_id>` is sent its requests once per ruleset in `ruleset_ids`; any
    other route once (under the ruleset '-'). Every method a route allows is sent: HEAD and
    OPTIONS bare, the others as the registry builds them.
    """
    out: list[tuple[str, str, Req]] = []
    unknown: list[str] = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: (r.rule, r.endpoint)):
        build = REGISTRY.get(rule.endpoint)
        if build is None:
            unknown.append(f"{rule.endpoint} ({rule.rule})")
            continue
        per_ruleset = "<ruleset_id>" in rule.rule
        for ruleset in ruleset_ids if per_ruleset else ["-"]:
            path = rule.rule.replace("<ruleset_id>", ruleset)
            built = build(path)
            for method in sorted(rule.methods or ()):
                if method in ("HEAD", "OPTIONS"):
                    out += [(ruleset, rule.endpoint, Req(method, r.path, query=r.query))
                            for r in built[:1]]  # fmt: skip
                else:
                    mine = [r for r in built if r.method == method]
                    if not mine:
                        unknown.append(f"{rule.endpoint} ({method} {rule.rule}): no request")
                    out += [(ruleset, rule.endpoint, r) for r in mine]
    return out, unknown


UNKNOWN_ROUTES = (
    "these routes have no entry in adjudicator/tests/differential.py REGISTRY, so the "
    "disclosure test cannot prove they keep a play's failing word secret; add requests for "
    "them (forming both words of the play where the route takes any): "
)

_RULING_ID = re.compile(rb'"ruling_id":"[0-9a-f]{32}"')
# The kiosk's device id (judge.pin.KIOSK_COOKIE): random per tablet, whatever the lexicon.
_KIOSK_ID = re.compile(rf"^{KIOSK_COOKIE}=[^;]*")
_EXPIRES = re.compile(r"Expires=[^;]*")


def normalise(body: bytes, sums: list[str]) -> bytes:
    """Set aside what must differ: the random ruling ids and the lexicons' checksums."""
    body = _RULING_ID.sub(b'"ruling_id":"-"', body)
    for s in sums:
        body = body.replace(s.encode(), b"<sha256>")
    return body


def comparable(status: int, headers: list[tuple[str, str]], body: bytes, sums: list[str]):
    """What must be identical: status, every header but Date (in order), the body."""
    kept = []
    for k, v in headers:
        if k.lower() == "date":
            continue
        if k.lower() == "set-cookie":
            v = _KIOSK_ID.sub(f"{KIOSK_COOKIE}=<random>", v)
            # the clock's second when each answered (Max-Age, compared, says the same span)
            v = _EXPIRES.sub("Expires=<when answered + Max-Age>", v)
        if k.lower() == "etag" and (not body or v == quote_etag(generate_etag(body))):
            # An ETag that is the digest of the whole body (lexicon checksums included) can
            # differ only as the body does, which is compared below: set aside with the
            # checksums. A HEAD answer has no body; the GET of the same route is checked. Any
            # other ETag (a static file's) is compared as it is.
            v = "<digest of the body>"
        kept.append((k.lower(), v))
    return status, kept, normalise(body, sums)
