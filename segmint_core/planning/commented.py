"""Code commented out (or back in): the lines are the same, a comment marker before each.

Commenting a block out disables it (``disable code formatting check in
.travis.yml``, where the file alone said ``update .travis.yml``); taking the
markers away enables it again. The block is named by its own leading comment,
else the definition it holds, else the count of its lines.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

_MARKED = re.compile(r"^\s*(?:#|//|--|;)\s?(.*)$")


@dataclass(frozen=True)
class CommentedEdit:
    disabled: bool  # commented out (True) or back in (False)
    lines: list[str]  # the block's lines as code, unmarked


def read_edit(added: list[str], removed: list[str]) -> CommentedEdit | None:
    """Where every changed line is a removed one with a comment marker put before it (or taken away)."""
    if not added or len(added) != len(removed):
        return None
    for marked, plain, disabled in ((added, removed, True), (removed, added, False)):
        unmarked = [m.group(1).strip() if (m := _MARKED.match(line)) else None for line in marked]
        if None not in unmarked and Counter(unmarked) == Counter(line.strip() for line in plain):
            if any(line.strip() and not _MARKED.match(line) for line in plain):  # not comments reworded
                return CommentedEdit(disabled, [line for line in plain if line.strip()])
    return None


def named(edit: CommentedEdit, defs: list[str]) -> str | None:
    """What the block is: its leading comment's words, else the definition it holds."""
    first = _MARKED.match(edit.lines[0]) if edit.lines else None
    if first and 2 <= len(first.group(1).split()) <= 6:
        text = first.group(1).strip().rstrip(".:")
        return text[0].lower() + text[1:] if text[1:2].islower() else text
    return defs[0] if defs else None
