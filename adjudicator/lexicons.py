"""The lexicon registry: every compiled artifact in the lexicon directory, memory-mapped once.

Loading happens in `create_app`, before gunicorn forks its workers (`preload_app`), so the
mapped pages are shared. A lexicon that fails its checks is reported and left out; the rest serve.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, current_app

from lexicon import artifact
from lexicon.errors import LexiconError


@dataclass
class LexiconRegistry:
    directory: str
    loaded: dict[str, artifact.Lexicon] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)  # manifest file name → reason

    def load_all(self, logger) -> None:
        folder = Path(self.directory)
        if not folder.is_dir():
            self.failed[str(folder)] = "lexicon directory does not exist"
            logger.error("lexicon directory %s does not exist", folder)
            return
        for manifest in sorted(folder.glob("*.json")):
            try:
                lexicon = artifact.load(manifest)
            except LexiconError as exc:
                self.failed[manifest.name] = exc.message
                logger.error("lexicon %s left out: %s", manifest.name, exc)
                continue
            if lexicon.id in self.loaded:
                self.failed[manifest.name] = f"duplicate lexicon id {lexicon.id!r}"
                continue
            self.loaded[lexicon.id] = lexicon
            logger.info("lexicon %s loaded: %d words", lexicon.id, lexicon.manifest["word_count"])

    def get(self, lexicon_id: str) -> artifact.Lexicon | None:
        return self.loaded.get(lexicon_id)


def registry() -> LexiconRegistry:
    return current_app.extensions["lexicons"]


def init_app(app: Flask) -> None:
    reg = LexiconRegistry(app.config["LEXICON_DIR"])
    reg.load_all(app.logger)
    app.extensions["lexicons"] = reg
