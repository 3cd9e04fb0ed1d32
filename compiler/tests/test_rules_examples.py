"""Every example in docs/rules.md §4, compiled from a tiny list and looked up in the artifact."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lexicon.errors import LexiconError
from lexicon.languages import LanguageProfile, load_profile
from lexicon.normalise import CAPITALISED, NON_LETTER, PHRASE, Normaliser, Rejection

SWEDISH_LIST = """\
EKG
Dalarna
pH
Öresundsbåt
tbc
c/o
abc-bok
super-8
allé
allena
crêpe
pietà
moçambikisk
müsli
læstadian
silk screen
kreti och pleti
pleti
ögon
watt
"""


@pytest.fixture(scope="module")
def sv():
    return Normaliser(load_profile("sv"))


@pytest.fixture
def swedish(compile_words):
    return compile_words(SWEDISH_LIST, language="sv")


@pytest.mark.parametrize("word", ["EKG", "Dalarna", "pH", "Öresundsbåt"])
def test_capitals_reject_the_entry(sv, word):
    result = sv.entry(word)
    assert isinstance(result, Rejection) and result.reason == CAPITALISED


def test_capitalised_entries_give_no_word(swedish):
    for word in ("EKG", "DALARNA", "PH", "ÖRESUNDSBÅT"):
        assert word not in swedish


def test_tbc_is_valid_from_lower_case(sv, swedish):
    assert sv.entry("tbc") == "TBC"
    assert "TBC" in swedish


@pytest.mark.parametrize("entry", ["c/o", "abc-bok", "super-8"])
def test_non_letters_reject_even_with_blanks(sv, entry):
    result = sv.entry(entry)
    assert isinstance(result, Rejection) and result.reason == NON_LETTER


def test_non_letter_entries_give_no_word(swedish):
    for word in ("CO", "ABCBOK", "SUPER", "SUPER8", "ABC", "BOK"):
        assert word not in swedish


@pytest.mark.parametrize(
    "entry, word",
    [("allé", "ALLE"), ("crêpe", "CREPE"), ("pietà", "PIETA"), ("moçambikisk", "MOCAMBIKISK")],
)
def test_accents_fold(sv, swedish, entry, word):
    assert sv.entry(entry) == word
    assert word in swedish


def test_folded_e_is_an_ordinary_e(swedish):
    assert "ALLE" in swedish and "ALLENA" in swedish  # ALLE grows to ALLENA


def test_u_umlaut_is_its_own_blank_only_letter(sv, swedish):
    assert sv.entry("müsli") == "MÜSLI"
    assert "MÜSLI" in swedish and "MUSLI" not in swedish and "MYSLI" not in swedish
    assert swedish.profile.blanks_needed("MÜSLI") == 1


def test_ae_is_its_own_blank_only_letter(sv, swedish):
    assert sv.entry("læstadian") == "LÆSTADIAN"
    assert "LÆSTADIAN" in swedish and "LÄSTADIAN" not in swedish and "LAESTADIAN" not in swedish
    assert swedish.profile.blanks_needed("LÆSTADIAN") == 1


def test_w_is_never_v(sv, swedish):
    assert sv.entry("watt") == "WATT" and "WATT" in swedish and "VATT" not in swedish
    assert swedish.profile.blanks_needed("WATT") == 1
    assert set("QWÜÆ") == set(swedish.profile.blank_only)


def test_optional_part_gives_both_forms(compile_words):
    lex = compile_words("pär(s)|titel\n", language="sv", fmt="saol")
    assert "PÄRTITEL" in lex and "PÄRSTITEL" in lex
    assert lex.manifest["word_count"] == 2


def test_phrases_define_no_word(sv, swedish):
    assert sv.entry("silk screen") == Rejection(PHRASE, " ")
    for word in ("SILK", "SCREEN", "SILKSCREEN", "KRETI", "OCH"):
        assert word not in swedish
    assert "PLETI" in swedish  # from its own entry


def test_phrases_in_saol_format(compile_words):
    lex = compile_words("silk screen\nkreti och pleti\npleti\n", language="sv", fmt="saol")
    assert "PLETI" in lex and "KRETI" not in lex and "SILK" not in lex


def test_inflected_headword_counts(swedish):
    assert "ÖGON" in swedish


def test_swedish_o_umlaut_never_folds(sv):
    assert sv.entry("ögon") == "ÖGON"
    assert sv.query("Ögon") == "ÖGON"
    assert sv.fold("ö") == "Ö" and sv.fold("ä") == "Ä" and sv.fold("å") == "Å"


def test_danish_cafe_folds_and_o_slash_stays(compile_words):
    lex = compile_words("café\nelguitar\nøl\nÅrhus\nsø\n", language="da")
    assert "CAFE" in lex and "CAFÉ" not in lex and "ELGUITAR" in lex
    assert "ØL" in lex and "SØ" in lex and "OL" not in lex
    assert "ÅRHUS" not in lex  # a proper name
    da = Normaliser(load_profile("da"))
    assert da.entry("café") == "CAFE"
    assert da.fold("ø") == "Ø" and da.fold("æ") == "Æ" and da.fold("å") == "Å"
    # One E tile serves E and É alike: CAFE needs no blank.
    assert lex.profile.blanks_needed("CAFE") == 0


def test_dutch_diaeresis_folds(compile_words):
    lex = compile_words("coördinatie\ncafé\nzeeën\n", language="nl")
    assert "COORDINATIE" in lex and "CAFE" in lex and "ZEEEN" in lex
    nl = Normaliser(load_profile("nl"))
    assert nl.entry("coördinatie") == "COORDINATIE"
    assert nl.query("COÖRDINATIE") == "COORDINATIE"


def test_unidecode_mistakes_are_avoided():
    """unidecode turns æ into AE and ø into O: wrong for Danish and Swedish."""
    da, sv = Normaliser(load_profile("da")), Normaliser(load_profile("sv"))
    assert da.query("blåbærgrød") == "BLÅBÆRGRØD"
    assert sv.query("læstadian") == "LÆSTADIAN"
    assert isinstance(sv.query("smørrebrød"), Rejection)  # ø is no Swedish letter


def test_length_limits(sv):
    assert sv.entry("a") == Rejection("too-short", letters=1)
    assert sv.entry("a" * 16) == Rejection("too-long", letters=16)
    assert str(sv.entry("a" * 16)) == "too-long (16 letters; at most 15)"
    assert str(sv.entry("a")) == "too-short (1 letter; at least 2)"
    assert sv.entry("a" * 15) == "A" * 15


def test_dutch_joiners_are_dropped_joining_the_parts(compile_words):
    """docs/rules.md §4.4: the Dutch lists (NTSV Taalreglement, 2023 edition) drop hyphens and
    apostrophes, joining the parts, and fold accents, trema, umlaut, cedilla and tilde."""
    lex = compile_words(
        "mee-eten\nauto's\nauto’s\n-achtig\n's\nçedille\nsão\nniño\n", language="nl"
    )
    assert "MEEETEN" in lex and "AUTOS" in lex and "ACHTIG" not in lex
    assert "CEDILLE" in lex and "SAO" in lex and "NINO" in lex
    nl = Normaliser(load_profile("nl"))
    assert nl.entry("mee-eten") == nl.query("MEE-ETEN") == "MEEETEN"
    assert nl.entry("auto's") == nl.query("auto’s") == "AUTOS"
    # a joiner at either end marks a fragment of a compound in the list, not a word
    assert nl.entry("'s") == Rejection(NON_LETTER, "'")
    assert nl.entry("aanvals-") == nl.query("AANVALS-") == Rejection(NON_LETTER, "-")
    assert nl.entry("-achtig") == Rejection(NON_LETTER, "-")
    assert nl.entry("-'") == nl.query("--") == Rejection("empty")
    assert isinstance(nl.entry("'s-Hertogenbosch"), Rejection)  # still no word
    for accented, plain in [
        ("é", "E"),
        ("è", "E"),
        ("ë", "E"),
        ("ï", "I"),
        ("ö", "O"),
        ("ü", "U"),
        ("ç", "C"),
        ("ñ", "N"),
        ("ã", "A"),
        ("õ", "O"),
    ]:
        assert nl.query("x" + accented) == "X" + plain, accented
    assert load_profile("nl").to_dict()["joiners"] == "-'’"
    assert lex.profile.joiners == "-'’"  # the compiled manifest carries the setting


def test_joiners_are_a_dutch_setting_only():
    """Swedish reads a hyphen as a sign (docs/rules.md §4.3: super-8, abc-bok give no word)."""
    for code in ("da", "sv", "en"):
        profile = load_profile(code)
        assert profile.joiners == "" and profile.to_dict()["joiners"] == ""
        assert Normaliser(profile).entry("abc-bok") == Rejection(NON_LETTER, "-")


@pytest.mark.parametrize(
    ("joiners", "complaint"),
    [("a", "'a'"), ("-x", "'x'"), ("--", "twice"), (" ", "' '"), ("1", "'1'"), (3, "string")],
)
def test_joiners_must_be_signs(joiners, complaint):
    data = load_profile("nl").to_dict() | {"joiners": joiners}
    with pytest.raises(LexiconError) as err:
        LanguageProfile.from_dict(data, source="nl.toml")
    assert "nl.toml" in str(err.value) and "joiners" in str(err.value)
    assert complaint in str(err.value)


def test_a_manifest_without_joiners_still_loads():
    data = load_profile("nl").to_dict()
    del data["joiners"]
    assert LanguageProfile.from_dict(data, source="old manifest").joiners == ""


def test_rules_md_dutch_examples_are_what_the_normaliser_does():
    """docs/rules.md §4.4 shows Dutch spellings as `*entry* is WORD`: each must be what the
    normaliser makes of that list entry (a leading or trailing joiner rejects it, §4.4)."""
    rules = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text("utf-8")
    section = rules.split("### 4.4 Dutch", 1)[1].split("\n### ", 1)[0]
    examples = re.findall(r"\*([^*]+)\*\s+is\s+([A-Z]+)\b", section)
    assert len(examples) >= 3
    nl = Normaliser(load_profile("nl"))
    assert [(entry, nl.entry(entry)) for entry, _ in examples] == examples
