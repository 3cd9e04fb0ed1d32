import pytest

from adjudicator.engine.board import SIZE, Board
from adjudicator.engine.notation import (
    NewTile,
    NotationError,
    Through,
    parse,
    parse_coordinate,
    play_from_tiles,
    render,
)
from lexicon.languages import load_profile

DA = load_profile("da")
EN = load_profile("en")


def board_with(row_texts: dict[int, str], profile=EN) -> Board:
    rows = ["." * SIZE] * SIZE
    rows = [row_texts.get(i + 1, r) for i, r in enumerate(rows)]
    return Board.from_rows(rows, profile)


def test_coordinates():
    assert parse_coordinate("8H") == (7, 7, True)
    assert parse_coordinate("H8") == (7, 7, False)
    assert parse_coordinate("8d") == (7, 3, True)  # old lower-case columns
    assert parse_coordinate("h2") == (1, 7, False)
    assert parse_coordinate("15O") == (14, 14, True)
    for bad in ("16A", "0A", "8P", "HH", "8", ""):
        with pytest.raises(NotationError):
            parse_coordinate(bad)


def test_danish_accents_fold_through_the_normaliser():
    play = parse("8H CAFé", DA)
    assert play.tiles[-1] == NewTile(7, 10, "E", True)  # é: a blank designated E
    assert parse("8H CAFÉ", DA).tiles[-1] == NewTile(7, 10, "E", False)  # É: the E tile
    assert parse("8H ÆØÅ", DA).tiles[0].letter == "Æ"


def test_through_letters_dot_and_parentheses():
    board = board_with({8: ".......KAT....."})
    play = parse("H7 A.E", EN, board)
    assert [(t.row, t.col) for t in play.tiles] == [(6, 7), (8, 7)]
    assert play.through == (Through(7, 7),)
    play = parse("H7 A(K)E", EN, board)
    assert play.through == (Through(7, 7, "K"),) and len(play.tiles) == 2


def test_old_style_board_letters_in_full():
    board = board_with({8: ".......KAT....."})
    play = parse("8H KATS", EN, board)  # letters on occupied squares that match: through
    assert play.tiles == (NewTile(7, 10, "S"),)
    # A letter on an occupied square that does not match stays a new tile (placement: occupied)
    assert parse("8H KITS", EN, board).tiles[0] == NewTile(7, 8, "I")


def test_blank_without_designation_and_odd_characters():
    assert parse("8H A?", EN).tiles[1] == NewTile(7, 8, "?", True)
    for bad in ("8H", "8H AB CD", "8H A1", "8H A(B", "8H A)B", "8H ((A))", "8H ()"):
        with pytest.raises(NotationError):
            parse(bad, EN)


def test_render_uses_dots_for_board_tiles():
    board = board_with({8: ".......KAT....."})
    assert render(parse("8H KATs", EN, board), board) == "8H ...s"
    assert render(parse("8H (KAT)S", EN, board), board) == "8H ...S"
    # the main line runs over board tiles the notation left out
    assert render(parse("8K S", EN, board), board) == "8H ...S"
    assert render(parse("8G sKAT", EN, board), board) == "8G s..."


def test_play_from_structured_tiles():
    board = board_with({8: ".......KAT....."})
    play = play_from_tiles([(7, 10, "S")], EN, board)
    assert play.horizontal is True
    play = play_from_tiles([(8, 7, "I")], EN, board)
    assert play.horizontal is False  # extends down from K
    play = play_from_tiles([(8, 7, "a"), (9, 7, "E", False)], EN, board)
    assert play.horizontal is False and play.tiles[0] == NewTile(8, 7, "A", True)
    assert play_from_tiles([(0, 0, "A"), (1, 1, "B")], EN).horizontal is None
    assert play_from_tiles([(0, 0, "?")], EN).tiles[0] == NewTile(0, 0, "?", True)
    assert play_from_tiles([(0, 0, "é", True)], DA).tiles[0] == NewTile(0, 0, "E", True)
    with pytest.raises(NotationError):
        play_from_tiles([(0, 0, "AB")], EN)
