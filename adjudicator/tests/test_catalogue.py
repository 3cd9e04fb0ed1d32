"""The catalogue's refusals are its own `RulesetRefused`, answered by the web layer."""

from __future__ import annotations

import pytest

from adjudicator.catalogue import RulesetRefused, lexicon_for, ruleset_or_404
from adjudicator.problems import Problem


def test_an_unknown_ruleset_is_refused_naming_it(app):
    with app.app_context(), pytest.raises(RulesetRefused) as raised:
        ruleset_or_404("no-such")
    error = raised.value
    assert (error.code, error.field, error.message) == (
        Problem.UNKNOWN_RULESET,
        "ruleset",
        "no ruleset 'no-such'",
    )


def test_a_ruleset_without_its_lexicon_cannot_rule(app):
    with app.app_context():
        ruleset = ruleset_or_404("naspa")
        app.extensions["lexicons"].loaded.pop(ruleset.lexicon)
        with pytest.raises(RulesetRefused) as raised:
            lexicon_for(ruleset)
    assert (raised.value.code, raised.value.field) == (Problem.RULESET_UNAVAILABLE, "ruleset")
    assert f"its lexicon {ruleset.lexicon!r} is not loaded" in raised.value.message
