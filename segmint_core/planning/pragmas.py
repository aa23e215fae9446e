"""Comments that tell a tool to look away: ``# type: ignore``, ``# noqa``, ``// nolint``.

A change that only adds, removes or edits such comments says so by their name
(``remove type: ignore from _config.py``), where the file alone said nothing
(``update _config.py``): the code around them is as it was.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

# Each directive, named as it is written (its codes or rule lists aside).
_DIRECTIVES = (
    (re.compile(r"#\s*type:\s*ignore\b(?:\[[^\]]*\])?"), "type: ignore"),
    (re.compile(r"#\s*pyright:\s*ignore\b(?:\[[^\]]*\])?"), "pyright: ignore"),
    (re.compile(r"#\s*noqa\b(?::?\s*[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)?", re.IGNORECASE), "noqa"),
    (re.compile(r"#\s*pragma:\s*no\s*(?:cover|branch)\b"), "pragma: no cover"),
    (re.compile(r"#\s*pylint:\s*disable=[\w,-]+"), "pylint: disable"),
    (re.compile(r"#\s*nosec\b"), "nosec"),
    (re.compile(r"//\s*@ts-(?:ignore|expect-error)\b.*$"), "@ts-ignore"),
    (re.compile(r"(?://|/\*)\s*eslint-disable(?:-next-line|-line)?\b[^*]*(?:\*/)?"), "eslint-disable"),
    (re.compile(r"//\s*nolint\b(?::[\w,]+)?"), "nolint"),
    (re.compile(r"^\s*#!?\[allow\([\w:, ]+\)\]\s*$"), "#[allow]"),
)


@dataclass
class PragmaEdit:
    added: list[str] = field(default_factory=list)  # directives the new lines carry more of
    removed: list[str] = field(default_factory=list)  # and fewer of (both: the same ones, edited)


def directives(line: str) -> list[str]:
    return [name for pattern, name in _DIRECTIVES if pattern.search(line)]


def without_directives(line: str) -> str:
    for pattern, _ in _DIRECTIVES:
        line = pattern.sub("", line)
    return line.rstrip()


def read_edit(added: list[str], removed: list[str]) -> PragmaEdit | None:
    """What a change does to such comments, where that is all it does: without them its added
    lines are its removed ones."""
    plus, minus = (
        Counter(d for line in added for d in directives(line)),
        Counter(d for line in removed for d in directives(line)),
    )
    if not plus and not minus:
        return None
    kept = lambda lines: Counter(s for line in lines if (s := without_directives(line)).strip())  # noqa: E731
    if kept(added) != kept(removed):
        return None
    more, fewer = plus - minus, minus - plus
    if not more and not fewer:  # as many as before, their codes edited
        return PragmaEdit(list(plus), list(minus))
    return PragmaEdit(list(more), list(fewer))
