"""Markup of docs files that the grouping and the message writer both read."""

from __future__ import annotations

import re

# reStructuredText underlines a title with a line of one punctuation character.
_UNDERLINE = re.compile(r"^\s*([=\-~^*+#])\1{2,}\s*$")


def is_underline(line: str) -> bool:
    """``=======``, ``-------``: the line under a reStructuredText title."""
    return _UNDERLINE.match(line) is not None


_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*$")
_FENCE = re.compile(r"^\s*(?:```|~~~)")


def section_titles(lines: list[str]) -> list[str | None]:
    """The title of the section each line is in: the last Markdown ``#`` heading or underlined
    title above it (a title's own line is in its section), None before the first; a ``#`` line
    inside a fenced code block is code, not a heading."""
    titles: list[str | None] = []
    current: str | None = None
    fenced = False
    for row, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            if m := _HEADING.match(line):
                current = m.group(1)
            elif (row + 1 < len(lines) and line.strip() and not is_underline(line)
                  and is_underline(lines[row + 1]) and len(lines[row + 1].strip()) >= len(line.strip())):
                current = line.strip()
        titles.append(current)
    return titles
