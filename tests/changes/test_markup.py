"""The list items every reader of docs and changelogs recognises the same way."""

import pytest

from segmint_core.changes.markup import list_item, without_list_marker


@pytest.mark.parametrize(
    ("line", "marker"),
    [
        ("- Fix the parser.", "-"),
        ("  * nested entry", "*"),
        ("+ plus entry", "+"),
        ("1. first", "1."),
        ("12) twelfth", "1."),
        ("-", None),
        ("- ", None),
        ("**bold** text", None),
        ("--- a/file", None),
        ("1.5 is out", None),
        ("| a | b |", None),
        ("plain prose", None),
    ],
)
def test_a_list_item_is_known_by_its_marker(line: str, marker: str | None) -> None:
    assert list_item(line) == marker


def test_the_marker_is_taken_off_once() -> None:
    assert without_list_marker("- - nested dash") == "- nested dash"
    assert without_list_marker("3. Third entry") == "Third entry"
    assert without_list_marker("no marker") == "no marker"
