"""The one error the game rules raise for input that cannot be true: the API maps it to 422."""

from __future__ import annotations

from adjudicator.problems import Problem


class GameInputError(ValueError):
    """Input that is well formed but inconsistent with the ruleset or the tile set."""

    def __init__(
        self, message: str, field: str | None = None, code: Problem = Problem.INCONSISTENT_INPUT
    ):
        super().__init__(message)
        self.message, self.field, self.code = message, field, code
