"""Game-record notation (`8H CAFé`) and structured tiles, both turned into one `Play`.

Conventions (documented in the README too):
- `8H` (row number first) is a horizontal play starting at row 8, column H; `H8` (column letter
  first) a vertical one. Column letters may be lower-case (`8d`, `h2`, as old Quackle records).
- In the word, an upper-case letter is a tile, a lower-case letter a blank designated as that
  letter, `?` a blank without a designation (an error the placement check reports).
- `.` marks a tile already on the board; `(LI)` (parenthesised board letters) is read the same
  way, with the letters checked against the board.
- Old style: board letters written in full. When the word has no `.` or `(`, a letter that
  lands on an occupied square holding that letter is a through-letter.
- Letters fold through the language's one Normaliser: Danish `É` is an E tile, `é` a blank E.
- Rendering always writes through-letters as `.` (the GCG convention of current tools).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from adjudicator.engine.board import COLUMNS, SIZE, Board
from adjudicator.engine.tiles import BLANK, tile_letter
from lexicon.languages import LanguageProfile

# Every spelling of every square, read once: `8H`/`8h` across, `H8`/`h8` down (row numbers
# 1-15, columns A-O in either case), so that parsing a coordinate is one dict lookup.
_COORDINATES: dict[str, tuple[int, int, bool]] = {}
for _r in range(SIZE):
    for _c, _col in enumerate(COLUMNS):
        for _letter in (_col, _col.lower()):
            _COORDINATES[f"{_r + 1}{_letter}"] = (_r, _c, True)
            _COORDINATES[f"{_letter}{_r + 1}"] = (_r, _c, False)


class NotationError(ValueError):
    """The text is not a play in game-record notation at all (bad coordinate, bad character).
    `tile` is the position of the structured tile whose letter is at fault, when there is one."""

    def __init__(self, message: str, tile: int | None = None):
        super().__init__(message)
        self.tile = tile


@dataclass(frozen=True, slots=True)
class NewTile:
    """A tile put down this turn: square, letter (the designation, for a blank), blank flag."""

    row: int
    col: int
    letter: str
    blank: bool = False


@dataclass(frozen=True, slots=True)
class Through:
    """A square the notation says is already covered; `letter` when the record spelled it."""

    row: int
    col: int
    letter: str | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """New tiles and direction. `horizontal` is None when the tiles are not in one line
    (placement reports it)."""

    tiles: tuple[NewTile, ...]
    horizontal: bool | None
    through: tuple[Through, ...] = ()


def parse_coordinate(text: str) -> tuple[int, int, bool]:
    """`8H` → (7, 7, horizontal=True); `H8` → (7, 7, False)."""
    square = _COORDINATES.get(text)
    if square is not None:
        return square
    raise NotationError(
        f"{text!r} is not a square: write 8H (across, row first) or H8 (down, column first), "
        f"rows 1-{SIZE}, columns A-{COLUMNS[-1]}"
    )


def format_coordinate(row: int, col: int, horizontal: bool) -> str:
    return f"{row + 1}{COLUMNS[col]}" if horizontal else f"{COLUMNS[col]}{row + 1}"


def _fold(profile: LanguageProfile, ch: str, tile: int | None = None) -> str:
    """The letter `ch` puts on a tile; a character the challenge would refuse (`Ж`, `ſ`, `ß`)
    is refused here too (`tile_letter`), never read as its upper case."""
    letter = tile_letter(profile, ch)
    if letter is None:
        raise NotationError(f"{ch!r} is not a letter of {profile.english_name}", tile)
    return letter


def parse(text: str, profile: LanguageProfile, board: Board | None = None) -> Play:
    """`8H CAFé` → Play. Needs the board only for old-style records (board letters in full)."""
    text = unicodedata.normalize("NFC", text).strip()
    parts = text.split()
    if len(parts) != 2:
        raise NotationError(f"{text!r}: a play is a square and a word, e.g. '8H CAFé'")
    return parse_parts(parts[0], parts[1], profile, board)


def parse_parts(coord: str, word: str, profile: LanguageProfile, board: Board | None) -> Play:
    row, col, horizontal = parse_coordinate(coord)
    word = unicodedata.normalize("NFC", word)
    dr, dc = (0, 1) if horizontal else (1, 0)
    old_style = "." not in word and "(" not in word and board is not None and board.count > 0
    tiles: list[NewTile] = []
    through: list[Through] = []
    in_parens = False
    i = 0
    for ch in word:
        if ch == "(":
            if in_parens:
                raise NotationError(f"{word!r}: nested '('")
            in_parens = True
            continue
        if ch == ")":
            if not in_parens:
                raise NotationError(f"{word!r}: ')' without '('")
            in_parens = False
            continue
        r, c = row + dr * i, col + dc * i
        i += 1
        if ch == ".":
            through.append(Through(r, c))
        elif ch == BLANK:
            if in_parens:
                raise NotationError(f"{word!r}: '?' cannot stand for a tile on the board")
            tiles.append(NewTile(r, c, BLANK, True))
        elif ch.isalpha():
            letter = _fold(profile, ch)
            if in_parens:
                through.append(Through(r, c, letter))
                continue
            if old_style:
                cell = board[r, c]  # type: ignore[index]
                if cell is not None and cell.letter == letter:
                    through.append(Through(r, c, letter))
                    continue
            tiles.append(NewTile(r, c, letter, ch.islower()))
        else:
            raise NotationError(f"{word!r}: {ch!r} is not a letter, '?', '.' or '(…)'")
    if in_parens:
        raise NotationError(f"{word!r}: '(' without ')'")
    if i == 0:
        raise NotationError("the word is empty")
    return Play(tuple(tiles), horizontal, tuple(through))


def play_from_tiles(
    specs: Iterable[tuple], profile: LanguageProfile, board: Board | None = None
) -> Play:
    """Structured tiles — (row, col, letter, blank) with 0-based row/col, `blank` optional —
    to a Play. The direction follows the tiles; a single tile takes the direction in
    which it extends a word on the board (across when both or neither)."""
    tiles: list[NewTile] = []
    for i, spec in enumerate(specs):
        row, col, letter, *rest = spec
        blank = bool(rest[0]) if rest else False
        if not isinstance(row, int) or not isinstance(col, int):
            raise NotationError("a tile's row and col must be whole numbers")
        if not isinstance(letter, str) or len(letter) > 1:
            raise NotationError(f"a tile's letter must be one character, got {letter!r}", i)
        letter = unicodedata.normalize("NFC", letter)
        if letter in ("", BLANK):
            letter = BLANK
            blank = True
        else:
            blank = blank or letter.islower()
            letter = _fold(profile, letter, i)
        tiles.append(NewTile(row, col, letter, blank))
    tiles.sort(key=lambda t: (t.row, t.col))
    if not tiles:
        return Play((), True)
    first = tiles[0]
    horizontal: bool | None
    if len(tiles) == 1 and board is not None:
        across = board[first.row, first.col - 1] or board[first.row, first.col + 1]
        down = board[first.row - 1, first.col] or board[first.row + 1, first.col]
        horizontal = bool(across) or not down
    elif len({t.row for t in tiles}) == 1:  # one row (or one tile and no board): across
        horizontal = True
    else:
        horizontal = False if len({t.col for t in tiles}) == 1 else None
    return Play(tuple(tiles), horizontal)


def render(play: Play, board: Board) -> str:
    """Standard notation of a play on `board` (the board before the play): the whole main
    line (the new tiles plus the board tiles touching them along the play's direction), new
    tiles as letters (lower-case = blank), board tiles as `.`."""
    if not play.tiles or play.horizontal is None:
        raise ValueError("only a play whose tiles lie in one line has a notation")
    dr, dc = (0, 1) if play.horizontal else (1, 0)
    new = {(t.row, t.col): t for t in play.tiles}
    first, last = play.tiles[0], play.tiles[-1]
    row, col = first.row, first.col
    while board[row - dr, col - dc] is not None or (row - dr, col - dc) in new:
        row, col = row - dr, col - dc
    er, ec = last.row, last.col
    while board[er + dr, ec + dc] is not None or (er + dr, ec + dc) in new:
        er, ec = er + dr, ec + dc
    out = []
    for k in range((er - row) + (ec - col) + 1):
        t = new.get((row + dr * k, col + dc * k))
        out.append("." if t is None else t.letter.lower() if t.blank else t.letter)
    return f"{format_coordinate(row, col, play.horizontal)} {''.join(out)}"


def render_tiles(tiles: Sequence[NewTile]) -> str:
    """A fallback description for tiles that form no line: `H8=C I9=a`."""
    return " ".join(
        f"{COLUMNS[t.col] if 0 <= t.col < SIZE else '?'}{t.row + 1}="
        f"{t.letter.lower() if t.blank else t.letter}"
        for t in tiles
    )
