"""The board as a picture: a self-contained SVG, drawn on the server.

One renderer for the API (`games/board`, one position) and the directors' "Check a game" page
(every position of a game in one picture, each tile marked with the turns it lay on the board,
which the page's script shows turn by turn). Premium squares come from the board layout
(`board.LAYOUT`, docs/rules.md §3), tile values from the language profile; a blank shows its
letter in red in a dashed ring and no value; the last move on the board is outlined.

Only presentation attributes, never `style`: the pages' Content-Security-Policy allows no inline
style, and an SVG inlined in a page is held to it. Nothing here knows about words or lexicons.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape

from adjudicator.engine.board import COLUMNS, LAYOUT, Board, Cell
from lexicon.languages import LanguageProfile
from lexicon.limits import BOARD_SIZE as SIZE

MIMETYPE = "image/svg+xml"

CELL = 40  # one square, in the picture's units
MARGIN = 24  # room for the column letters and row numbers
WIDTH = MARGIN + SIZE * CELL + 8
CAPTION = 32  # the line under the board, when there is one

# Layout character → (fill, label, label colour). Colours of the printed board; each label has
# at least 4.5:1 contrast on its square.
PREMIUMS = {
    "=": ("#b3122e", "3W", "#ffffff"),
    "-": ("#f2a7b8", "2W", "#1a1a1a"),
    "*": ("#f2a7b8", "★", "#1a1a1a"),
    '"': ("#1d5b9e", "3L", "#ffffff"),
    "'": ("#a9d3ee", "2L", "#1a1a1a"),
}
PREMIUM_CODES = tuple(label for _, label, _ in PREMIUMS.values() if label.isascii())  # not ★

# A label as a page shows it, by its code above (`{"3W": "3O"}` for a Danish page: "ord"); a
# code left out shows itself. The API's pictures show the codes.
Labels = Mapping[str, str]

PLAIN = "#d9d3b8"
GRID = "#fbfaf4"
TILE = "#f5dc9a"
TILE_EDGE = "#8a6d2b"
INK = "#1a1a1a"
BLANK_INK = "#b3122e"
LAST = "#e05a00"


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile in the picture. `start`/`end` (the page's whole-game picture): the turn that put
    it down and the turn that took it off (None: still there at the end)."""

    row: int
    col: int
    cell: Cell
    start: int | None = None
    end: int | None = None


def position_svg(
    profile: LanguageProfile,
    board: Board,
    *,
    highlight: Collection[tuple[int, int]] = (),
    title: str = "Board",
    caption: str | None = None,
) -> str:
    """One position: the tiles on `board`, those on the `highlight` squares outlined."""
    tiles = [Placed(r, c, cell) for r, c, cell in board.tiles()]
    marked = set(highlight)
    return _svg(profile, tiles, lambda t: (t.row, t.col) in marked, title, caption, None, {})


def game_svg(
    profile: LanguageProfile, boards: Sequence[Board], *, title: str, labels: Labels | None = None
) -> str:
    """Every position of a game in one picture: `boards[k]` is the board after turn k
    (`boards[0]` the empty board). Each tile carries `data-from` (its turn) and, when a later
    turn took it off, `data-until`; the last turn is shown, its last move outlined. A page's
    script shows turn k by hiding the tiles outside [from, until) and outlining the newest of
    the others (`last_move`)."""
    tiles = spans(boards)
    newest = _newest(tiles)
    return _svg(profile, tiles, newest.__contains__, title, None, len(boards) - 1, labels or {})


def last_move(boards: Sequence[Board]) -> set[tuple[int, int]]:
    """The squares of the last move still on the last of `boards`, which the picture outlines:
    after a pass, a challenge or an end-of-game line, the play before it; after a withdrawal,
    the play before the one taken back."""
    return {(t.row, t.col) for t in _newest(spans(boards))}


def _newest(tiles: list[Placed]) -> set[Placed]:
    """The tiles still on the board that the latest turn to leave any there put down."""
    left = [t for t in tiles if t.end is None]
    latest = max((t.start for t in left if t.start), default=None)
    return {t for t in left if t.start == latest}


def spans(boards: Sequence[Board]) -> list[Placed]:
    """The tiles of a sequence of boards, each with the turns it lay there."""
    open_: dict[tuple[int, int], Placed] = {}
    done: list[Placed] = []
    for k in range(1, len(boards)):
        before, after = boards[k - 1], boards[k]
        for i in range(SIZE * SIZE):
            old, new = before.cells[i], after.cells[i]
            if old == new:
                continue
            square = divmod(i, SIZE)
            if old is not None:
                done.append(replace(open_.pop(square), end=k))
            if new is not None:
                open_[square] = Placed(*square, new, k)
    return sorted(done + list(open_.values()), key=lambda t: (t.start or 0, t.row, t.col))


def _svg(profile, tiles: Iterable[Placed], outlined, title, caption, shown, labels: Labels) -> str:
    height = WIDTH + (CAPTION if caption else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}"'
        f' width="{WIDTH}" height="{height}" role="img" aria-labelledby="board-title"'
        ' font-family="DejaVu Sans, Verdana, sans-serif" class="board">',
        f'<title id="board-title">{escape(title)}</title>',
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        *_grid(labels),
    ]
    for t in tiles:  # a blank shows no value
        out.append(_tile(t, profile.value(t.cell.letter), outlined(t), shown))
    if caption:
        y = WIDTH + CAPTION // 2 + 6
        out.append(
            f'<text x="{MARGIN}" y="{y}" font-size="16" fill="{INK}" class="caption">'
            f"{escape(caption)}</text>"
        )
    out.append("</svg>")
    return "\n".join(out)


def _at(index: int) -> int:
    return MARGIN + index * CELL


def _grid(labels: Labels) -> list[str]:
    """The board without tiles: its squares, premiums, lines, column letters and row numbers."""
    side = SIZE * CELL
    out = [f'<rect x="{MARGIN}" y="{MARGIN}" width="{side}" height="{side}" fill="{PLAIN}"/>']
    for r, row in enumerate(LAYOUT):
        for c, ch in enumerate(row):
            if ch not in PREMIUMS:
                continue
            fill, label, ink = PREMIUMS[ch]
            x, y = _at(c), _at(r)
            out.append(
                f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"'
                f' class="premium" data-square="{COLUMNS[c]}{r + 1}" data-premium="{label}"/>'
                f'<text x="{x + CELL // 2}" y="{y + CELL // 2 + 5}" font-size="13"'
                f' text-anchor="middle" fill="{ink}">{escape(labels.get(label, label))}</text>'
            )
    lines = "".join(f"M{MARGIN} {_at(i)}h{side}M{_at(i)} {MARGIN}v{side}" for i in range(SIZE + 1))
    out.append(f'<path d="{lines}" stroke="{GRID}" stroke-width="2" fill="none"/>')
    for i in range(SIZE):
        middle = _at(i) + CELL // 2
        out.append(
            f'<text x="{middle}" y="{MARGIN - 7}" font-size="13" text-anchor="middle"'
            f' fill="{INK}">{COLUMNS[i]}</text>'
            f'<text x="{MARGIN - 4}" y="{middle + 5}" font-size="13" text-anchor="end"'
            f' fill="{INK}">{i + 1}</text>'
        )
    return out


def _tile(t: Placed, value: int, outlined: bool, shown: int | None) -> str:
    x, y = _at(t.col), _at(t.row)
    cell = t.cell
    classes = ["tile"] + (["blank"] if cell.blank else []) + (["last"] if outlined else [])
    attrs = f'class="{" ".join(classes)}" data-square="{COLUMNS[t.col]}{t.row + 1}"'
    if shown is not None:  # the page's picture: which turns the tile lay there
        attrs += f' data-from="{t.start}"' + (f' data-until="{t.end}"' if t.end else "")
        if t.end is not None and t.end <= shown:
            attrs += ' visibility="hidden"'
    parts = [
        f"<g {attrs}>",
        f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" rx="4"'
        f' fill="{TILE}" stroke="{TILE_EDGE}" stroke-width="1"/>',
    ]
    if cell.blank:
        parts.append(
            f'<circle cx="{x + CELL // 2}" cy="{y + CELL // 2}" r="{CELL // 2 - 6}" fill="none"'
            f' stroke="{BLANK_INK}" stroke-width="1.5" stroke-dasharray="3 2"/>'
        )
    size = 22 if len(cell.letter) == 1 else 14  # a digraph tile (IJ) has two letters
    ink = BLANK_INK if cell.blank else INK
    parts.append(
        f'<text x="{x + CELL // 2 - (0 if cell.blank else 3)}" y="{y + CELL // 2 + 8}"'
        f' font-size="{size}" font-weight="bold" text-anchor="middle" fill="{ink}"'
        f' class="letter">{escape(cell.letter)}</text>'
    )
    if not cell.blank:
        parts.append(
            f'<text x="{x + CELL - 5}" y="{y + CELL - 5}" font-size="10" text-anchor="end"'
            f' fill="{INK}" class="value">{value}</text>'
        )
    # The outline of the move shown: drawn on every tile of the page's picture (its script
    # moves the `last` class); CSS hides it on the others. Standalone, only where it belongs.
    if outlined or shown is not None:
        parts.append(
            f'<rect x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" rx="5"'
            f' fill="none" stroke="{LAST}" stroke-width="3" class="outline"'
            + ("" if outlined else ' visibility="hidden"')
            + "/>"
        )
    parts.append("</g>")
    return "".join(parts)
