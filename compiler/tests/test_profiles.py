"""A language profile's refusals name the file and the field (a manifest carries its profile)."""

from __future__ import annotations

import pytest

from lexicon.errors import LexiconError
from lexicon.languages import LanguageProfile, load_profile


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": "red"}, "unknown key 'colour' in language profile"),
        ({"blanks": None}, "missing key 'blanks' in language profile"),
        ({"tiles": {"Æ": {"count": 1, "value": 1}}}, "tiles: 'Æ' is not in the alphabet"),
        ({"alphabet": "ab"}, "'alphabet' must be upper-case letters, each once"),
    ],
)
def test_a_profile_is_refused_naming_its_source_and_field(change, message):
    data = load_profile("en").to_dict()
    if "tiles" in change:
        change = {"tiles": {**data["tiles"], **change["tiles"]}}
    data = {k: v for k, v in {**data, **change}.items() if v is not None}
    with pytest.raises(LexiconError) as caught:
        LanguageProfile.from_dict(data, source="en.json (profile)")
    assert str(caught.value) == f"en.json (profile): {message}"
