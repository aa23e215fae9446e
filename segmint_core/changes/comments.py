"""Which changed lines of a hunk explain code (comments, docstrings) rather than change it.

Read by the titles: a change mostly of docstrings and comments says what it
documents. (Grouping tried it to join one file's groups that only explain, and
left it out: ``docs/experiments/untangling.md``.)
"""

from __future__ import annotations

import re

# A comment line in the languages we read: ``#`` (not a shebang; Sphinx's ``#:`` before an attribute), ``//``,
# ``/*``, `` * ``, ``--``, ``;``.
# A star before a word or another star opens Python's ``*args``, ``**kwargs`` or a docstring's
# ``**bold**`` (Jinja's signature lines read as comments), not a block comment's line.
COMMENT = re.compile(r"^\s*(?:#(?!!):?|//|/\*+|\*(?![\w*])|--|;)\s*(.+?)\s*(?:\*/)?$")
# A comment's blank line: its marker alone (`` *`` in a JSDoc block, ``//``, ``#``), read as a blank line.
_BARE = re.compile(r"^\s*(?:#:?|//|\*)\s*$")


def explaining(lines: list[str]) -> list[bool | None]:
    """Per line of a hunk (``+``, ``-`` or context): True for a changed line that is a comment
    or inside a docstring, False for another changed line, None for context and blank lines.
    Each side of the hunk (old: context and removed lines; new: context and added lines) is
    walked on its own, as a docstring rewritten holds opening quotes on both; a hunk may start
    inside a docstring (``starts_inside``)."""
    flags: list[bool | None] = [None] * len(lines)
    for side in "-+":
        mine = [(at, line) for at, line in enumerate(lines) if line[:1] in (side, " ")]
        inside = starts_inside([line[1:] for _, line in mine])
        for at, line in mine:
            text = line[1:]
            quotes = text.count('"""') + text.count("'''")
            if line[:1] == side and text.strip() and not _BARE.match(text):
                flags[at] = bool(inside or quotes or COMMENT.match(text))
            if quotes % 2:
                inside = not inside
    return flags


def starts_inside(texts: list[str]) -> bool:
    """Whether these lines begin inside a docstring: their first triple quotes close one
    (alone on their line, not right after a ``def``/``class`` line ending in a colon)."""
    for n, text in enumerate(texts):
        quotes = text.count('"""') + text.count("'''")
        if not quotes:
            continue
        if quotes % 2 == 0 or text.strip() not in ('"""', "'''"):
            return False
        return not (n and texts[n - 1].rstrip().endswith(":"))
    return False
