"""Shared test helpers: where the real game records are, and positions replayed from them."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from adjudicator.engine.board import Board
from adjudicator.engine.notation import Play
from adjudicator.game.gcg import GcgError, read, resolve_language
from adjudicator.game.walk import positions as record_positions
from adjudicator.rulesets import load_rulesets
from lexicon.languages import LanguageProfile, available_languages, load_profile

REPO = Path(__file__).resolve().parents[3]
# Public game records, copied into the repository with their origins and licences
# (records/SOURCES.md). Every test and benchmark that needs real records reads them here.
RECORDS = Path(__file__).resolve().parent / "records"


def gcg_files() -> list[Path]:
    """Every public record; their absence is an error, never a silent skip."""
    files = sorted(RECORDS.glob("*.gcg"))
    if not files:
        raise FileNotFoundError(f"no game records in {RECORDS} (see records/SOURCES.md)")
    return files


@cache
def positions() -> list[tuple[LanguageProfile, Board, Play]]:
    """(profile, board before, play) for every play of every readable record."""
    out: list[tuple[LanguageProfile, Board, Play]] = []
    rules = load_rulesets()["naspa"]  # the records are English; the lines do not matter
    for path in gcg_files():
        try:
            record = read(path)
            profile = load_profile(resolve_language(record, "en", available_languages()))
        except GcgError:
            continue
        out.extend(
            (profile, board, play) for board, play in record_positions(record, rules, profile)
        )
    return out
