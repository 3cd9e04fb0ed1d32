"""The one error the game rules raise for input that cannot be true: answered with 422."""

from __future__ import annotations

from adjudicator.problems import DomainError, Problem


class GameInputError(DomainError, ValueError):
    """Input that is well formed but inconsistent with the ruleset or the tile set."""

    def __init__(
        self, message: str, field: str | None = None, code: Problem = Problem.INCONSISTENT_INPUT
    ):
        super().__init__(code, message, field)
