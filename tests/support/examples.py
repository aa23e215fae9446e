"""How many examples a property test runs: its own quick count in the default run,
the loaded profile's when one asks for a count (``--hypothesis-profile=thorough``: 2,000).

A test's ``@settings(max_examples=N)`` overrides every profile, so a test that wants a
quick count of its own takes it from here instead of writing the number.
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis.errors import InvalidArgument

DEFAULT_PROFILE = "segmint"  # tests/conftest.py: sets no count


def examples(quick: int) -> int:
    try:
        usual = settings.get_profile(DEFAULT_PROFILE).max_examples
    except InvalidArgument:  # imported outside pytest (a script reusing a test's helpers)
        return quick
    asked = settings.default.max_examples
    return quick if asked == usual else asked
