"""An expression written instead of another on every line a change rewrites.

``viper.AddConfigPath("$HOME")`` become ``viper.AddConfigPath(os.Getenv("HOME"))`` in two
files is titled ``use os.Getenv("HOME") instead of "$HOME" in initConfig``, where the function
alone said ``fix initConfig``. Read from the rewritten line pairs: the tokens the old and new
line share at both ends are set aside; what is left must be the same swap on every pair whose
tokens differ, and the new side must call or name something (not only a literal, ``None``
or an operator: a changed number or a tightened condition says other things), the old one not
kept inside it (a value wrapped in a call is corrected, not replaced).
"""

from __future__ import annotations

import re

MAX_SPAN = 40  # characters a side; past that the swap is a rewrite, not a name for one
# Code tokens: a name, a number, a string (escapes allowed), else one character that is not blank.
_TOKEN = re.compile(r"""[A-Za-z_$][\w$]*+|\d[\w.]*+|"(?:[^"\\\n]|\\.){0,300}+"|'(?:[^'\\\n]|\\.){0,300}+'|\S""")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_COMMENT = re.compile(r"^\s*+(?:#|//|/\*|\*|--)")
_LITERALS = {"None", "True", "False", "null", "nil", "undefined", "true", "false", "NaN"}
_OPENS, _CLOSES = "([{", ")]}"


def swapped(pairs: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The (old, new) expressions every rewritten pair swaps, if they swap one."""
    found: set[tuple[str, str]] = set()
    for old, new in pairs:
        if _COMMENT.match(old) or _COMMENT.match(new):
            return None
        swap = _swap(old, new)
        if swap is None:
            return None
        if swap:
            found.add(swap)
    if len(found) != 1:
        return None
    old, new = found.pop()
    if len(old) > MAX_SPAN or len(new) > MAX_SPAN or not _calls_or_names(new):
        return None
    if old in new or new in old:  # wrapped or unwrapped: the old expression is kept, not replaced
        return None
    return old, new


def _swap(old: str, new: str) -> tuple[str, str] | tuple[()] | None:
    """What ``new`` writes instead of ``old`` between their shared ends; ``()`` where the tokens
    are the same (layout, or a trailing comment reworded); None where one side only grows (nothing was replaced)."""
    a, b = _code(old), _code(new)
    if [m.group() for m in a] == [m.group() for m in b]:
        return ()
    start = 0
    while start < min(len(a), len(b)) and a[start].group() == b[start].group():
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end].group() == b[-1 - end].group():
        end += 1
    gone, put = a[start : len(a) - end], b[start : len(b) - end]
    if not gone or not put:
        return None
    before, after = old[gone[0].start() : gone[-1].end()], new[put[0].start() : put[-1].end()]
    return (before, after) if _balanced(before) and _balanced(after) else None


def _code(line: str) -> list[re.Match[str]]:
    """The line's tokens before a trailing comment (``//`` or ``# ``, outside strings)."""
    tokens = list(_TOKEN.finditer(line))
    for n, m in enumerate(tokens):
        after = line[m.end() : m.end() + 1]
        if m.group() == "/" and after == "/" or m.group() == "#" and after in ("", " "):
            return tokens[:n]
    return tokens


def _balanced(text: str) -> bool:
    depth = 0
    for m in _TOKEN.finditer(text):
        token = m.group()
        depth += (token in _OPENS) - (token in _CLOSES)
        if depth < 0:
            return False
    return depth == 0


def _calls_or_names(text: str) -> bool:
    """A name outside the strings of ``text``: ``os.Getenv("HOME")``, ``time.monotonic()``."""
    return any(_NAME.fullmatch(t) and t not in _LITERALS for t in (m.group() for m in _TOKEN.finditer(text)))
