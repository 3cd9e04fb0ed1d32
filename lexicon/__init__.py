"""The core both the compiler and the service stand on: language profiles (alphabet, tiles,
folding), the one normaliser, the compiled artifact's format and reader, and the game's fixed
sizes. Nothing here depends on Flask or on the compiler."""
