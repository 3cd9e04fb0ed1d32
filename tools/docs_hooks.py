"""MkDocs hooks: the reference pages are generated from the code, so they cannot drift.

A page asks for generated content with a marker line, `<!-- generated: NAME -->`, which is
replaced by GENERATORS[NAME](): every CLI command from the argparse parsers, every problem code
from the `Problem` enum that declares them (adjudicator/problems.py), the settings, the keys of a
ruleset file, the benchmarks' latest output and the CHANGELOG. The OpenAPI document itself is added
to the site as `reference/openapi.json` for the offline Swagger UI.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the hook runs from mkdocs, whose path may lack the checkout
    sys.path.insert(0, str(ROOT))
MARKER = re.compile(r"^<!-- generated: ([\w-]+) -->$", re.M)


def _parsers(parser: argparse.ArgumentParser, name: str):
    """(`adjudicator db upgrade`, its parser), depth first, as `--help` shows them."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {sub_name}")


def cli_reference() -> str:
    from adjudicator.cli import build_parser
    from compiler.cli import parser as lexicon_parser

    out = []
    for make in (build_parser, lexicon_parser):
        for name, parser in _parsers(make(), make().prog):
            level = "#" * min(2 + name.count(" "), 4)
            parser.prog = name
            help_text = parser.format_help().replace("```", "'''")
            out += [f"{level} `{name}`", "", "```text", help_text.rstrip(), "```", ""]
    return "\n".join(out)


def problem_codes() -> str:
    """The enum's own table: `adjudicator.problems` is the one place the codes are declared."""
    from adjudicator.problems import markdown_table

    return markdown_table()


def settings() -> str:
    """The declaration's own table: the one place the settings are listed."""
    from adjudicator.settings.reference import markdown_table

    return markdown_table()


def rulesets() -> str:
    """The ruleset model's own reference: every key a ruleset file may hold."""
    from adjudicator.rulesets import markdown_reference

    return markdown_reference()


def _who(security: list[dict] | None) -> str:
    if not security:
        return "anyone"
    names = [next(iter(s), None) for s in security]
    if names == ["directorSession"]:
        return "a director"
    optional = None in names
    return "anyone (open mode); a credential in tournament mode" if optional else "a credential"


def swagger_ui() -> str:
    """Swagger UI with the document inline, as a `data:` URL: a page opened from files may not
    fetch another file, so `src="openapi.json"` drew nothing there."""
    import base64

    encoded = base64.b64encode(site_openapi().encode()).decode()
    return f'<swagger-ui src="data:application/json;base64,{encoded}"/>'


def http_operations() -> str:
    """The API's operations from the OpenAPI document (its paths, summaries and `security`), so
    that the table lists every route the document does, and no other."""
    from adjudicator.api.meta import openapi_document

    doc = openapi_document()
    rows = ["| method and path | what it does | who may call |", "|---|---|---|"]
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            if not isinstance(op, dict) or "operationId" not in op:
                continue
            rows.append(
                f"| `{method.upper()} {path}` | {op['summary']} | {_who(op.get('security'))} |"
            )
    return "\n".join(rows)


def benchmark(name: str) -> Callable[[], str]:
    def run() -> str:
        text = (ROOT / "benchmarks" / f"{name}.out.txt").read_text("utf-8").rstrip()
        return f"```text\n{text}\n```"

    return run


def changelog() -> str:
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    return re.sub(r"^# .*\n", "", text, count=1).replace("\n## ", "\n### ")


# What each section of the nav is for, said on the home page before its pages.
SECTION_PURPOSE = {
    "Tutorial": "start here, in this order",
    "How-to guides": "tasks, step by step",
    "Reference": "the facts, generated from the code where they can be",
    "Explanation": "why it is the way it is",
}
_nav: list = []


def nav_index() -> str:
    """The home page's list of every page, from mkdocs.yml's nav: one list, so that a page added
    to the nav is on the home page too (it listed 6 of 11 how-tos)."""
    lines = []
    for section in _nav:
        ((title, pages),) = section.items()
        if not isinstance(pages, list):
            continue  # Home itself
        links = ", ".join(f"[{name}]({path})" for entry in pages for name, path in entry.items())
        purpose = SECTION_PURPOSE[title]
        lines.append(f"- **{title}** ({purpose}): {links}.")
    return "\n".join(lines)


GENERATORS: dict[str, Callable[[], str]] = {
    "cli": cli_reference,
    "problem-codes": problem_codes,
    "settings": settings,
    "rulesets": rulesets,
    "changelog": changelog,
    "http-operations": http_operations,
    "swagger-ui": swagger_ui,
    "nav-index": nav_index,
} | {
    f"benchmark-{p.name.removesuffix('.out.txt')}": benchmark(p.name.removesuffix(".out.txt"))
    for p in (ROOT / "benchmarks").glob("*.out.txt")
}


def site_openapi() -> str:
    """The document as the service serves it (its `info.version` filled from the package's one
    version: the committed file leaves it out), less `servers`, which only a live service knows."""
    from adjudicator.api.meta import openapi_document

    return json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n"


def on_config(config):
    _nav[:] = config["nav"]
    return config


def on_files(files: Files, config) -> Files:
    files.append(File.generated(config, "reference/openapi.json", content=site_openapi()))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    def replace(match: re.Match) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise KeyError(f"{page.file.src_path}: no generator named {name!r}")
        made = GENERATORS[name]()
        return made if made else match.group(0)

    return MARKER.sub(replace, markdown)
