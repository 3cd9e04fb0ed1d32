"""A game record at the turn cap, built to cost the most a record may: every line a play of
seven tiles beside seven others (eight words to form, score and look up), taken back at once so
the board never fills. Shared by the cost test and `benchmarks/verify_load.py`."""

from __future__ import annotations

from adjudicator.bounds import MAX_NAME_CHARS, MAX_TURNS

NICKS = ("A" * (MAX_NAME_CHARS // 3), "B" * (MAX_NAME_CHARS // 3))  # #player1 NICK NAME fits


def cap_gcg() -> str:
    first, second = NICKS
    lines = [f"#player1 {first} {first}", f"#player2 {second} {second}"]
    lines.append(f">{first}: ABCDEFG 8D ABCDEFG +10 10")
    totals = {first: 10, second: 0}
    turn = 0
    while len(lines) - 2 < MAX_TURNS:
        who = second if turn % 2 == 0 else first
        lines.append(f">{who}: HIJKLMN 9D HIJKLMN +80 {totals[who] + 80}")
        lines.append(f">{who}: HIJKLMN -- -80 {totals[who]}")
        turn += 1
    return "\n".join(lines[: MAX_TURNS + 2]) + "\n"


def cap_turns() -> dict:
    """The same game as JSON turns."""
    first, second = NICKS
    turns = [{"player": first, "type": "play", "move": "8D ABCDEFG", "score": 10}]
    turn = 0
    while len(turns) < MAX_TURNS:
        who = second if turn % 2 == 0 else first
        turns.append({"player": who, "type": "play", "move": "9D HIJKLMN", "score": 80})
        turns.append({"player": who, "type": "withdrawn", "score": -80})
        turn += 1
    return {"players": [first, second], "turns": turns[:MAX_TURNS]}
