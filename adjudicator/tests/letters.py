"""Letters whose capital is two letters, and a body for every place a tile or notation is read:
shared by the never-500 fuzz and the schemathesis run's hooks (issue 27).

`str.upper` gives two letters for about a hundred characters (ß → SS, ﬁ → FI, ŉ → ʼN, ǰ → J̌,
ẗ → T̈ …). The challenge's query check refuses them; the move engine once read the two letters as
one tile, and scoring failed on it (a 500).
"""

from __future__ import annotations

from typing import Any

TWO_LETTER_CAPITALS = "".join(c for c in map(chr, range(0x110000)) if len(c.upper()) > 1)
SAMPLE = ("ß", "ﬁ", "ŉ", "ǰ", "t\u0308")  # the issue's; t + U+0308 composes to ẗ (NFC)


def letter_bodies(text: str, char: str) -> list[tuple[str, dict[str, Any]]]:
    """(the operation's path after the ruleset, a body) for each place a tile or notation is
    read, spelling `char` alone or `text` (a word holding it)."""
    board = ["." * 15] * 7 + [f".......{char}A......"] + ["." * 15] * 7
    gcg = "#player1 a a\n#player2 b b\n>a: {} 8H {} +10 10\n"
    turn = {"player": "a", "type": "play", "move": f"8H {text}", "rack": f"CAT{char}"}
    return [
        ("moves/validate", {"play": f"8H {text}"}),
        ("moves/validate", {"play": {"tiles": [{"row": 7, "col": 7, "letter": char}]}}),
        ("moves/validate", {"play": "8H CAT", "rack": text}),
        ("moves/validate", {"play": "8H CAT", "plays": [f"8H {text}"]}),
        ("moves/validate", {"play": "9H CAT", "board": board}),
        ("games/verify", {"gcg": gcg.format("CATDOGS", text)}),
        ("games/verify", {"gcg": gcg.format(f"CATDOG{char}", "CAT")}),
        ("games/verify", {"players": ["a", "b"], "turns": [turn]}),
        ("games/final-score", {"players": [{"name": "a", "score": 1, "rack": text}]}),
        ("games/draw-order", {"players": ["a", "b"], "draws": [{"a": char, "b": "A"}]}),
    ]
