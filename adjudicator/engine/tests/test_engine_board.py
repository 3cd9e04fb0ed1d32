import pytest

from adjudicator.engine.board import (
    LAYOUT,
    LETTER_MULT,
    SIZE,
    WORD_MULT,
    Board,
    BoardError,
    Cell,
    square_name,
)
from lexicon.languages import load_profile

EMPTY = ["." * SIZE] * SIZE


def test_layout_counts_and_symmetry():
    flat = "".join(LAYOUT)
    assert (flat.count("="), flat.count("-"), flat.count('"'), flat.count("'")) == (8, 16, 12, 24)
    assert flat.count("*") == 1
    for r in range(SIZE):
        for c in range(SIZE):
            assert LAYOUT[r][c] == LAYOUT[c][r] == LAYOUT[SIZE - 1 - r][c]


def test_premium_tables():
    assert WORD_MULT[7 * SIZE + 7] == 2  # centre is a double word
    assert WORD_MULT[0] == 3 and LETTER_MULT[3] == 2  # A1 TW, D1 DL
    assert LETTER_MULT[1 * SIZE + 5] == 3  # F2 TL
    assert square_name(7, 7) == "H8" and square_name(0, 14) == "O1"


def test_parse_and_render_round_trip():
    rows = list(EMPTY)
    rows[7] = ".......KAt....."
    board = Board.from_rows(rows)
    assert board[7, 7] == Cell("K") and board[7, 9] == Cell("T", True)
    assert board.to_rows() == rows
    assert board.count == 3 and board.blanks == 1 and board.letters == {"K": 1, "A": 1}


@pytest.mark.parametrize(
    "rows, message",
    [
        (EMPTY[:14], "needs 15 rows"),
        (EMPTY[:14] + ["." * 14], "board row 15: needs 15 squares, got 14"),
        (EMPTY[:14] + ["." * 14 + "1"], "square O15: '1' is neither"),
    ],
)
def test_parse_shape_errors(rows, message):
    with pytest.raises(BoardError, match=message):
        Board.from_rows(rows)


def test_parse_checks_letters_of_the_language():
    da = load_profile("da")
    rows = list(EMPTY)
    rows[7] = ".......ÆØÅé...."
    board = Board.from_rows(rows, da)
    assert board[7, 10] == Cell("E", True)  # é folds to a blank E
    rows[7] = ".......Q......."
    with pytest.raises(BoardError, match="Q has no tile in Danish"):
        Board.from_rows(rows, da)
    rows[7] = ".......q......."
    assert Board.from_rows(rows, da)[7, 7] == Cell("Q", True)
    rows[7] = ".......Ж......."
    with pytest.raises(BoardError, match="not a letter of Danish"):
        Board.from_rows(rows, da)


def test_place_remove_keep_counts():
    board = Board()
    board.place(0, 0, "A")
    board.place(0, 1, "B", True)
    board.place(0, 0, "C")
    assert board.letters == {"A": 0, "C": 1} and board.blanks == 1 and board.count == 2
    board.remove(0, 1)
    assert board.blanks == 0 and board.count == 1
    assert board[-1, 0] is None and board[0, 15] is None
