"""A changelog line without its credits: the people it thanks and the issues it cites.

``- Fix foo. (#123) @alice @bob`` and ``Thanks to @x and @y`` name who did the
work and where it was discussed; a commit title says what the work is, so the
handles and references are left out before the line is read for its words.
What is left of a line that was only credits is empty.
"""

from __future__ import annotations

import re

from segmint_core.changes.changelog import EMPTY_BRACKETS, ISSUE_LABEL

# Possessive quantifiers (``*+``): what a handle or a run of them matched is never given back, so a
# line of hundreds of handles is read in linear time per position, not by trying every shorter run.
_HANDLE = r"@[A-Za-z0-9][\w-]*+(?![\w/@.-])"  # not a scoped package (@types/node) nor an address
_HANDLES = rf"{_HANDLE}(?:\s*+(?:,|\band\b|&)?+\s*+{_HANDLE})*+"
_THANKS = r"(?:special\s+)?(?:thanks|thank\s+you|kudos|props|credits?)(?:\s+(?:go(?:es)?\s+)?to)?"
_BY = r"(?:(?:contributed|reported|written|suggested|implemented|added|fixed|patch(?:ed)?)\s+)?by"
# A profile link written as the handle it is: [@bob](https://github.com/bob).
_HANDLE_LINK = re.compile(r"\[(@[A-Za-z0-9][\w-]*)\]\([^)\s]*\)")
_REFERENCE = re.compile(rf"{ISSUE_LABEL}|\[(?:#|GH-)\d+\]\([^)\s]*\)|(?<![\w&])(?:#|GH-)\d+\b", re.I)
_CREDIT = re.compile(
    rf"\(\s*+(?:(?:{_BY}|{_THANKS}|from|cc)\s+)?{_HANDLES}\s*+[.!]?+\s*+\)"  # (@bob), (by @bob, @carol)
    rf"|[,;]?+\s*+[-\u2013\u2014]?+\s*+\b(?:{_BY}|{_THANKS})\s*+:?+\s*+{_HANDLES}\s*+[.!]?+",  # by @bob, thanks to @x and @y
    re.I,
)
# Handles left standing after the entry's end: "Fix foo. (#123) @alice @bob", "Fix foo @a @b",
# or all a list item holds.
_TRAILING = re.compile(
    rf"(?:(?<=[.!?)\]])|^\s*(?:[-*+]\s+)?|(?=(?:{_HANDLE}\s*+,?+\s*+){{2}}))\s*+{_HANDLES}\s*+[.!]?+\s*$"
)
_EMPTY_BRACKETS = re.compile(rf"{EMPTY_BRACKETS}|\[\s*\]")


MAX_CHARS = 1000  # a title reads a line's start; a longer line's rest would only cost time


def uncredited(line: str) -> str:
    """``line`` (its first ``MAX_CHARS`` characters) without the handles it credits and the issue
    and pull-request numbers it cites."""
    text = _TRAILING.sub("", _CREDIT.sub("", _HANDLE_LINK.sub(r"\1", line[:MAX_CHARS])))
    text = _EMPTY_BRACKETS.sub("", _REFERENCE.sub("", text))
    return _TRAILING.sub("", text).rstrip()  # "@alice @bob (#12)": handles that stood before a reference
