"""The adjudicator's tiny test lexicons, for tests that start an app on a store."""

from adjudicator.tests.conftest import lexicon_dir  # noqa: F401
