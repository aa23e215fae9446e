"""Markup of docs files that the grouping and the message writer both read."""

from __future__ import annotations

import re

# reStructuredText underlines a title with a line of one punctuation character.
_UNDERLINE = re.compile(r"^\s*([=\-~^*+#])\1{2,}\s*$")


def is_underline(line: str) -> bool:
    """``=======``, ``-------``: the line under a reStructuredText title."""
    return _UNDERLINE.match(line) is not None
