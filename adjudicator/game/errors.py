"""The one error the game rules raise for input that cannot be true: the API maps it to 422."""

from __future__ import annotations


class GameInputError(ValueError):
    """Input that is well formed but inconsistent with the ruleset or the tile set."""

    def __init__(self, message: str, field: str | None = None, code: str = "inconsistent_input"):
        super().__init__(message)
        self.message, self.field, self.code = message, field, code
