"""Properties of the normaliser, the blank count, and the bulk reader against the reference."""

from __future__ import annotations

import unicodedata
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.build import _read_entries
from compiler.bulk import PlainReader
from compiler.sources import plain_entries
from lexicon.languages import load_profile
from lexicon.normalise import FOREIGN_LETTER, Normaliser, Rejection

LANGS = ("da", "sv", "nl", "en")
NORMALISERS = {code: Normaliser(load_profile(code)) for code in LANGS}
READERS = {code: PlainReader(n) for code, n in NORMALISERS.items()}


def _simple_case(ch: str) -> bool:
    """Characters whose case maps one to one (ß → SS and İ → i̇ are outside that game)."""
    up, low = ch.upper(), ch.lower()
    return len(up) == 1 and len(low) == 1 and up.lower() == low and low.upper() == up


def _chars(code: str) -> str:
    p = NORMALISERS[code].profile
    base = p.alphabet + p.alphabet.lower() + "".join(p.folding) + "".join(p.folding).lower()
    return base + "éèêëáàâäåæøöüçñíóúõãıß -'/.#0\t\u00a0\u200bĳŉǅ"


def verdict(result):
    """The word, or the reason (the culprit character may differ in case)."""
    return result if isinstance(result, str) else result.reason


words = st.sampled_from(LANGS).flatmap(
    lambda code: st.tuples(st.just(code), st.text(st.sampled_from(_chars(code)), max_size=18))
)
fast = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fast
@given(words)
def test_query_is_idempotent_on_its_output(case):
    code, text = case
    n = NORMALISERS[code]
    for result in (n.query(text), n.entry(text)):
        if isinstance(result, str):
            assert n.query(result) == result


@fast
@given(words)
def test_query_ignores_unicode_composition(case):
    code, text = case
    n = NORMALISERS[code]
    assert n.query(text) == n.query(unicodedata.normalize("NFD", text))
    assert n.entry(text) == n.entry(unicodedata.normalize("NFD", text))


@fast
@given(words)
def test_query_ignores_case(case):
    code, text = case
    if not all(_simple_case(c) for c in text):
        return
    n = NORMALISERS[code]
    assert (
        verdict(n.query(text.upper())) == verdict(n.query(text.lower())) == verdict(n.query(text))
    )


@fast
@given(words)
def test_output_is_made_of_alphabet_letters(case):
    code, text = case
    n = NORMALISERS[code]
    for result in (n.query(text), n.entry(text)):
        if isinstance(result, str):
            assert 2 <= len(result) <= 15
            assert set(result) <= set(n.profile.alphabet)


@fast
@given(words)
def test_entry_and_query_agree_on_lower_case(case):
    """A query is an entry read without the fallback: they agree except where the query
    refuses a character that only the fallback (accents, unidecode) would bring to the
    alphabet, or a combining mark."""
    code, text = case
    low = text.lower()
    if any(c.isupper() or unicodedata.category(c) == "Lt" for c in low):
        return
    n = NORMALISERS[code]
    query = n.query(low)
    if isinstance(query, Rejection) and query.reason == FOREIGN_LETTER:
        assert query.char not in n.query_characters
        return
    assert n.entry(low) == query


@fast
@given(
    st.sampled_from(LANGS),
    st.lists(
        st.text(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZÅÄÖÆØÜ"), min_size=1, max_size=15),
        max_size=30,
    ),
)
def test_blank_count_matches_word_by_word(code, word_list):
    profile = load_profile(code)
    word_list = [w for w in dict.fromkeys(word_list)]
    data = "\n".join(word_list).encode()
    needing = [w for w in word_list if profile.blanks_needed(w)]
    assert profile.words_needing_blanks_utf8(data, 15) == needing
    assert profile.words_needing_blanks_utf8(data) == needing


def _reference(code: str, text: str) -> tuple[Counter, Counter, int, int]:
    words: set[bytes] = set()
    counts: Counter = Counter()
    stats = _read_entries(
        plain_entries(text, "f"), NORMALISERS[code].entry, words, counts, None, "f"
    )
    return Counter(words), counts, stats["entries"], stats["folded"]


def _bulk(code: str, text: str) -> tuple[set[bytes], Counter, int, int]:
    words: set[bytes] = set()
    counts: Counter = Counter()
    stats = READERS[code].read(text, words, counts)
    return words, counts, stats["entries"], stats["folded"]


line_chars = st.sampled_from(
    "abcxyzåäöæøüéëàç" + "ABCÅÖÉ" + " \t\u00a0#-'/.08" + "\r\u2028\x1c\x0b\x1f\x85\u200bß"
)
texts = st.lists(
    st.one_of(
        st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzåäöæø"), min_size=0, max_size=20),
        st.text(line_chars, max_size=20),
    ),
    max_size=40,
).map("\n".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(LANGS), texts)
def test_bulk_reader_matches_line_by_line(code, text):
    words, counts, read, folded = _bulk(code, text)
    ref_words, ref_counts, ref_read, ref_folded = _reference(code, text)
    assert set(words) == set(ref_words)
    assert +counts == +ref_counts
    assert read == ref_read and folded == ref_folded


@pytest.mark.parametrize("code", LANGS)
def test_bulk_reader_on_tricky_lines(code):
    text = (
        "ord\n  ord  \nOrd\nord#x\n#ord\nab cd\nab #cd\n a \n\nx\n"
        + "a" * 16
        + "\nc/o\nsuper-8\nEKG-x\ncafé\ncoördinatie\nkreti och pleti\n\t\n"
        + "ord\r\nord\rord\u2028sol\n"
    )
    words, counts, read, folded = _bulk(code, text)
    ref_words, ref_counts, ref_read, ref_folded = _reference(code, text)
    assert set(words) == set(ref_words) and +counts == +ref_counts and read == ref_read
    assert folded == ref_folded and folded >= 1  # café, coördinatie


def _general_lane(n: Normaliser, text: str, capitals: bool) -> str | Rejection:
    """The rules character by character, as the normaliser applies them to non-ASCII text."""
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        return Rejection("empty")
    joined = "".join(c for c in text if c not in n.profile.joiners)  # Dutch: mee-eten is MEEETEN
    if not joined:
        return Rejection("empty")
    for edge in (text[0], text[-1]):  # aanvals-, -achtig: fragments of compounds, not words
        if edge in n.profile.joiners:
            return Rejection("non-letter", edge)
    text = joined
    for test, reason in (
        (str.isspace, "phrase"),
        (lambda c: unicodedata.category(c)[0] == "C", "control-character"),
        (str.isupper if capitals else (lambda c: False), "capitalised"),
    ):
        for ch in text:
            if test(ch):
                return Rejection(reason, ch)
    out = []
    for ch in text:
        if not ch.isalpha():
            return Rejection("non-letter", ch)
        folded = n.fold(ch)
        if folded is None:
            return Rejection("foreign-letter", ch)
        out.append(folded)
    word = "".join(out)
    if len(word) < 2:
        return Rejection("too-short", letters=len(word))
    return Rejection("too-long", letters=len(word)) if len(word) > 15 else word


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(LANGS), st.text(st.characters(max_codepoint=127), max_size=20))
def test_ascii_lane_gives_what_the_general_rules_give(code, text):
    n = NORMALISERS[code]
    assert n.entry(text) == _general_lane(n, text, n.profile.drop_capitals)
    assert n.query(text) == _general_lane(n, text, False)


def test_rejection_is_not_a_word():
    n = NORMALISERS["sv"]
    assert isinstance(n.entry(""), Rejection) and n.entry("").reason == "empty"
    assert n.entry("\u200bord").reason == "control-character"


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_certain_rejections_are_what_entry_says(data):
    """Every text a certain-rejection pattern matches gets exactly that reason from `entry`."""
    code = data.draw(st.sampled_from(LANGS))
    n = NORMALISERS[code]
    reason, pattern = data.draw(st.sampled_from(n.certain_rejections))
    text = data.draw(st.from_regex(f"\\A{pattern}\\Z", fullmatch=True))
    result = n.entry(text)
    assert isinstance(result, Rejection) and result.reason == reason, (text, result)
