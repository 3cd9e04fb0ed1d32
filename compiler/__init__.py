"""Lexicon compiler: source word lists → normalised, checked, memory-mapped marisa-tries."""

__version__ = "0.1.0"
