"""A wording too long for a title is cut where a reader can stop (``titles.cut_short``)."""

from __future__ import annotations

import pytest

from segmint_core.planning.titles import TITLE_LIMIT, cut_short

LONG = "docs/config.md to docs/configuration.md and every link to it in the guide"


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        (
            "Disallow empty options to help users find options that should be arguments",
            "Disallow empty options to help users find options",
        ),
        (
            "Fix the grammar of Context.forward: 'if the other command expects it' says 'them'",
            "Fix the grammar of Context.forward",
        ),
        (
            "Raise the default redirect limit from 20 to 30, and note it in the changelog",
            "Raise the default redirect limit from 20 to 30",
        ),
        (
            "res.links should skip links whose value is undefined, they currently render wrong",
            "res.links should skip links whose value is undefined",
        ),
        (f"Move the helpers doc to a new file by renaming {LONG}", "Move the helpers doc to a new file"),
        (
            "Speed up the parser by caching compiled patterns for each rule in the grammar tables",
            "Speed up the parser by caching compiled patterns",
        ),
    ],
)
def test_a_long_wording_ends_where_a_reader_can_stop(text: str, cut: str) -> None:
    assert len(text) > 60
    assert cut_short(text, 60) == cut


def test_a_wording_that_fits_is_kept_whole() -> None:
    text = "Say 'them' where the docstring says 'it', and test it"
    assert cut_short(text, TITLE_LIMIT) == text
