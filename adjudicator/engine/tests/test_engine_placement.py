import dataclasses

import pytest

from adjudicator.engine.board import SIZE, Board
from adjudicator.engine.notation import NewTile, NotationError, Play, parse, play_from_tiles
from adjudicator.engine.placement import ERROR_CODES, check_placement
from adjudicator.messages import catalogue
from lexicon.languages import load_profile

DA = load_profile("da")
SV = load_profile("sv")
EN = load_profile("en")


def board_with(row_texts: dict[int, str], profile=EN) -> Board:
    rows = [row_texts.get(i + 1, "." * SIZE) for i in range(SIZE)]
    return Board.from_rows(rows, profile)


def codes(board, play, profile=EN, rack=None) -> list[str]:
    if isinstance(play, str):
        play = parse(play, profile, board)
    return [e.code for e in check_placement(board, play, profile, rack)]


KAT = board_with({8: ".......KAT....."})


def test_legal_plays_have_no_errors():
    assert codes(Board(), "8H CAT") == []
    assert codes(KAT, "H7 A.E") == []
    assert codes(KAT, "8H ...S", rack="S") == []


def test_first_play_rules():
    assert codes(Board(), "1A CAT") == ["centre-not-covered"]
    assert codes(Board(), "8H A") == ["too-few-tiles"]
    assert codes(Board(), "1A A") == ["centre-not-covered", "too-few-tiles"]


def test_geometry_errors_each_with_square():
    errors = check_placement(KAT, parse("8M XYZW", EN, KAT), EN)
    assert [e.code for e in errors] == ["off-board", "not-touching"]
    assert errors[0].square == "(row 8, column 16)"
    assert codes(KAT, play_from_tiles([(7, 7, "B")], EN)) == ["occupied"]
    assert codes(KAT, play_from_tiles([(6, 7, "B"), (6, 7, "C")], EN)) == ["duplicate-square"]
    assert codes(KAT, play_from_tiles([(6, 7, "B"), (5, 8, "C")], EN)) == ["not-in-line"]
    errors = check_placement(KAT, play_from_tiles([(6, 7, "B"), (6, 10, "C")], EN), EN)
    assert [(e.code, e.square) for e in errors] == [("gap", "I7"), ("gap", "J7")]
    assert codes(KAT, "1A CAT") == ["not-touching"]
    assert codes(KAT, "8L .S") == ["through-empty", "not-touching"]
    assert codes(KAT, "8H (KO.)S") == ["through-mismatch"]


def test_too_many_tiles():
    assert codes(Board(), "8B ABCDEFGH") == ["too-many-tiles"]


def test_letter_errors():
    assert codes(Board(), "8H A?") == ["blank-undesignated"]
    # A letter the query check refuses never becomes a tile (issue 27); a Play built in code
    # with one is still reported.
    with pytest.raises(NotationError, match="'Ж' is not a letter of English"):
        play_from_tiles([(7, 7, "Ж"), (7, 8, "A")], EN)
    foreign = Play((NewTile(7, 7, "Ж"), NewTile(7, 8, "A")), True)
    assert codes(Board(), foreign) == ["unknown-letter"]
    # Danish has no Q or W tile; Swedish no Q, W, Ü or Æ tile: only blanks may be those letters.
    assert codes(Board(), "8H QI", DA) == ["blank-only-letter"]
    assert codes(Board(), "8H qI", DA) == []
    assert codes(Board(), "8G MÜSLI", SV) == ["blank-only-letter"]
    assert codes(Board(), "8G MüSLI", SV) == []
    assert codes(Board(), "8G LÆSTE", SV) == ["blank-only-letter"]


def test_tile_supply():
    # English has one Z and two blanks.
    board = board_with({8: ".......Zab....."})
    assert codes(board, "9H Z") == ["too-many-of-letter"]
    assert codes(board, "9H c") == ["too-many-blanks"]
    assert codes(board, "H9 EE") == []


def test_rack():
    assert codes(Board(), "8H CAT", rack="CAT") == []
    assert codes(Board(), "8H CAt", rack="CA?") == []
    assert codes(Board(), "8H CAT", rack="CA?") == ["not-on-rack"]
    assert codes(Board(), "8H CAt", rack="CAT") == ["not-on-rack"]
    assert codes(Board(), "8H CAT", rack="CA1T") == ["bad-rack"]
    assert codes(Board(), "8H CAFé", DA, rack="CAF?") == []
    assert codes(Board(), "8H CAFÉ", DA, rack="CAFE") == []


def test_all_errors_reported_at_once():
    play = play_from_tiles(
        [(0, 0, "Q"), (7, 7, "?"), (7, 16, "A"), (2, 2, "B"), (3, 3, "C"),
         (4, 4, "D"), (5, 5, "E"), (6, 6, "F")],
        DA,
    )  # fmt: skip
    play = dataclasses.replace(play, tiles=(*play.tiles, NewTile(1, 1, "Ж")))  # built in code
    found = codes(Board(), play, DA, rack="ABC")
    for code in ("too-many-tiles", "off-board", "blank-undesignated", "unknown-letter",
                 "blank-only-letter", "not-in-line", "not-on-rack"):  # fmt: skip
        assert code in found
    assert set(found) <= set(ERROR_CODES)


def test_messages_say_what_and_where():
    [error] = check_placement(KAT, play_from_tiles([(7, 8, "O")], EN), EN)
    assert error.message == "I8 already holds A; O cannot go there"
    assert error.to_dict() == {"code": "occupied", "message": error.message,
                               "square": "I8", "letter": "O"}  # fmt: skip


def test_every_error_code_has_its_sentence():
    """A placement error is said by the catalogue's `placement_<code>` (`placement._error`), so
    each code needs that key: an error would otherwise have no message in any language."""
    keys = set(catalogue("en"))
    assert {f"placement_{code.replace('-', '_')}" for code in ERROR_CODES} - keys == set()
