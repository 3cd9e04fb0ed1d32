"""The `lexicon` console script. Light on purpose: a Ctrl-C while the command line imports
(marisa-trie, the normaliser) ends it in one line, not a traceback (lexicon.console.run_command)."""

from __future__ import annotations

from lexicon.console import run_command


def main() -> int:
    return run_command("lexicon", "compiler.cli")
