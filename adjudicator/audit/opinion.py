"""A second opinion for the director, never for the tablet.

For a disputed ruling (an invalid verdict, or any ruling the director opens) the directors'
rulings page shows what the ruleset's other editions say of the same words: the previous edition
(the one in force before the edition that ruled) and any other edition installed for that
ruleset, where the verdict or a word's verdict differs. The words are the ones the entry
recorded, already normalised. Only the directors' page calls this: an answer to a tablet, a key
or an anonymous caller never names another edition (the differential disclosure test proves
it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.audit.reading import as_written
from adjudicator.catalogue import editions_of
from adjudicator.disclosure import INVALID, VALID, VERDICTS
from adjudicator.rulesets import Ruleset
from lexicon import editions
from lexicon.artifact import Lexicon


@dataclass(frozen=True)
class Opinion:
    """One other edition's verdict on a ruling's words, and the words it judges otherwise."""

    edition: dict[str, Any]  # the edition's identity (`Lexicon.identity`)
    previous: bool  # the edition in force before the one that ruled
    verdict: str
    differs_on: tuple[str, ...]  # words it judges otherwise than the edition that ruled


@dataclass(frozen=True)
class SecondOpinion:
    others: int  # other editions installed for the ruleset
    differing: tuple[Opinion, ...]  # those whose verdict differs, the previous one first


def disputed(item: dict[str, Any], opened: str | None) -> bool:
    """An invalid verdict, or the ruling the director opened."""
    return item.get("verdict") == INVALID or (
        opened is not None and item.get("ruling_id") == opened
    )


def second_opinion(item: dict[str, Any], ruleset: Ruleset | None) -> SecondOpinion | None:
    """What the ruleset's other installed editions say of the ruling's words; None where there
    is nothing to judge (no ruleset, no words as the service writes them, no verdict)."""
    words = [w["word"] for w in item["words"]] if as_written(item.get("words")) else []
    if ruleset is None or not words or item.get("verdict") not in VERDICTS:
        return None
    installed = editions_of(ruleset)
    sha256 = (item.get("lexicon") or {}).get("sha256")
    ruled = next((e for e in installed if e.identity()["sha256"] == sha256), None)
    others = [e for e in installed if e is not ruled]
    before = editions.previous(installed, ruled) if ruled is not None else None
    ordered = sorted(others, key=lambda e: (e is not before, editions.since(e)))
    said = (_opinion(e, words, ruled, item["verdict"], e is before) for e in ordered)
    return SecondOpinion(len(others), tuple(o for o in said if o is not None))


def _opinion(
    edition: Lexicon, words: list[str], ruled: Lexicon | None, verdict: str, previous: bool
) -> Opinion | None:
    valid = {word: word in edition for word in words}
    theirs = VALID if all(valid.values()) else INVALID
    differs_on = tuple(
        w for w in dict.fromkeys(words) if ruled is not None and valid[w] != (w in ruled)
    )
    if theirs == verdict and not differs_on:
        return None
    return Opinion(edition.identity(), previous, theirs, differs_on)
