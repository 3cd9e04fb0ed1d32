"""The board as an SVG picture: well-formed, the printed layout, blanks marked, the move outlined,
and the whole-game picture's turns."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from adjudicator.engine.board import LAYOUT, SIZE, Board
from adjudicator.engine.evaluate import apply_play, evaluate_move
from adjudicator.engine.picture import game_svg, last_move, position_svg, spans
from lexicon.languages import load_profile

NS = {"svg": "http://www.w3.org/2000/svg"}
EN = load_profile("en")
DA = load_profile("da")


def _tree(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # raises on anything but well-formed XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "style" not in svg  # the pages' CSP allows no inline style
    return root


def _tiles(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-square"): g for g in root.iter("{http://www.w3.org/2000/svg}g")}


def _played(*plays: str, profile=EN) -> tuple[Board, list[Board], set[tuple[int, int]]]:
    board, boards, last = Board(), [Board()], set()
    for text in plays:
        result = evaluate_move(profile, board, text)
        assert result.legal, result.errors
        apply_play(board, result.play)
        boards.append(board.copy())
        last = {(t.row, t.col) for t in result.play.tiles}
    return board, boards, last


def test_an_empty_board_is_valid_svg_with_every_premium_square_of_the_layout():
    root = _tree(position_svg(EN, Board(), title="Empty & <new>"))
    assert root.find("svg:title", NS).text == "Empty & <new>"
    premiums = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("data-premium")]
    by_label = {}
    for rect in premiums:
        by_label.setdefault(rect.get("data-premium"), set()).add(rect.get("data-square"))
    assert {k: len(v) for k, v in by_label.items()} == {
        "3W": 8,
        "2W": 16,
        "★": 1,
        "3L": 12,
        "2L": 24,
    }
    assert by_label["★"] == {"H8"} and "A1" in by_label["3W"] and "D1" in by_label["2L"]
    expected = {
        f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}"
        for r in range(SIZE)
        for c in range(SIZE)
        if LAYOUT[r][c] != "."
    }
    assert set().union(*by_label.values()) == expected
    assert _tiles(root) == {}


def test_tiles_show_letter_and_value_and_a_blank_is_marked_without_one():
    board, _, last = _played("8H CAt")
    root = _tree(position_svg(EN, board, highlight=last))
    tiles = _tiles(root)
    assert set(tiles) == {"H8", "I8", "J8"}
    c = tiles["H8"]
    assert c.get("class") == "tile last"
    assert c.find("svg:text[@class='letter']", NS).text == "C"
    assert c.find("svg:text[@class='value']", NS).text == "3"  # C is worth 3 in English
    t = tiles["J8"]
    assert "blank" in t.get("class").split()
    assert t.find("svg:text[@class='letter']", NS).text == "T"
    assert t.find("svg:text[@class='value']", NS) is None  # a blank is worth nothing
    assert t.find("svg:circle", NS) is not None  # the ring that marks it
    assert tiles["I8"].find("svg:circle", NS) is None


def test_values_are_the_languages():
    board, _, _ = _played("8H ÆG", profile=DA)
    tiles = _tiles(_tree(position_svg(DA, board)))
    assert tiles["H8"].find("svg:text[@class='value']", NS).text == str(DA.value("Æ"))


def test_only_the_move_shown_is_outlined():
    board, _, last = _played("8H CAT", "H9 AT")
    tiles = _tiles(_tree(position_svg(EN, board, highlight=last)))
    outlined = {
        sq for sq, g in tiles.items() if g.find("svg:rect[@class='outline']", NS) is not None
    }
    assert outlined == {"H9", "H10"}
    assert all("last" in tiles[sq].get("class") for sq in outlined)
    assert not any("last" in g.get("class") for sq, g in tiles.items() if sq not in outlined)


def test_a_caption_goes_under_the_board():
    root = _tree(position_svg(EN, Board(), caption="3. Bo: 10H SO +9 <ok>"))
    (caption,) = [
        t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "caption"
    ]
    assert caption.text == "3. Bo: 10H SO +9 <ok>"
    assert int(root.get("height")) > int(root.get("width"))


def test_the_whole_game_picture_knows_each_tiles_turns():
    _, boards, _ = _played("8H CAT", "H9 AT")
    withdrawn = boards[1].copy()  # turn 3 takes AT back; turn 4 plays ON instead
    boards.append(withdrawn)
    _, more, _ = _played("8H CAT", "I9 ON")
    boards.append(more[2])
    root = _tree(game_svg(EN, boards, title="Game"))
    tiles = [g for g in root.iter("{http://www.w3.org/2000/svg}g")]
    turns = {(g.get("data-square"), g.get("data-from"), g.get("data-until")) for g in tiles}
    assert turns == {
        ("H8", "1", None), ("I8", "1", None), ("J8", "1", None),
        ("H9", "2", "3"), ("H10", "2", "3"),
        ("I9", "4", None), ("I10", "4", None),
    }  # fmt: skip
    # Shown at the last turn: the withdrawn tiles hidden, turn 4's outlined.
    hidden = {g.get("data-square") for g in tiles if g.get("visibility") == "hidden"}
    assert hidden == {"H9", "H10"}
    last = {g.get("data-square") for g in tiles if "last" in g.get("class").split()}
    assert last == {"I9", "I10"}
    assert [t.start for t in spans(boards)] == sorted(t.start for t in spans(boards))
    assert last_move(boards) == {(8, 8), (9, 8)}
    assert last_move(boards[:4]) == {(7, 7), (7, 8), (7, 9)}  # AT taken back: CAT again


def test_after_a_pass_the_play_before_it_stays_outlined():
    _, boards, last = _played("8H CAT", "H9 AT")
    boards.append(boards[-1].copy())  # turn 3: a pass, or a challenge line
    assert last_move(boards) == last == {(8, 7), (9, 7)}
    tiles = _tiles(_tree(game_svg(EN, boards, title="Game")))
    assert {sq for sq, g in tiles.items() if "last" in g.get("class").split()} == {"H9", "H10"}
    assert last_move(boards[:1]) == set()
