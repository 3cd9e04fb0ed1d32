"""The words a play forms: the main word along the play and every cross-word of ≥ 2 letters.

Assumes the placement is geometrically sound (on the board, free squares, one line, no gap);
`placement.check_placement` says whether it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.engine.board import SIZE, SQUARE_NAMES, Board
from adjudicator.engine.notation import Play, format_coordinate


@dataclass(frozen=True, slots=True)
class Word:
    """A run of ≥ 2 letters: start square, direction, letters, and per letter whether its tile
    is new this turn and whether it is a blank."""

    row: int
    col: int
    horizontal: bool
    letters: str
    new: tuple[bool, ...]
    blanks: tuple[bool, ...]
    main: bool = False

    @property
    def coordinate(self) -> str:
        return format_coordinate(self.row, self.col, self.horizontal)

    @property
    def display(self) -> str:
        """Letters with blanks in lower case, as a record would print the word."""
        if not any(self.blanks):
            return self.letters
        return "".join(
            ch.lower() if b else ch for ch, b in zip(self.letters, self.blanks, strict=True)
        )

    def square_names(self) -> list[str]:
        # A word lies inside the board, so its squares are a stride through the name table.
        start, step = self.row * SIZE + self.col, 1 if self.horizontal else SIZE
        return list(SQUARE_NAMES[start : start + step * len(self.letters) : step])


def _run(
    cells: list, new: dict[int, tuple[str, bool]], row: int, col: int, horizontal: bool, main: bool
) -> Word:
    """The maximal run of tiles (board or new) through (row, col) in one direction."""
    step = 1 if horizontal else SIZE
    i = row * SIZE + col
    # Walk back to the start of the run, staying inside the row/column.
    before = col if horizontal else row  # squares before (row, col) in its line
    while before and (cells[i - step] is not None or (i - step) in new):
        i -= step
        before -= 1
    r, c = divmod(i, SIZE)
    run: list[tuple[str, bool, bool]] = []  # letter, new this turn, blank
    for _ in range(SIZE - (c if horizontal else r)):
        t = new.get(i)
        if t is not None:
            run.append((t[0], True, t[1]))
        elif (cell := cells[i]) is not None:
            run.append((cell.letter, False, cell.blank))
        else:
            break
        i += step
    letters, fresh, blanks = zip(*run, strict=True)  # never empty: (row, col) holds a new tile
    return Word(r, c, horizontal, "".join(letters), fresh, blanks, main)


def formed_words(board: Board, play: Play) -> list[Word]:
    """Main word first (when it has ≥ 2 letters), then cross-words in play order."""
    if not play.tiles or play.horizontal is None:
        return []
    cells = board.cells
    new = {t.row * SIZE + t.col: (t.letter, t.blank) for t in play.tiles}
    horizontal = play.horizontal
    first = play.tiles[0]
    main = _run(cells, new, first.row, first.col, horizontal, True)
    words = [main] if len(main.letters) >= 2 else []
    cross_step = SIZE if horizontal else 1  # from a square to its neighbour across the play
    for t in play.tiles:
        # Fast path: most new tiles have no perpendicular neighbour, hence no cross-word.
        # (Perpendicular neighbours are never new tiles: those all lie in the play's line.)
        i, at = t.row * SIZE + t.col, t.row if horizontal else t.col
        before = at > 0 and cells[i - cross_step] is not None
        after = at < SIZE - 1 and cells[i + cross_step] is not None
        if not (before or after):
            continue
        cross = _run(cells, new, t.row, t.col, not horizontal, not words)
        if len(cross.letters) >= 2:
            words.append(cross)
    return words
