"""Labels under their PRECIS profiles, tested over whole classes of Unicode (issue 35 item 1).

Each class is derived, not listed: Default_Ignorable_Code_Point and the Dash and Script
properties from the `regex` module's Unicode data (Python's unicodedata has none of them),
categories and names from unicodedata, every code point tried. A character of an invisible
class is refused naming it, in every label; every dash reads as `-`; a letter of another
script among Latin letters is refused.
"""

from __future__ import annotations

import itertools
import sys
import unicodedata

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import create_app
from adjudicator.audit.labels import FIELDS, LabelError, check_label
from adjudicator.problems import Problem
from adjudicator.store import Store, labelforms, migrate

JURY = "/api/v1/rulesets/sbnl-punten/challenge"
GAMES = itertools.count()  # each example its own game: Hypothesis may repeat an example
ALL = [chr(cp) for cp in range(sys.maxunicode + 1) if not 0xD800 <= cp <= 0xDFFF]


def _assigned(char: str) -> bool:
    """Known to this Python's Unicode (the `regex` module may know a newer one)."""
    return unicodedata.category(char) != "Cn"


def _having(prop: str) -> list[str]:
    pattern = regex.compile(rf"\p{{{prop}}}")
    return [c for c in ALL if pattern.match(c)]


DEFAULT_IGNORABLE = _having("Default_Ignorable_Code_Point")
DASHES = [c for c in _having("Dash") if _assigned(c)]
PD = [c for c in ALL if unicodedata.category(c) == "Pd"]
MINUS = [c for c in ALL if unicodedata.normalize("NFKC", c) == "\u2212"]
FILLERS = [c for c in ALL if regex.search(r"HANGUL .*FILLER$", unicodedata.name(c, ""))]
CONTROLS = [c for c in ALL if unicodedata.category(c) == "Cc"]
SPACES = [c for c in ALL if unicodedata.category(c) == "Zs"]
DIGITS = [c for c in ALL if unicodedata.category(c) == "Nd"]
INVISIBLE = sorted(set(DEFAULT_IGNORABLE) | set(FILLERS))


def refused_naming(field: str, value: str) -> dict:
    with pytest.raises(LabelError) as raised:
        check_label(field, value)
    error = raised.value
    assert error.code == Problem.LABEL_DISALLOWED_CHARACTER and error.field == field, error
    return error.extra


def test_the_classes_are_what_unicode_says():
    assert len(DEFAULT_IGNORABLE) == 4174  # DerivedCoreProperties.txt, Unicode 14 to 17
    assert {"\u034f", "\ufe0f", "\u115f", "\u3164", "\uffa0", "\u200b"} <= set(INVISIBLE)
    assert set(FILLERS) == {"\u115f", "\u1160", "\u3164", "\uffa0"}
    assert len(PD) >= 25 and {"\u2212", "\u207b", "\u208b"} <= set(MINUS)


@pytest.mark.parametrize("field", FIELDS)
def test_every_invisible_character_is_refused_naming_it(field):
    """Default_Ignorable_Code_Point and the Hangul fillers, at the end of a name or inside it:
    refused with the character named (`U+FE0F VARIATION SELECTOR-16`), never dropped."""
    for char in INVISIBLE:
        for value in (f"Anna{char}", f"An{char}na", f"{char}R3"):
            named = refused_naming(field, value)
            assert named["character"] == f"U+{ord(char):04X}", (value, named)
            assert named["character_name"] == unicodedata.name(char, named["character_name"])


@pytest.mark.parametrize("field", FIELDS)
def test_every_control_character_is_refused_naming_it(field):
    for char in CONTROLS:
        if char in SPACES:
            continue
        assert refused_naming(field, f"An{char}na")["character"] == f"U+{ord(char):04X}"


def test_every_dash_and_minus_sign_is_a_hyphen_minus():
    """Unicode's Dash property, the Pd category and the minus signs: each is `-`, in an
    identifier and in a name, however it is spelt around it."""
    for dash in sorted(set(DASHES) | set(PD) | set(MINUS)):
        assert labelforms.key("game", f"R3{dash}T12") == "r3-t12", dash
        assert labelforms.key("round", f"7{dash}B") == "7-b", dash
        assert labelforms.key("player", f"Anna{dash}Lise") == "anna-lise", dash
        assert check_label("game", f"R3{dash}T12") == "R3-T12", dash


def test_every_space_is_one_space_and_none_at_the_ends():
    for space in SPACES:
        for field in FIELDS:
            assert labelforms.key(field, f"{space}NK{space}{space}27{space}") == "nk 27", space


def test_every_decimal_digit_is_its_ascii_digit():
    for digit in DIGITS:
        expected = f"r{unicodedata.decimal(digit)}-t1"
        assert labelforms.key("game", f"R{digit}-T1") == expected, digit
        assert labelforms.key("player", f"R{digit}-T1") == expected, digit


# --- scripts --------------------------------------------------------------------------------

_SCRIPT = regex.compile(r"\p{Script=Latin}")
LATIN = [
    c
    for c in ALL
    if unicodedata.category(c) in ("Lu", "Ll")
    and _SCRIPT.match(c)
    and unicodedata.normalize("NFKC", c) == c
]
# Letters of a script never written with Latin (UTS #39: Latin goes with Han, Hiragana,
# Katakana, Bopomofo and Hangul), one script each (no Common or Inherited), in their NFKC form.
_NOT_WITH_LATIN = regex.compile(
    r"[\p{L}--[\p{Script_Extensions=Latin}\p{Script_Extensions=Common}"
    r"\p{Script_Extensions=Inherited}\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}"
    r"\p{Script_Extensions=Katakana}\p{Script_Extensions=Bopomofo}\p{Script_Extensions=Hangul}]]",
    regex.V1,
)
FOREIGN = [
    c
    for c in ALL
    if _assigned(c)
    and unicodedata.category(c) in ("Lu", "Ll", "Lo")
    and _NOT_WITH_LATIN.match(c)
    and unicodedata.normalize("NFKC", c) == c
]


def test_the_script_classes_are_large():
    assert len(LATIN) > 1000 and len(FOREIGN) > 10000


def test_every_letter_of_a_script_not_written_with_latin_is_refused_among_latin_letters():
    for letter in FOREIGN:
        value = f"A{letter}na"
        try:
            shown = labelforms.shown("player", value)
        except labelforms.Refused:
            continue  # the profile refuses the letter itself (named): not a look-alike either
        assert labelforms.mixes_scripts(shown), (value, unicodedata.name(letter, "?"))


@settings(max_examples=300, deadline=None)
@given(letter=st.sampled_from(FOREIGN), at=st.integers(0, 3), field=st.sampled_from(FIELDS))
def test_a_letter_of_another_script_among_latin_letters_is_refused(letter, at, field):
    value = "Anna"[:at] + letter + "Anna"[at + 1 :]
    with pytest.raises(LabelError) as raised:
        check_label(field, value)
    assert raised.value.code in (Problem.LABEL_MIXED_SCRIPTS, Problem.LABEL_DISALLOWED_CHARACTER)
    assert raised.value.field == field


@settings(max_examples=300, deadline=None)
@given(letters=st.lists(st.sampled_from(LATIN), min_size=1, max_size=8))
def test_latin_letters_alone_are_one_script(letters):
    value = "".join(letters)
    for field in ("player", "game"):
        try:
            check_label(field, value)
        except LabelError as error:  # a letter the profile itself refuses; never a mix
            assert error.code != Problem.LABEL_MIXED_SCRIPTS, (value, error.message)


# --- over HTTP: the count --------------------------------------------------------------------


@pytest.fixture(scope="module")
def jury(tmp_path_factory, lexicon_dir):
    url = f"sqlite:///{tmp_path_factory.mktemp('labels') / 'store.db'}"
    migrate.upgrade(Store(url))
    app = create_app(
        {"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": url, "JURY_LIMIT": "on"}
    )
    client = app.test_client()

    def ask(words: int = 1, **labels: str):
        return client.post(JURY, json={"words": ["woord"] * words, **labels})

    return ask


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(char=st.sampled_from(INVISIBLE), at=st.integers(0, 4))
def test_no_invisible_character_starts_a_count_afresh(jury, char, at):
    """Anna's 10 words are used; Anna with an invisible character anywhere is refused (400,
    naming it) and the count stays where it was."""
    name = f"g{next(GAMES)}"
    for words, left in ((5, 5), (5, 0)):
        answer = jury(words, game=name, player="Anna")
        assert answer.status_code == 200 and answer.json["queries_remaining"] == left
    refused = jury(game=name, player="Anna"[:at] + char + "Anna"[at:])
    assert refused.status_code == 400, refused.json
    assert refused.json["code"] == "label_disallowed_character"
    assert refused.json["character"] == f"U+{ord(char):04X}"
    assert jury(game=name, player="ANNA").status_code == 409


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(dash=st.sampled_from(sorted(set(DASHES) | set(PD) | set(MINUS))))
def test_no_dash_starts_a_count_afresh(jury, dash):
    name = f"R{next(GAMES)}-T12"
    for words in (5, 5):
        assert jury(words, game=name, player="Anna").status_code == 200
    again = jury(game=name.replace("-", dash), player="Anna")
    assert again.status_code == 409 and again.json["code"] == "jury_limit_reached", again.json


def test_the_event_setting_is_a_name_under_nickname(tmp_path, lexicon_dir):
    """ADJUDICATOR_EVENT keys every count: a character its profile disallows stops the start,
    named; it is kept in its profile's form and counted case-mapped."""
    from adjudicator.settings import ConfigError, current_settings

    url = f"sqlite:///{tmp_path / 'store.db'}"
    migrate.upgrade(Store(url))
    config = {"TESTING": True, "LEXICON_DIR": str(lexicon_dir), "DATABASE_URL": url}
    with pytest.raises(ConfigError, match="U\\+3164 HANGUL FILLER"):
        create_app(config | {"EVENT": "NK\u31642027"})
    app = create_app(config | {"EVENT": " \uff2eK\u00a0 2027 "})
    assert current_settings(app).event == "NK 2027" and current_settings(app).event_key == "nk 2027"
