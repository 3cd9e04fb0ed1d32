"""The fixed sizes of the game, each in one place: every rule that needs one imports it here."""

BOARD_SIZE = 15  # squares a side
RACK_SIZE = 7  # tiles a player holds; a play of all seven is a bingo
MIN_LETTERS = 2  # a word is at least two letters
MAX_LETTERS = BOARD_SIZE  # and no longer than the board is wide
