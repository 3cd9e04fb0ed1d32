"""Is a play a legal placement (docs/rules.md §5)? Every problem is reported, not just the first.

Placement never looks words up: that is `wordcheck`, so that a judge can tell "you cannot put
tiles there" apart from "that is not a word".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from adjudicator.engine.board import CENTRE, SIZE, Board, on_board, square_name
from adjudicator.engine.notation import Play
from adjudicator.engine.plain import Plain
from adjudicator.engine.tiles import BLANK, TileSet, tile_letter, tileset
from adjudicator.messages import Said
from lexicon.languages import LanguageProfile
from lexicon.limits import RACK_SIZE

# Error codes, stable for API clients, declared once: the order is the order of the checks.
ERROR_CODES = (
    NO_TILES := "no-tiles",
    TOO_MANY_TILES := "too-many-tiles",
    OFF_BOARD := "off-board",
    DUPLICATE_SQUARE := "duplicate-square",
    OCCUPIED := "occupied",
    THROUGH_EMPTY := "through-empty",
    THROUGH_MISMATCH := "through-mismatch",
    BLANK_UNDESIGNATED := "blank-undesignated",
    UNKNOWN_LETTER := "unknown-letter",
    BLANK_ONLY_LETTER := "blank-only-letter",
    NOT_IN_LINE := "not-in-line",
    GAP := "gap",
    CENTRE_NOT_COVERED := "centre-not-covered",
    TOO_FEW_TILES := "too-few-tiles",
    NOT_TOUCHING := "not-touching",
    TOO_MANY_OF_LETTER := "too-many-of-letter",
    TOO_MANY_BLANKS := "too-many-blanks",
    BAD_RACK := "bad-rack",
    NOT_ON_RACK := "not-on-rack",
)
#: Errors after which the play's words cannot be read off the board.
GEOMETRY_CODES = frozenset(
    {NO_TILES, OFF_BOARD, DUPLICATE_SQUARE, OCCUPIED, NOT_IN_LINE, GAP, THROUGH_EMPTY}
)


@dataclass(frozen=True, slots=True)
class PlacementError(Plain):
    code: Literal[ERROR_CODES]  # type: ignore[valid-type]
    message: str
    square: str | None
    letter: str | None


def _error(
    code: str, square: str | None = None, letter: str | None = None, /, **values: object
) -> PlacementError:
    """An error of `code` on `square` about `letter`, said by the catalogue's
    `placement_<code>` with `values` (the codes and the catalogue's keys are one list)."""
    return PlacementError(
        code, Said(f"placement_{code.replace('-', '_')}", **values), square, letter
    )


def language(code: str) -> Said:
    """The language of `code` by name, in the words of whoever reads the message."""
    return Said(f"language_of_{code}")


def read_rack(rack: str, profile: LanguageProfile) -> tuple[dict[str, int], list[str]]:
    """Rack text (`AEQ?`, `?` = blank) → letter counts (blank under `?`) and unreadable chars."""
    counts: dict[str, int] = {}
    bad: list[str] = []
    for ch in rack:
        # a player's letters: no look-alikes
        key = BLANK if ch == BLANK else tile_letter(profile, ch)
        if key is None:
            bad.append(ch)
        else:
            counts[key] = counts.get(key, 0) + 1
    return counts, bad


def check_placement(
    board: Board, play: Play, profile: LanguageProfile, rack: str | None = None
) -> list[PlacementError]:
    """All placement errors of `play` on `board` (the board before the play); [] when legal."""
    ts = tileset(profile)
    errors: list[PlacementError] = []
    add = errors.append
    tiles = play.tiles
    n = len(tiles)
    if n == 0:
        add(_error(NO_TILES))
        return errors
    if n > RACK_SIZE:
        add(_error(TOO_MANY_TILES, n=n, most=RACK_SIZE))

    cells = board.cells
    seen: set[tuple[int, int]] = set()
    for t in tiles:
        name = square_name(t.row, t.col)
        if not on_board(t.row, t.col):
            add(_error(OFF_BOARD, name, letter=t.letter, square=name))
            continue
        if (t.row, t.col) in seen:
            add(_error(DUPLICATE_SQUARE, name, square=name))
        seen.add((t.row, t.col))
        cell = cells[t.row * SIZE + t.col]
        if cell is not None:
            add(_error(OCCUPIED, name, t.letter, square=name, held=cell.letter, letter=t.letter))
    for th in play.through:
        name = square_name(th.row, th.col)
        cell = board[th.row, th.col]
        if cell is None:
            add(_error(THROUGH_EMPTY, name, th.letter, square=name))
        elif th.letter is not None and th.letter != cell.letter:
            said, held = th.letter, cell.letter
            add(_error(THROUGH_MISMATCH, name, said, square=name, said=said, held=held))

    _check_letters(play, ts, add)
    if play.horizontal is None:
        add(_error(NOT_IN_LINE))
    elif not any(e.code in GEOMETRY_CODES for e in errors):  # every square free and distinct
        _check_gaps(board, play, add)
    _check_connection(board, play, add)
    _check_supply(board, play, ts, add)
    if rack is not None:
        _check_rack(play, rack, profile, add)
    return errors


def _check_letters(play: Play, ts: TileSet, add) -> None:
    alphabet, blank_only = ts.alphabet, ts.blank_only
    for t in play.tiles:
        letter = t.letter
        if letter in alphabet and (t.blank or letter not in blank_only):
            continue  # the usual case: nothing to report
        name = square_name(t.row, t.col)
        if letter == BLANK:
            add(_error(BLANK_UNDESIGNATED, name, BLANK, square=name))
            continue
        code = UNKNOWN_LETTER if letter not in alphabet else BLANK_ONLY_LETTER  # else a tile
        add(_error(code, name, letter, letter=letter, square=name, language=language(ts.language)))


def _check_gaps(board: Board, play: Play, add) -> None:
    first, across = play.tiles[0], play.horizontal
    along = [t.col if across else t.row for t in play.tiles]
    lo, hi = min(along), max(along)
    if hi - lo + 1 == len(play.tiles):
        return  # distinct squares (else no gap check) in one line (Play) that fill lo..hi
    new = {(t.row, t.col) for t in play.tiles}
    for i in range(lo, hi + 1):
        r, c = (first.row, i) if across else (i, first.col)
        if (r, c) not in new and board.cells[r * SIZE + c] is None:
            name = square_name(r, c)
            add(_error(GAP, name, square=name))


def _check_connection(board: Board, play: Play, add) -> None:
    if board.count == 0:
        if not any((t.row, t.col) == CENTRE for t in play.tiles):
            centre = square_name(*CENTRE)
            add(_error(CENTRE_NOT_COVERED, centre, square=centre))
        if len(play.tiles) < 2:
            add(_error(TOO_FEW_TILES))
        return
    for t in play.tiles:
        r, c = t.row, t.col
        if board[r - 1, c] or board[r + 1, c] or board[r, c - 1] or board[r, c + 1]:
            return
    add(_error(NOT_TOUCHING))


def _check_supply(board: Board, play: Play, ts: TileSet, add) -> None:
    # A loop, not a Counter: this runs for every move, and Counter cost about 6 % of a move.
    new_letters: dict[str, int] = {}
    new_blanks = 0
    for t in play.tiles:
        if t.blank:
            new_blanks += 1
        elif t.letter in ts.counts:
            new_letters[t.letter] = new_letters.get(t.letter, 0) + 1
    for letter, k in new_letters.items():
        have = ts.counts[letter]
        used = board.letters.get(letter, 0) + k
        if used > have:
            add(_error(TOO_MANY_OF_LETTER, None, letter, n=used, letter=letter, have=have))
    if new_blanks and board.blanks + new_blanks > ts.blanks:
        add(_error(TOO_MANY_BLANKS, None, BLANK, n=board.blanks + new_blanks, have=ts.blanks))


def _check_rack(play: Play, rack: str, profile: LanguageProfile, add) -> None:
    counts, bad = read_rack(rack, profile)
    for ch in bad:
        add(_error(BAD_RACK, None, ch, char=repr(ch)))
    for t in play.tiles:
        key = BLANK if t.blank else t.letter
        if counts.get(key, 0) > 0:
            counts[key] -= 1
            continue
        name = square_name(t.row, t.col) if on_board(t.row, t.col) else None
        said = (
            Said("placement_blank_not_on_rack", square=name)
            if t.blank
            else Said("placement_not_on_rack", letter=t.letter, square=name)
        )
        add(PlacementError(NOT_ON_RACK, said, name, key))
