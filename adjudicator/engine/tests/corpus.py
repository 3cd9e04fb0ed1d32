"""Shared test helpers: where the real game records are, and positions replayed from them."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from adjudicator.engine.board import Board
from adjudicator.engine.gcg import GcgError, read, resolve_language
from adjudicator.engine.notation import Play
from adjudicator.engine.replay import positions as record_positions
from lexicon.languages import LanguageProfile, available_languages, load_profile

REPO = Path(__file__).resolve().parents[3]


def gcg_dir() -> Path:
    """`$SHARED_DIR/gcg`, else `../shared/gcg` beside the repository."""
    shared = os.environ.get("SHARED_DIR")
    base = Path(shared) if shared else REPO / ".." / "shared"
    return (base / "gcg").resolve()


def gcg_files() -> list[Path]:
    folder = gcg_dir()
    return sorted(folder.glob("*.gcg")) if folder.is_dir() else []


@cache
def positions() -> list[tuple[LanguageProfile, Board, Play]]:
    """(profile, board before, play) for every play of every readable record."""
    out: list[tuple[LanguageProfile, Board, Play]] = []
    for path in gcg_files():
        try:
            record = read(path)
            profile = load_profile(resolve_language(record, "en", available_languages()))
        except GcgError:
            continue
        out.extend((profile, board, play) for board, play in record_positions(record, profile))
    return out
