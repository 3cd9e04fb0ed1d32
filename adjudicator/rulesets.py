"""Rulesets as data: the bundled TOML files, plus a deployment's own config directory.

A ruleset says what a federation allows the service to disclose and what a ruling costs. The
files are checked on load, and a bad one is rejected with its file and field, never half-used.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from adjudicator.bounds import MAX_CHALLENGE_WORDS
from adjudicator.disclosure import POLICIES
from adjudicator.game.challenge import outcome
from adjudicator.game.rules import Rules

CHALLENGE_MODES = ("challenge", "jury")
# Where a jury limit holds: everywhere, or only when the service runs a tournament (SBNL 003: "op
# landelijke Scrabbletoernooien"), an event's setting aside (`adjudicator.audit.jury.applies`).
JURY_LIMIT_APPLIES = ("always", "tournament")
CONSEQUENCE_KINDS = (
    "none",
    "challenger_loses_turn",
    "challenger_penalty",
    "player_bonus_per_word",
    "play_withdrawn",
    "turn_score_plus_penalty",
)
LOSS_WHEN = ("more_than", "at_least")  # overtime beyond the limit, or reaching it, loses
LEXICON_MAP_FILE = "lexicons.toml"


DRAW_BLANKS = ("beats_all", "not_counted")  # a blank drawn for who starts (docs/rules.md §12)
DRAW_NEAREST = ("start", "end")  # which end of the alphabet wins the draw (docs/rules.md §12)


class RulesetError(Exception):
    def __init__(self, file: str, field: str, message: str):
        super().__init__(f"{file}: field {field!r}: {message}")
        self.file, self.field, self.message = file, field, message


# (section, key) → (type, required). Sections not listed here are free-form but must be tables.
_SCHEMA: dict[tuple[str, str], tuple[type | tuple[type, ...], bool]] = {
    ("", "id"): (str, True),
    ("", "name"): (str, True),
    ("", "name_en"): (str, True),
    ("", "language"): (str, True),
    ("", "lexicon"): (str, True),
    ("", "sources"): (str, False),
    ("", "max_players"): (int, False),  # 2 unless said: tournament rules are for two (000 §1a)
    ("disclosure", "policy"): (str, True),
    ("challenge", "mode"): (str, True),
    ("challenge", "max_words"): (int, True),
    ("challenge", "valid"): (dict, True),
    ("challenge", "invalid"): (dict, True),
    ("challenge", "valid_text"): (dict, True),
    ("challenge", "invalid_text"): (dict, True),
    ("challenge", "free_challenge_option"): (bool, False),
    ("challenge", "free_challenge_text"): (dict, False),
    ("challenge", "jury_submissions_per_player"): (int, False),
    ("challenge", "jury_limit_applies"): (str, False),  # "always" unless said (JURY_LIMIT_APPLIES)
    ("challenge", "source"): (str, False),
    ("exchange", "source"): (str, False),
    ("exchange", "min_bag"): (int, True),
    ("exchange", "opening_turns"): (int, False),
    ("exchange", "opening_in_a_row"): (bool, False),
    ("exchange", "later_requires_previous_placement"): (bool, False),
    ("exchange", "later_max_in_a_row"): (int, False),
    ("pass", "allowed"): (bool, True),
    ("pass", "source"): (str, False),
    ("end", "source"): (str, False),
    ("end", "out_with_empty_bag"): (bool, True),
    ("end", "passes_in_a_row_each"): (int, True),
    ("end", "scoreless_turns"): (int, True),
    ("end", "scoreless_counts_withdrawn"): (bool, False),
    ("end", "scoreless_counts_exchanges"): (bool, False),
    ("end", "scoreless_needs_empty_bag"): (bool, False),
    ("end", "scoreless_counts_zero_point_plays"): (bool, False),
    ("end", "overtime_ends_game"): (bool, False),
    ("end", "time_up"): (bool, False),
    ("end", "blocked"): (bool, False),
    ("end", "equal_turns"): (bool, False),
    ("end", "stuck_player_sits_out"): (bool, False),
    ("end", "point_target_option"): (bool, False),
    ("final", "source"): (str, False),
    ("final", "own_rack_factor"): (int, True),
    ("final", "out_gains_factor"): (int, True),
    ("final", "scoreless_own_rack_factor"): (int, True),
    ("final", "ties"): (str, True),
    ("clock", "source"): (str, False),
    ("clock", "minutes"): (int, True),
    ("clock", "shared_clock"): (bool, False),
    ("clock", "penalty_per_started_minute"): (int, True),
    ("clock", "loss_after_minutes"): (int, True),
    ("clock", "loss_min_spread"): (int, True),
    ("clock", "loss_when"): (str, False),
    ("draw", "source"): (str, False),
    ("draw", "blank"): (str, False),
    ("draw", "winner_chooses"): (bool, False),
    ("draw", "choices"): (list, False),
    ("draw", "tiles_go_back"): (bool, False),
    ("draw", "nearest"): (str, False),
    ("draw", "nearest_option"): (bool, False),
    ("draw", "given_winner_option"): (bool, False),
    ("overdraw", "source"): (str, False),
    ("overdraw", "text"): (dict, False),
}
_SECTIONS = {section for section, _ in _SCHEMA if section}


@dataclass(frozen=True)
class Ruleset:
    id: str
    data: dict[str, Any]
    file: str

    @property
    def language(self) -> str:
        return self.data["language"]

    @property
    def lexicon_id(self) -> str:
        return self.data["lexicon"]

    @property
    def policy(self) -> str:
        return self.data["disclosure"]["policy"]

    @property
    def max_words(self) -> int:
        return self.data["challenge"]["max_words"]

    @cached_property
    def rules(self) -> Rules:
        """The typed view the game rules read; built once per loaded ruleset, not per request."""
        return Rules.from_data(self.data)

    def consequence(self, valid: bool, words: int, free_challenge: bool = False) -> dict[str, Any]:
        """What the ruling costs under this ruleset, in structured fields and in words.

        The arithmetic is the game rules' (`adjudicator.game.challenge.outcome`); `points` is
        the size of what the ruling moves for this many words. A challenge knows no turn score,
        so SBNL's "turn score + 20" shows its fixed part here.
        """
        result = outcome(self.rules, valid, words, free_challenge=free_challenge)
        key = "valid" if valid else "invalid"
        if free_challenge and valid and "free_challenge_text" in self.data["challenge"]:
            key = "free_challenge"
        return {
            "kind": result.kind,
            "points": abs(result.player_points) or abs(result.challenger_points),
            "text": dict(self.data["challenge"][key + "_text"]),
        }


def _check(data: dict[str, Any], file: str) -> None:
    def fail(field: str, message: str) -> RulesetError:
        return RulesetError(file, field, message)

    for key, value in data.items():
        if key in _SECTIONS:
            if not isinstance(value, dict):
                raise fail(key, "must be a table")
            for sub in value:
                if (key, sub) not in _SCHEMA:
                    raise fail(f"{key}.{sub}", "unknown field")
        elif ("", key) not in _SCHEMA:
            raise fail(key, "unknown field")
    for (section, key), (kind, required) in _SCHEMA.items():
        table = data if not section else data.get(section, {})
        name = f"{section}.{key}" if section else key
        if key not in table:
            if required:
                raise fail(name, "missing")
            continue
        value = table[key]
        if isinstance(value, bool) and kind is int or not isinstance(value, kind):
            raise fail(name, f"must be {kind.__name__}, not {type(value).__name__}")
        if kind is int and value < 0:
            raise fail(name, "must be ≥ 0")
    if data["disclosure"]["policy"] not in POLICIES:
        raise fail("disclosure.policy", f"must be one of {', '.join(POLICIES)}")
    if data["challenge"]["mode"] not in CHALLENGE_MODES:
        raise fail("challenge.mode", f"must be one of {', '.join(CHALLENGE_MODES)}")
    if data["challenge"].get("jury_limit_applies", "always") not in JURY_LIMIT_APPLIES:
        raise fail(
            "challenge.jury_limit_applies", f"must be one of {', '.join(JURY_LIMIT_APPLIES)}"
        )
    if not 1 <= data["challenge"]["max_words"] <= MAX_CHALLENGE_WORDS:
        raise fail("challenge.max_words", f"must be 1 to {MAX_CHALLENGE_WORDS}")
    for key in ("valid", "invalid"):
        rule = data["challenge"][key]
        if set(rule) != {"kind", "points"}:
            raise fail(f"challenge.{key}", "needs exactly 'kind' and 'points'")
        if rule["kind"] not in CONSEQUENCE_KINDS:
            raise fail(f"challenge.{key}.kind", f"must be one of {', '.join(CONSEQUENCE_KINDS)}")
        if not isinstance(rule["points"], int) or isinstance(rule["points"], bool):
            raise fail(f"challenge.{key}.points", "must be a whole number")
        text = data["challenge"][f"{key}_text"]
        if "en" not in text or data["language"] not in text and data["language"] != "en":
            raise fail(f"challenge.{key}_text", f"needs 'en' and {data['language']!r}")
        if not all(isinstance(v, str) and v for v in text.values()):
            raise fail(f"challenge.{key}_text", "every text must be a non-empty string")
    if data["clock"].get("loss_when", "more_than") not in LOSS_WHEN:
        raise fail("clock.loss_when", f"must be one of {', '.join(LOSS_WHEN)}")
    if data["final"]["ties"] != "shared":
        raise fail("final.ties", "only 'shared' is supported")
    draw = data.get("draw", {})
    if draw.get("blank", "beats_all") not in DRAW_BLANKS:
        raise fail("draw.blank", f"must be one of {', '.join(DRAW_BLANKS)}")
    if draw.get("nearest", "start") not in DRAW_NEAREST:
        raise fail("draw.nearest", f"must be one of {', '.join(DRAW_NEAREST)}")
    if draw.get("winner_chooses") and not draw.get("choices"):
        raise fail("draw.choices", "the winner of the draw needs something to choose from")


def load_ruleset_file(path: Path) -> Ruleset:
    file = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesetError(file, "-", f"cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(file, "-", f"not valid TOML: {exc}") from None
    _check(data, file)
    if data["id"] != path.stem:
        raise RulesetError(file, "id", f"is {data['id']!r} but the file is named {path.name}")
    return Ruleset(data["id"], data, file)


def bundled_files() -> list[Path]:
    folder = resources.files("adjudicator") / "rulesets"
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".toml"))


def load_rulesets(config_dir: str | Path | None = None) -> dict[str, Ruleset]:
    """The bundled rulesets, then the deployment's: same id replaces, new id adds.

    A `lexicons.toml` in the config directory (`dsf-2015 = "ro2012"`) repoints rulesets at a
    federation's own compiled lexicon without copying the whole ruleset.
    """
    files = bundled_files()
    lexicon_map: dict[str, str] = {}
    if config_dir:
        folder = Path(config_dir)
        if not folder.is_dir():
            raise RulesetError(str(folder), "-", "ruleset config directory does not exist")
        for path in sorted(folder.glob("*.toml")):
            if path.name == LEXICON_MAP_FILE:
                lexicon_map = _load_lexicon_map(path)
            else:
                files.append(path)
    rulesets: dict[str, Ruleset] = {}
    for path in files:
        ruleset = load_ruleset_file(path)
        rulesets[ruleset.id] = ruleset  # the config directory comes last and wins
    for ruleset_id, lexicon_id in lexicon_map.items():
        if ruleset_id not in rulesets:
            raise RulesetError(
                str(Path(config_dir) / LEXICON_MAP_FILE), ruleset_id, "no such ruleset"
            )
        old = rulesets[ruleset_id]
        rulesets[ruleset_id] = Ruleset(old.id, {**old.data, "lexicon": lexicon_id}, old.file)
    return rulesets


def _load_lexicon_map(path: Path) -> dict[str, str]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RulesetError(str(path), "-", f"cannot read: {exc}") from None
    for key, value in data.items():
        if not isinstance(value, str) or not value:
            raise RulesetError(str(path), key, "must be a lexicon id (a string)")
    return data
