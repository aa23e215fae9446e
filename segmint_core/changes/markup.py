"""Markup of docs files that the grouping and the message writer both read."""

from __future__ import annotations

import re

# reStructuredText underlines a title with a line of one punctuation character.
_UNDERLINE = re.compile(r"^\s*([=\-~^*+#])\1{2,}\s*$")


def is_underline(line: str) -> bool:
    """``=======``, ``-------``: the line under a reStructuredText title."""
    return _UNDERLINE.match(line) is not None


# A list item's marker before its text: "- ", "* ", "+ ", "1. ", "2) ".
_LIST_ITEM = re.compile(r"^\s*([-*+]|\d+[.)])\s+(?=\S)")


def list_item(line: str) -> str | None:
    """The marker of a list item (``-``, ``*``, ``+``; ``1.`` for any numbered one), None for a
    line that is no list item."""
    found = _LIST_ITEM.match(line)
    if found is None:
        return None
    return "1." if found.group(1)[0].isdigit() else found.group(1)


def without_list_marker(line: str) -> str:
    """``line`` without the list item marker it starts with, if any."""
    return _LIST_ITEM.sub("", line, count=1)


_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*$")
_FENCE = re.compile(r"^\s*(?:```|~~~)")


def is_fence(line: str) -> bool:
    """A line that opens or closes a fenced code block (```` ``` ````, ``~~~``)."""
    return _FENCE.match(line) is not None


def markdown_heading(line: str) -> str | None:
    """The text of a Markdown ``## Title`` line (closing ``#`` left out), else None."""
    m = _HEADING.match(line)
    return m.group(1) if m else None


def is_title(line: str, below: str | None, *, markdown: bool = False) -> bool:
    """Whether ``line`` is a title underlined by ``below``: ``=====`` at least as long, or in
    Markdown, whose setext headings may be underlined shorter, any ``===`` or ``---``
    (finalhandler's ``v1.3.0 / 2024-09-03`` over 18 ``=``)."""
    if below is None or not line.strip() or is_underline(line) or not is_underline(below):
        return False
    return len(below.strip()) >= len(line.strip()) or markdown and below.strip()[0] in "=-"


def section_titles(lines: list[str]) -> list[str | None]:
    """The title of the section each line is in: the last Markdown ``#`` heading or underlined
    title above it (a title's own line is in its section), None before the first; a ``#`` line
    inside a fenced code block is code, not a heading."""
    titles: list[str | None] = []
    current: str | None = None
    fenced = False
    for row, line in enumerate(lines):
        if is_fence(line):
            fenced = not fenced
        elif not fenced:
            if (heading := markdown_heading(line)) is not None:
                current = heading
            elif is_title(line, lines[row + 1] if row + 1 < len(lines) else None):
                current = line.strip()
        titles.append(current)
    return titles
