"""A ruling as a director reads it, in the page's language: its table, its words, its verdict and
what it costs. One reading for the rulings page and its export, so the file says what the
page said.

Entries are in the shape the search gives them (`search.item`); a value written around the
service (a row `audit verify` names) is shown as stored, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from adjudicator.pages.strings import fill


def shown_table(item: Mapping[str, Any]) -> str | None:
    """The table: as the request named it, else a paired tablet's name (a tablet stands at one
    table)."""
    table = item["table"]
    caller = item["caller"]
    if table is None and isinstance(caller, Mapping) and caller.get("kind") == "device":
        table = caller.get("name")
    return table


def as_written(words: Any) -> bool:
    """Whether stored words are as the service writes them: a list of objects, each with its
    `word` as text."""
    return isinstance(words, list) and all(
        isinstance(w, dict) and isinstance(w.get("word"), str) for w in words
    )


def words_text(words: Any, t: Mapping[str, str]) -> Any:
    """The words as a director reads them: `BLÅBÆR (gyldigt), QZX (ugyldigt)`, each word's
    verdict in `t`'s language where the ruling told it (not under the `play` policy)."""
    if not as_written(words):
        return words if words is None or isinstance(words, str) else orjson.dumps(words).decode()
    shown = []
    for w in words:
        valid = w.get("valid")
        verdict = "" if valid is None else f" ({t['word_valid' if valid else 'word_invalid']})"
        shown.append(w["word"] + verdict)
    return ", ".join(shown)


def verdict_text(verdict: Any, t: Mapping[str, str]) -> str:
    """The ruling's verdict in `t`'s language; empty where it gave none (a move's)."""
    if verdict is None:
        return ""
    return t.get(f"dir_verdict_{verdict}", str(verdict))


def kind_text(kind: Any, t: Mapping[str, str]) -> str:
    return t.get(f"dir_kind_{kind}", str(kind))


def caller_text(caller: Any, t: Mapping[str, str]) -> str:
    """Who asked: `Bord 7 (enhed)`."""
    if not isinstance(caller, Mapping):
        return str(caller)
    kind = caller.get("kind")
    return f"{caller.get('name')} ({t.get(f'dir_caller_{kind}', str(kind))})"


def consequence_text(consequence: Any, lang: str, t: Mapping[str, str]) -> str:
    """What the ruling costs, in words of `lang`: a challenge's in the ruleset's own words when
    it has them in `lang`, else the catalogue's for its kind and points (never another
    language's: a ruleset words its consequences in its own language and English only); a
    move's as legal or not and its score; a prune's as what it removed."""
    if consequence is None:
        return ""
    if isinstance(consequence, Mapping):
        text = consequence.get("text")
        pruned = consequence.get("pruned")
        if isinstance(pruned, Mapping):  # an `audit prune` entry: what it removed
            return fill(t["dir_pruned"], last=pruned.get("last_seq"), before=pruned.get("before"))
        if isinstance(text, Mapping) and isinstance(text.get(lang), str):
            return text[lang]
        if "kind" in consequence:  # a challenge's or a jury's, in the catalogue's words
            key = f"consequence_{consequence.get('kind')}"
            points = consequence.get("points", 0)
            if key not in t:  # a kind this version does not know (a newer writer's)
                return t["consequence_unknown"]
            return fill(t[key], points=points if isinstance(points, int) else 0)
        if "legal" in consequence:
            said = t["dir_move_legal" if consequence["legal"] else "dir_move_illegal"]
            score = consequence.get("score")
            if score is not None:
                said += ", " + fill(t["dir_move_points"], n=score)
            return said
    return orjson.dumps(consequence).decode()
