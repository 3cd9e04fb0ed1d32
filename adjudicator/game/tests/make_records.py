"""Write the long made-up records in `records/`: whole games that empty the bag, which nobody
writes by hand. Run `.venv/bin/python -m adjudicator.game.tests.make_records` and read the diff.

The draw is a seeded shuffle of the language's tile set; each turn the player puts down as many
tiles from the rack as the placement rules allow (the first legal placement found, longest
first). No lexicon is consulted: the records test the rules of the game, not the words, and are
replayed with `--no-lexicon`. Scores are the engine's; the end-of-game lines are worked out by
hand in `test_long_games.py`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator.engine.board import Board
from adjudicator.engine.evaluate import MoveResult, apply_play, evaluate_move
from adjudicator.game.racks import BLANK, rack_text
from lexicon.languages import LanguageProfile, load_profile
from lexicon.limits import BOARD_SIZE, RACK_SIZE

RECORDS = Path(__file__).parent / "records"


@dataclass
class Game:
    profile: LanguageProfile
    names: list[str]
    seed: int
    board: Board = field(default_factory=Board)
    bag: list[str] = field(default_factory=list)
    racks: list[list[str]] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        tiles = [k for k, t in self.profile.tiles.items() for _ in range(t.count)]
        tiles += [BLANK] * self.profile.blanks
        random.Random(self.seed).shuffle(tiles)
        self.bag = tiles
        self.racks = [self.draw(RACK_SIZE) for _ in self.names]
        self.totals = [0] * len(self.names)

    def draw(self, n: int) -> list[str]:
        got, self.bag = self.bag[:n], self.bag[n:]
        return got

    def rack(self, p: int) -> str:
        return rack_text({t: self.racks[p].count(t) for t in set(self.racks[p])})

    def line(self, p: int, move: str, score: int) -> None:
        self.totals[p] += score
        rack = self.rack(p)
        self.lines.append(
            f">{self.names[p]}: {rack} {move} {score:+d} {self.totals[p]}".replace("  ", " ")
        )

    def play(self, p: int, max_tiles: int = RACK_SIZE) -> bool:
        """The longest legal placement from p's rack; False when there is none."""
        found = next(self._placements(p, max_tiles), None)
        if found is None:
            return False
        result, used = found
        self.line(p, result.notation or "", result.score)
        apply_play(self.board, result.play)
        for tile in used:
            self.racks[p].remove(tile)
        self.racks[p] += self.draw(len(used))
        return True

    def exchange(self, p: int, n: int) -> None:
        out = self.racks[p][:n]
        self.line(p, "-" + "".join(out), 0)
        self.racks[p] = self.racks[p][n:] + self.draw(n)
        self.bag += out

    def pass_(self, p: int) -> None:
        self.line(p, "-", 0)

    def _placements(self, p: int, max_tiles: int) -> Iterator[tuple[MoveResult, list[str]]]:
        rack = self.racks[p]
        starts = [(7, 7)] if self.board.count == 0 else sorted(self._anchors())
        for n in range(min(max_tiles, len(rack)), 0, -1):
            used = rack[:n]
            for row, col in starts:
                for across in (True, False):
                    for back in range(n):
                        r0, c0 = (row, col - back) if across else (row - back, col)
                        squares = self._squares(r0, c0, across, n)
                        if squares is None or (row, col) not in squares:
                            continue
                        specs = [
                            (r, c, "e" if t == BLANK else t, t == BLANK)
                            for (r, c), t in zip(squares, used, strict=True)
                        ]
                        result = evaluate_move(self.profile, self.board, specs, self.rack(p))
                        if result.legal:
                            yield result, used

    def _squares(self, r: int, c: int, across: bool, n: int) -> list[tuple[int, int]] | None:
        out = []
        while len(out) < n:
            if not (0 <= r < BOARD_SIZE and 0 <= c < BOARD_SIZE):
                return None
            if self.board[r, c] is None:
                out.append((r, c))
            r, c = (r, c + 1) if across else (r + 1, c)
        return out

    def _anchors(self) -> set[tuple[int, int]]:
        out = set()
        for r in range(BOARD_SIZE):
            for c in range(BOARD_SIZE):
                if self.board[r, c] is None:
                    continue
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < BOARD_SIZE and 0 <= cc < BOARD_SIZE:
                        if self.board[rr, cc] is None:
                            out.add((rr, cc))
        return out

    def end_line(self, p: int, tiles: str, score: int) -> None:
        self.totals[p] += score
        self.lines.append(f">{self.names[p]}: ({tiles}) {score:+d} {self.totals[p]}")

    def text(self, title: str, lexicon: str, notes: list[str]) -> str:
        head = ["#character-encoding UTF-8", f"#title {title}", f"#lexicon {lexicon}"]
        head += [f"#note {n}" for n in notes]
        head += [f"#player{i + 1} {n} {n}" for i, n in enumerate(self.names)]
        return "\n".join(head + self.lines) + "\n"


def play_until(g: Game, bag_below: int = 1) -> int:
    """Players take turns placing tiles until fewer than `bag_below` tiles are in the bag;
    returns who moves next."""
    p = 0
    while len(g.bag) >= bag_below:
        assert g.play(p), "no placement found while the bag still holds tiles"
        p = (p + 1) % len(g.names)
    return p


def rack_value(g: Game, p: int) -> int:
    return sum(g.profile.value(t) for t in g.racks[p] if t != BLANK)


def dk_home_four_players() -> str:
    """dk-home, four players: the bag runs out, nobody goes out, six scoreless turns (passes)
    end the game (004 Pointgivning); everyone loses their own rack value, nobody gains."""
    g = Game(load_profile("da"), ["Mor", "Far", "Ida", "Bo"], seed=4)
    p = play_until(g)
    for _ in range(6):
        g.pass_(p)
        p = (p + 1) % 4
    for i in range(4):
        g.end_line(i, g.rack(i), -rack_value(g, i))
    return g.text(
        "Made-up four-player home game under dk-home (adjudicator/game/tests/make_records.py)",
        "WDANISH",
        ["Six passes after the bag ran out end the game (004 Pointgivning)."],
    )


def dk_home_three_players() -> str:
    """dk-home, three players: a player goes out with the bag empty; the next player's pass
    says they do not challenge that last play (the convention of Macondo and Woogles); the
    others lose their own rack value and the one who went out gains the sum (004)."""
    g = Game(load_profile("da"), ["Mor", "Far", "Ida"], seed=3)
    p = play_until(g)
    while not (g.play(p) and not g.racks[p]):
        p = (p + 1) % 3
    g.pass_((p + 1) % 3)
    others = [i for i in range(3) if i != p]
    tiles = rack_text(
        {
            t: sum(g.racks[i].count(t) for i in others)
            for t in set().union(*(g.racks[i] for i in others))
        }
    )
    g.end_line(p, tiles, sum(rack_value(g, i) for i in others))
    for i in others:
        g.end_line(i, g.rack(i), -rack_value(g, i))
    return g.text(
        "Made-up three-player home game under dk-home (adjudicator/game/tests/make_records.py)",
        "WDANISH",
        ["A pass after the last play: the opponent does not challenge it."],
    )


def sbnl_stuck_player() -> str:
    """sbnl-punten: with fewer than 16 tiles in the bag Piet can neither place his letters nor
    exchange, and passing is not allowed; Jan goes on placing until he goes out or cannot
    place either (003 Einde van het spel). Each loses their own rack value."""
    g = Game(load_profile("nl"), ["Jan", "Piet"], seed=5)
    p = play_until(g, bag_below=16)
    if p == 1:  # Piet's turn comes first: he is stuck, Jan plays on
        p = 0
    while g.racks[0] and g.play(0):
        pass
    for i in range(2):
        if g.racks[i]:
            g.end_line(i, g.rack(i), -rack_value(g, i))
    return g.text(
        "Made-up game under sbnl-punten (adjudicator/game/tests/make_records.py)",
        "WDUTCH",
        ["Piet can no longer place his letters; Jan plays on (003 Einde van het spel)."],
    )


def main() -> None:
    for name, text in (
        ("dk-home-4-players", dk_home_four_players()),
        ("dk-home-3-players", dk_home_three_players()),
        ("sbnl-punten-stuck", sbnl_stuck_player()),
    ):
        (RECORDS / f"{name}.gcg").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
