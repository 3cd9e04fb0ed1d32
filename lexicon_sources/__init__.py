"""Data package: language profiles, recipes and the bundled open word lists.

It is a package only so that `importlib.resources` can find its files wherever it is installed.
"""
