"""The 15×15 board: premium layout (docs/rules.md §3) and the tiles on it.

Squares are addressed by 0-based (row, col); people read them as "H8" (column letter, then
row number, as on the printed board). Cells are stored in one flat tuple-indexed list because
scoring touches a handful of squares per play and must stay in the microsecond range.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from adjudicator.engine.tiles import per_profile, tile_letter
from lexicon.languages import LanguageProfile
from lexicon.limits import BOARD_SIZE as SIZE

CENTRE = (7, 7)
COLUMNS = "ABCDEFGHIJKLMNO"

# docs/rules.md §3: `=` TW, `-` DW, `"` TL, `'` DL, `*` centre (DW).
LAYOUT: tuple[str, ...] = (
    "=..'...=...'..=",
    '.-..."..."...-.',
    "..-...'.'...-..",
    "'..-...'...-..'",
    "....-.....-....",
    '."..."..."...".',
    "..'...'.'...'..",
    "=..'...*...'..=",
    "..'...'.'...'..",
    '."..."..."...".',
    "....-.....-....",
    "'..-...'...-..'",
    "..-...'.'...-..",
    '.-..."..."...-.',
    "=..'...=...'..=",
)
_LETTER_MULT = {"'": 2, '"': 3}
_WORD_MULT = {"-": 2, "*": 2, "=": 3}
#: letter and word multipliers by flat index r*SIZE+c
LETTER_MULT: tuple[int, ...] = tuple(_LETTER_MULT.get(ch, 1) for row in LAYOUT for ch in row)
WORD_MULT: tuple[int, ...] = tuple(_WORD_MULT.get(ch, 1) for row in LAYOUT for ch in row)


SQUARE_NAMES: tuple[str, ...] = tuple(
    f"{COLUMNS[c]}{r + 1}" for r in range(SIZE) for c in range(SIZE)
)
_EMPTY_ROW = "." * SIZE


class BoardError(ValueError):
    """A board given as text is malformed; `row` is 1-based when known."""

    def __init__(self, message: str, row: int | None = None):
        super().__init__(message if row is None else f"board row {row}: {message}")
        self.row = row


def on_board(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


def square_name(row: int, col: int) -> str:
    """`H8` for (7, 7); off-board squares get a readable stand-in."""
    if on_board(row, col):
        return SQUARE_NAMES[row * SIZE + col]
    return f"(row {row + 1}, column {col + 1})"


@dataclass(frozen=True, slots=True)
class Cell:
    """A tile on the board: its letter (as designated, for a blank) and whether it is a blank."""

    letter: str
    blank: bool = False

    def char(self) -> str:
        return self.letter.lower() if self.blank else self.letter


# Per profile (or None), the cell each board character stands for once it has been read: cells
# are immutable, so boards share them. Errors are not kept, so this holds only characters that
# are letters of the language.
_known_squares: Callable[[LanguageProfile | None], dict[str, Cell]] = per_profile(lambda _: {})


def _read_square(ch: str, profile: LanguageProfile | None) -> Cell | str:
    """The tile a board character stands for, or what is wrong with it."""
    if not ch.isalpha():
        return f"{ch!r} is neither '.' nor a letter"
    blank = ch.islower()
    letter = ch.upper()
    if profile is not None:
        folded = tile_letter(profile, ch)
        if folded is None:
            return f"{ch!r} is not a letter of {profile.english_name}"
        letter = folded
        if not blank and letter in profile.blank_only:
            return f"{letter} has no tile in {profile.english_name}; write it lower-case (a blank)"
    return Cell(letter, blank)


class Board:
    """Tiles on the 15×15 grid. Mutable by `place`/`remove`; `copy` before speculative use."""

    __slots__ = ("cells", "count", "letters", "blanks")

    def __init__(self, cells: Sequence[Cell | None] | None = None):
        self.cells: list[Cell | None] = list(cells) if cells is not None else [None] * SIZE**2
        if len(self.cells) != SIZE * SIZE:
            raise BoardError(f"a board has {SIZE * SIZE} squares, not {len(self.cells)}")
        # Kept up to date by place/remove, so tile-supply checks need not scan 225 squares.
        self.count = 0
        self.blanks = 0
        self.letters: dict[str, int] = {}
        if cells is not None:  # a new empty board has nothing to count
            for cell in filter(None, self.cells):
                self._tally(cell, 1)

    def _tally(self, cell: Cell, step: int) -> None:
        """A tile put down (`step` 1) or taken off (-1), in the counts."""
        self.count += step
        if cell.blank:
            self.blanks += step
        else:
            self.letters[cell.letter] = self.letters.get(cell.letter, 0) + step

    def __getitem__(self, rc: tuple[int, int]) -> Cell | None:
        r, c = rc
        return self.cells[r * SIZE + c] if 0 <= r < SIZE and 0 <= c < SIZE else None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.cells == other.cells

    def copy(self) -> Board:
        return Board(self.cells)

    def place(self, row: int, col: int, letter: str, blank: bool = False) -> None:
        self.remove(row, col)
        cell = self.cells[row * SIZE + col] = Cell(letter, blank)
        self._tally(cell, 1)

    def remove(self, row: int, col: int) -> None:
        i = row * SIZE + col
        if (old := self.cells[i]) is not None:
            self._tally(old, -1)
        self.cells[i] = None

    def tiles(self) -> Iterator[tuple[int, int, Cell]]:
        for i, cell in enumerate(self.cells):
            if cell is not None:
                yield i // SIZE, i % SIZE, cell

    def to_rows(self) -> list[str]:
        """15 strings: `.` empty, upper-case a tile, lower-case a blank."""
        return [
            "".join(
                "." if (cell := self.cells[r * SIZE + c]) is None else cell.char()
                for c in range(SIZE)
            )
            for r in range(SIZE)
        ]

    @classmethod
    def from_rows(cls, rows: Sequence[str], profile: LanguageProfile | None = None) -> Board:
        """Parse 15 strings of 15 characters. With a profile, letters are folded by the
        language's normaliser and checked against its alphabet; a blank-only letter
        (Danish Q, W) must be lower-case, since no such tile exists."""
        if len(rows) != SIZE:
            raise BoardError(f"a board needs {SIZE} rows, got {len(rows)}")
        known = _known_squares(profile)
        board = cls()
        cells = board.cells
        for r, text in enumerate(rows, start=1):
            if text == _EMPTY_ROW:  # most rows of most boards: no per-square work
                continue
            if not isinstance(text, str):
                raise BoardError("must be a string", r)
            if len(text) != SIZE:
                raise BoardError(f"needs {SIZE} squares, got {len(text)}", r)
            i = (r - 1) * SIZE
            for c, ch in enumerate(text):
                if ch == ".":
                    continue
                cell = known.get(ch)
                if cell is None:
                    read = _read_square(ch, profile)
                    if isinstance(read, str):
                        raise BoardError(f"square {COLUMNS[c]}{r}: {read}", r)
                    cell = known[ch] = read
                # Filled in place on an empty board: no second list, no rescan of 225 squares.
                cells[i + c] = cell
                board._tally(cell, 1)
        return board
