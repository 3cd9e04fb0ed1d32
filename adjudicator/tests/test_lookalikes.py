"""Queries can only spell letters of the language: no look-alike forges a word.

The corpus takes every valid word of each test lexicon and swaps one letter for each of its
look-alikes in Unicode's confusables data (through `confusable_homoglyphs`, which ships it),
then adds the compatibility forms (fullwidth, mathematical, superscript and modifier letters,
long s, ligatures), letters of other scripts, and accented letters the profile does not name.
None may be judged valid, on any path that reads a player's letters: the challenge, the move
engine, the game record and the judge page's own list of accepted characters.
"""

from __future__ import annotations

import unicodedata

import pytest
from confusable_homoglyphs import confusables

from adjudicator.judge.config import word_capitals, word_characters
from adjudicator.tests.conftest import TEST_WORDS
from adjudicator.tests.letters import SAMPLE, TWO_LETTER_CAPITALS
from lexicon.languages import load_profile
from lexicon.normalise import Normaliser

LANGUAGES = {"da": "dsf-2015", "sv": "ssf-1999", "nl": "sbnl-punten", "en": "naspa"}
LEXICON_OF = {language: lexicon_id for lexicon_id, language in TEST_WORDS}
MIN_CORPUS = 300


def _accepted(language: str) -> frozenset[str]:
    return Normaliser(load_profile(language)).query_characters


def _forms(word: str) -> list[str]:
    return [word.lower(), word.upper()]


def confusable_corpus(language: str) -> list[tuple[str, str]]:
    """(variant, the character that must be refused) from Unicode's confusables data."""
    accepted = _accepted(language)
    out: dict[str, str] = {}
    for word in TEST_WORDS[(LEXICON_OF[language], language)]:
        for form in _forms(unicodedata.normalize("NFC", word)):
            for i, letter in enumerate(form):
                for glyph in confusables.confusables_data.get(letter, []):
                    look = glyph["c"]
                    # NFC first: the Kelvin sign is canonically K and the Ångström sign Å,
                    # so they are the letter itself, as NFD input is.
                    foreign = [c for c in unicodedata.normalize("NFC", look) if c not in accepted]
                    if not foreign:
                        continue  # another letter of the language (l for I): not a forgery
                    out.setdefault(form[:i] + look + form[i + 1 :], foreign[0])
    return sorted(out.items())


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _math_bold(text: str) -> str:
    def one(c: str) -> str:
        if "A" <= c <= "Z":
            return chr(0x1D400 + ord(c) - ord("A"))
        if "a" <= c <= "z":
            return chr(0x1D41A + ord(c) - ord("a"))
        return c

    return "".join(one(c) for c in text)


# Hand-made: compatibility forms, other scripts, and accented letters each profile leaves out.
EXTRA = {
    "en": ["ＤＯＧ", "𝐃𝐎𝐆", "ΔΟΓ", "СТАР", "독", "ᴰᴼᴳ", "ﬁle", "ſo", "dıg", "ŐDOG", "ĳs"],
    "sv": ["ｈｅｊ", "𝐡𝐞𝐣", "ʰᵉʲ", "ſpel", "ŐGA", "ŐGON", "ØGON", "ḢEJ", "ﬂ", "Һej"],
    "da": ["ｈｅｊ", "𝐡𝐞𝐣", "ʰᵉʲ", "ſpil", "ŐRD", "ÖRD", "ÄRD", "hеj", "ﬀ", "ǅ"],
    "nl": ["ｋａｔ", "𝐤𝐚𝐭", "ᵏᵃᵗ", "ſpel", "ŐWOORD", "ÅWOORD", "ÿs", "kaτ", "ﬆel"],
}


def _expected_char(text: str, accepted: frozenset[str]) -> str:
    text = unicodedata.normalize("NFC", text)
    return next(c for c in text if c not in accepted)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_corpus_is_large_enough(language):
    assert len(confusable_corpus(language)) >= MIN_CORPUS


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_no_lookalike_is_judged_valid(client, language):
    ruleset = LANGUAGES[language]
    accepted = _accepted(language)
    cases = confusable_corpus(language)
    cases += [(w, _expected_char(w, accepted)) for w in EXTRA[language]]
    originals = TEST_WORDS[(LEXICON_OF[language], language)][:8]
    ok = client.post(f"/api/v1/rulesets/{ruleset}/challenge", json={"words": originals})
    assert ok.json["ruling"] == "valid"  # the words the look-alikes copy are valid
    for variant, char in cases:
        r = client.post(f"/api/v1/rulesets/{ruleset}/challenge", json={"words": [variant]})
        assert r.status_code == 400, (variant, r.json)
        problem = r.json
        assert problem["field"] == "words[0]"
        if char.isalpha() or unicodedata.category(char).startswith("M"):
            assert problem["code"] == "word_has_foreign_letter", (variant, problem)
            assert repr(char) in problem["detail"], (variant, problem)


@pytest.mark.parametrize(
    "language, nfd_ok",
    [("da", "CAFÉ"), ("nl", "COÖRDINATIE"), ("sv", "ALLÉ"), ("en", "HELLO")],
)
def test_the_language_s_own_letters_pass_in_nfc_and_nfd(client, language, nfd_ok):
    ruleset = LANGUAGES[language]
    for form in ("NFC", "NFD"):
        for text in (nfd_ok, nfd_ok.lower()):
            body = {"words": [unicodedata.normalize(form, text)]}
            r = client.post(f"/api/v1/rulesets/{ruleset}/challenge", json=body)
            assert r.status_code == 200 and r.json["ruling"] == "valid", r.json


def test_dutch_ij_ligature_is_named_by_the_profile(client):
    r = client.post("/api/v1/rulesets/sbnl-punten/challenge", json={"words": ["ĳs"]})
    assert r.status_code == 200 and r.json["words"][0]["word"] == "IJS"


@pytest.mark.parametrize("play", ["8H СAT", "8H ＣAT", "8H CAſ", "8H 𝐂AT", "8H CAT\u0301"])
def test_the_move_engine_reads_no_lookalike(client, play):
    r = client.post("/api/v1/rulesets/naspa/moves/validate", json={"play": play})
    assert r.status_code in (200, 400), r.json
    if r.status_code == 200:
        assert not r.json["legal"] and r.json["ruling"] != "valid", r.json


def test_a_rack_and_a_record_read_no_lookalike(client):
    r = client.post(
        "/api/v1/rulesets/naspa/moves/validate", json={"play": "8H CAT", "rack": "ＣATDOGS"}
    )
    assert r.status_code == 200 and not r.json["legal"]
    gcg = "#player1 A A\n#player2 B B\n>A: CATDOGS 8H СAT +10 10\n"
    r = client.post("/api/v1/rulesets/naspa/games/verify", json={"gcg": gcg})
    assert r.status_code in (200, 422), r.json
    if r.status_code == 200:
        play = r.json["turns"][0]
        assert play["ruling"] != "valid" and not play["ok"], play


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_judge_page_accepts_exactly_what_the_query_check_does(language):
    profile = load_profile(language)
    normaliser = Normaliser(profile)
    page = set(word_characters(profile))
    assert page == {c for c in normaliser.query_characters if c == c.upper()}
    # What the page takes as typed: those, and the lower-case ones it shows as their capital.
    capitals = word_capitals(profile)
    assert page | set(capitals) == normaliser.query_characters
    assert all(normaliser.query(c * 2) == normaliser.query(up * 2) for c, up in capitals.items())
    for char in page:
        if char in profile.joiners:  # Dutch - and ': dropped, joining the parts (rules §4.4)
            assert normaliser.query(f"a{char}b") == "AB"
            continue
        assert normaliser.query(char * 2) == normaliser.fold(char) * 2


# --- letters whose capital is two letters (issue 27) -------------------------------------------

# The challenge refuses each (`word_has_foreign_letter`); the engine read their two-letter
# capital as one tile, and scoring failed (500).
GCG_LINE = "#player1 a a\n#player2 b b\n>a: CATDOGS 8H {} +10 10\n"


def test_there_are_about_a_hundred():
    assert 90 <= len(TWO_LETTER_CAPITALS) <= 120 and "ß" in TWO_LETTER_CAPITALS


@pytest.mark.parametrize("char", list(TWO_LETTER_CAPITALS))
def test_a_two_letter_capital_in_a_play_is_a_400_naming_the_field(client, char):
    url = "/api/v1/rulesets/naspa/moves/validate"
    for body, field in (
        ({"play": f"8H CA{char}"}, "play"),
        ({"play": "8H CAT", "plays": [f"8H CA{char}"]}, "plays[0]"),
        ({"play": {"tiles": [{"row": 7, "col": 7, "letter": char}]}}, "play.tiles[0].letter"),
    ):
        r = client.post(url, json=body)
        assert r.status_code == 400, (body, r.json)
        assert r.json["code"] == "bad_notation" and r.json["field"] == field, (body, r.json)
        assert repr(unicodedata.normalize("NFC", char)) in r.json["detail"], r.json
    # The board and the rack already read through the query check: refused, never scored.
    board = ["." * 15] * 7 + [f".......{char}A......"] + ["." * 15] * 7
    r = client.post(url, json={"play": "9H CAT", "board": board})
    assert r.status_code == 400 and r.json["field"] == "board[7]", r.json
    r = client.post(url, json={"play": "8H CAT", "rack": f"CAT{char}"})
    assert r.status_code == 200 and [e["code"] for e in r.json["errors"]] == ["bad-rack"]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("char", SAMPLE)
def test_a_two_letter_capital_in_a_record_names_the_line_or_turn(client, language, char):
    url = f"/api/v1/rulesets/{LANGUAGES[language]}/games/verify"
    r = client.post(url, json={"gcg": GCG_LINE.format(f"CA{char}")})
    assert r.status_code == 422 and r.json["code"] == "bad_record", r.json
    assert r.json["field"] == "gcg" and r.json["detail"].startswith("line 3: "), r.json
    turns = [
        {"player": "a", "type": "pass"},
        {"player": "b", "type": "play", "move": f"8H {char}A", "score": 4},
    ]
    r = client.post(url, json={"players": ["a", "b"], "turns": turns})
    assert r.status_code == 422 and r.json["code"] == "bad_record", r.json
    assert r.json["field"] == "turns[1]", r.json
    # A rack on the line is read as racks are: a deviation in the report, never a 500.
    r = client.post(url, json={"gcg": GCG_LINE.format("CAT").replace("CATDOGS", f"CATDOG{char}")})
    assert r.status_code == 200, r.json


def test_a_letter_the_query_check_refuses_is_refused_in_notation(client):
    """One check for a player's letters: what the challenge refuses, a play cannot spell."""
    url = "/api/v1/rulesets/naspa/moves/validate"
    for char in ("Ж", "ſ", "Ｃ"):
        r = client.post(url, json={"play": f"8H CA{char}"})
        assert r.status_code == 400 and r.json["code"] == "bad_notation", r.json
        assert r.json["field"] == "play" and repr(char) in r.json["detail"]
        challenge = client.post("/api/v1/rulesets/naspa/challenge", json={"words": [f"CA{char}"]})
        assert challenge.status_code == 400, challenge.json
