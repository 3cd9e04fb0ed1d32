"""The kinds of line in a game record, and of turn, in one place: the reader produces them,
the walk and the end-of-game rules read them."""

from __future__ import annotations

# Turns: a player's move.
PLAY = "play"
PASS = "pass"
EXCHANGE = "exchange"
WITHDRAWN = "withdrawn"  # the player's play came off the board after a challenge
LOST_TURN = "lost_turn"  # a failed challenge cost the challenger the turn (no line of its own)

# Lines that are not moves.
CHALLENGE = "challenge"
TIME = "time"
END_RACK = "end-rack"

TURNS = (PLAY, PASS, EXCHANGE)  # the lines that take the player's turn
