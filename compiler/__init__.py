"""Lexicon compiler: source word lists → normalised, checked, memory-mapped marisa-trie lexicons.

The compiler has no version of its own: a manifest's `compiler.version` is the distribution's
(`lexicon.__version__`), the one `lexicon --version` prints."""
