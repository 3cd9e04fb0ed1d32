"""Hypothesis properties of scoring and notation."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine import Board, evaluate_move
from adjudicator.engine.board import SIZE, Cell
from adjudicator.engine.notation import NewTile, Play, Through, parse, render
from adjudicator.engine.placement import check_placement
from adjudicator.engine.scoring import BINGO_BONUS
from adjudicator.engine.tests.corpus import positions
from lexicon.languages import load_profile

PROFILES = [load_profile(code) for code in ("da", "en", "nl", "sv")]
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def transposed_board(board: Board) -> Board:
    """The mirror image in the main diagonal; the layout is symmetric, so scores carry over."""
    return Board([board.cells[c * SIZE + r] for r in range(SIZE) for c in range(SIZE)])


def transposed_play(play: Play) -> Play:
    """The same play mirrored in the main diagonal (rows ↔ columns)."""
    return Play(
        tuple(NewTile(t.col, t.row, t.letter, t.blank) for t in play.tiles),
        None if play.horizontal is None else not play.horizontal,
        tuple(Through(t.col, t.row, t.letter) for t in play.through),
    )


def test_transposition():
    board = Board()
    board.place(2, 5, "X")
    assert transposed_board(board)[5, 2] == Cell("X")
    assert transposed_board(transposed_board(board)) == board
    t = transposed_play(parse("8G CAT", PROFILES[1]))
    assert t.horizontal is False and t.tiles[0] == NewTile(6, 7, "C")


@st.composite
def first_plays(draw):
    """A first play through the centre: 2-7 tiles of the language's tile letters."""
    profile = draw(st.sampled_from(PROFILES))
    letters = sorted(profile.tiles)
    n = draw(st.integers(2, 7))
    start = draw(st.integers(max(0, 7 - n + 1), 7))
    horizontal = draw(st.booleans())
    tiles = []
    for k in range(n):
        letter = draw(st.sampled_from(letters))
        blank = draw(st.booleans())
        r, c = (7, start + k) if horizontal else (start + k, 7)
        tiles.append(NewTile(r, c, letter, blank))
    return profile, Play(tuple(tiles), horizontal)


def _corpus():
    found = positions()
    assert found, "no readable game records to take positions from"
    return found


@FAST
@given(first_plays())
def test_first_play_transposition_keeps_the_score(case):
    profile, play = case
    a = evaluate_move(profile, Board(), play)
    b = evaluate_move(profile, Board(), transposed_play(play))
    assert a.legal == b.legal  # the tile supply may be exceeded: legal or not, the same
    assert a.score == b.score and [w.word.letters for w in a.words] == [
        w.word.letters for w in b.words
    ]


@FAST
@given(st.data())
def test_real_positions_transpose(data):
    profile, board, play = data.draw(st.sampled_from(_corpus()))
    a = evaluate_move(profile, board, play)
    b = evaluate_move(profile, transposed_board(board), transposed_play(play))
    assert a.score == b.score and sorted(w.score for w in a.words) == sorted(
        w.score for w in b.words
    )


@FAST
@given(first_plays(), st.data())
def test_blanks_never_add_points(case, data):
    profile, play = case
    base = evaluate_move(profile, Board(), play).score
    k = data.draw(st.integers(0, len(play.tiles) - 1))
    t = play.tiles[k]
    as_blank = Play(
        play.tiles[:k] + (NewTile(t.row, t.col, t.letter, True),) + play.tiles[k + 1 :],
        play.horizontal,
    )
    assert evaluate_move(profile, Board(), as_blank).score <= base
    all_blank = Play(
        tuple(NewTile(x.row, x.col, x.letter, True) for x in play.tiles),
        play.horizontal,
    )
    bonus = BINGO_BONUS if len(play.tiles) == 7 else 0
    assert evaluate_move(profile, Board(), all_blank).score == bonus


@FAST
@given(st.data())
def test_render_then_parse_gives_the_same_play(data):
    profile, board, play = data.draw(st.sampled_from(_corpus()))
    text = render(play, board)
    again = parse(text, profile, board)
    assert again.tiles == play.tiles
    assert render(again, board) == text


@FAST
@given(first_plays(), st.integers(1, 20))
def test_score_is_words_plus_bonus(case, _):
    profile, play = case
    result = evaluate_move(profile, Board(), play)
    bonus = BINGO_BONUS if result.bingo else 0
    assert result.score == sum(w.score for w in result.words) + bonus >= 0


@FAST
@given(
    st.lists(
        st.tuples(st.integers(-3, 17), st.integers(-3, 17), st.sampled_from("AB?é1")),
        min_size=0,
        max_size=9,
    )
)
def test_placement_never_raises_and_codes_are_known(specs):
    from adjudicator.engine.notation import NotationError, play_from_tiles
    from adjudicator.engine.placement import ERROR_CODES

    profile = PROFILES[0]
    try:
        play = play_from_tiles(specs, profile)
    except NotationError:  # a character no query may hold is not a tile (the API's 400)
        assert any(letter == "1" for _, _, letter in specs)
        return
    errors = check_placement(Board(), play, profile, rack="AB?")
    assert {e.code for e in errors} <= set(ERROR_CODES)
    if any(not (0 <= r < 15 and 0 <= c < 15) for r, c, _ in specs):
        assert "off-board" in {e.code for e in errors}
    evaluate_move(profile, Board(), play)  # never raises either
