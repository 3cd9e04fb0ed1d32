from pathlib import Path

import pytest

from adjudicator.engine import Board, check_words, evaluate_move
from lexicon.artifact import load

LEXICONS = Path(__file__).resolve().parents[3] / "instance" / "lexicons"


@pytest.fixture(scope="module")
def wdanish():
    path = LEXICONS / "wdanish.json"
    if not path.exists():
        pytest.skip("build instance/lexicons first (lexicon build …)")
    return load(path)


def test_cafe_shares_the_e_and_both_words_are_danish(wdanish):
    board = Board.from_rows(["." * 15] * 6 + ["...ELGUITAR...."] + ["." * 15] * 8, wdanish.profile)
    result = evaluate_move(wdanish.profile, board, "D4 CAFÉ")
    verdicts = check_words(wdanish, [w.word for w in result.words] + ["ELGUITAR", "café"])
    assert [(v.word, v.valid) for v in verdicts] == [
        ("CAFE", True), ("ELGUITAR", True), ("CAFE", True)]  # fmt: skip


def test_unknown_and_unreadable_words(wdanish):
    verdicts = check_words(wdanish, ["XQZXQ", "A1"])
    assert [v.valid for v in verdicts] == [False, False]
    assert verdicts[1].reason == "non-letter '1'"
    assert verdicts[0].to_dict() == {"word": "XQZXQ", "valid": False, "reason": None}
