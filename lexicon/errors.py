"""One error type for everything a maintainer can get wrong, located by file and line."""

from __future__ import annotations


class LexiconError(Exception):
    """Bad input to the compiler: a recipe, a profile, a source file or an artifact."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        return where + self.message


def read_file(path, missing: str, what: str) -> bytes:
    """A file's bytes, or a LexiconError naming the file: `missing` if absent, else why not."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise LexiconError(missing, file=str(path)) from None
    except OSError as exc:
        raise LexiconError(f"cannot read {what}: {exc.strerror}", file=str(path)) from exc
