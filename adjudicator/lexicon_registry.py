"""The lexicon registry: every compiled artifact in the lexicon directory, loaded once.

Loading happens in `create_app`, before gunicorn forks its workers (`preload_app`), so the tries
are shared. Each trie is built from bytes read and checked against the manifest's sha256, never
mapped from the file, so nothing done to the files later changes what is served. A lexicon that
fails its checks is reported and left out; the rest serve. On a reload (`hotswap`), a lexicon
whose new files fail is refused and the build already loaded keeps serving.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from adjudicator.settings import current_settings
from lexicon import artifact
from lexicon.errors import LexiconError


@dataclass
class LexiconRegistry:
    directory: str
    loaded: dict[str, artifact.Lexicon] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)  # manifest file name → reason
    _disk: dict[str, tuple[tuple, dict[str, Any]]] = field(default_factory=dict, repr=False)

    def load_all(self, logger, previous: LexiconRegistry | None = None) -> None:
        """Load every `*.json`; with `previous`, a failing one keeps its loaded build."""
        folder = Path(self.directory)
        if not folder.is_dir():
            self.failed[str(folder)] = "lexicon directory does not exist"
            logger.error("lexicon directory %s does not exist", folder)
            if previous is not None:
                self.loaded.update(previous.loaded)
            return
        kept = {lex.manifest_path.name: lex for lex in previous.loaded.values()} if previous else {}
        for manifest in sorted(folder.glob("*.json")):
            try:
                lexicon = artifact.load(manifest)
            except LexiconError as exc:
                old = kept.get(manifest.name)
                if old is None:
                    self.failed[manifest.name] = exc.message
                    logger.error("lexicon %s left out: %s", manifest.name, exc)
                    continue
                sha = old.identity()["sha256"]
                self.failed[manifest.name] = (
                    f"{exc.message}; refused, the loaded build {sha[:16]}… keeps serving"
                )
                logger.error("lexicon %s refused: %s; %s keeps serving", manifest.name, exc, sha)
                lexicon = old
            if lexicon.id in self.loaded:
                self.failed[manifest.name] = f"duplicate lexicon id {lexicon.id!r}"
                continue
            self.loaded[lexicon.id] = lexicon
            logger.info(
                "lexicon %s loaded: %d words, sha256 %s",
                lexicon.id,
                lexicon.manifest["word_count"],
                lexicon.identity()["sha256"],
            )

    def on_disk(self, lexicon: artifact.Lexicon) -> dict[str, Any]:
        """Whether the files still hold the build being served (hashed again only on change).

        `same`; `newer_installed` (another build is installed: `adjudicator reload` serves it);
        `damaged` (the files fail their checks: the loaded copy keeps serving, a reload would
        refuse them and a restart would leave the lexicon out).
        """
        served = lexicon.identity()["sha256"]
        path = lexicon.manifest_path
        signature = _signature(path)
        cached = self._disk.get(lexicon.id)
        if cached and cached[0] == signature:
            return cached[1]
        try:
            manifest = artifact.read_manifest(path)
            installed = manifest["marisa"]["sha256"]
            artifact.read_trie(path, manifest)
        except LexiconError as exc:
            status = {"state": "damaged", "detail": str(exc)}
        else:
            status = (
                {"state": "same"}
                if installed == served
                else {"state": "newer_installed", "sha256": installed}
            )
        self._disk[lexicon.id] = (signature, status)
        return status


def _signature(manifest_path: Path) -> tuple:
    """Stat of the manifest and of every trie beside it: any write changes it."""
    parts = []
    for path in [manifest_path, *sorted(manifest_path.parent.glob("*.marisa"))]:
        try:
            st = os.stat(path)
        except OSError:
            parts.append((path.name, None))
            continue
        parts.append((path.name, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(parts)


def registry() -> LexiconRegistry:
    return current_app.extensions["lexicons"]


def init_app(app: Flask) -> None:
    reg = LexiconRegistry(current_settings(app).lexicon_dir)
    reg.load_all(app.logger)
    app.extensions["lexicons"] = reg
    app.extensions["last_reload"] = None  # a hot reload's report (process.hotswap), for readiness
