"""The core both the compiler and the service stand on: language profiles (alphabet, tiles,
folding), the one normaliser, the compiled artifact's format and reader, and the game's fixed
sizes. Nothing here depends on Flask or on the compiler."""

# The distribution's version, read by pyproject.toml, both CLIs' --version and the OpenAPI
# document's info.version: one source, so they cannot disagree. See CHANGELOG.md.
__version__ = "0.2.0"
