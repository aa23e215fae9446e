"""Punctuation a change only adds or takes out, the code's words and signs in the same order:
braces around an expression taken out (``{ Regex::new(...) }`` -> ``Regex::new(...)``),
parentheses or trailing commas added, an escaping backslash dropped, quotes swapped. Said
for what it is, not "rearrange": nothing moved."""

from __future__ import annotations

import re
from collections import Counter

# Words, numbers and signs: what a formatter leaves as it was (whitespace, line breaks, quote
# marks, commas and brackets are what it changes).
LAYOUT_TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|[^\s\w,()\[\]{}\\'\"`]+")
_NAMES = {
    "(": "parentheses",
    ")": "parentheses",
    "[": "brackets",
    "]": "brackets",
    "{": "braces",
    "}": "braces",
    ",": "commas",
    "\\": "backslashes",  # black's ``\#black-formatter``: an escape Markdown or YAML did not need
}
_ONE = {
    "parentheses": "a parenthesis",
    "brackets": "a bracket",
    "braces": "a brace",
    "commas": "a comma",
    "backslashes": "a backslash",
}
_QUOTES = {"'", '"'}


def punctuation_edit(added: list[str], removed: list[str]) -> str | None:
    """``remove braces``, ``add parentheses``, ``add commas``, ``use double quotes``; None where
    the words or signs changed or moved, or punctuation of several kinds changed."""
    if _tokens(added) != _tokens(removed):
        return None
    plus, minus = _marks(added), _marks(removed)
    gained, lost = plus - minus, minus - plus
    changed = set(gained) | set(lost)
    if not changed:
        return None
    if changed <= _QUOTES:
        return "use double quotes" if gained['"'] else "use single quotes"
    if gained and lost or changed - _NAMES.keys():
        return None
    kinds = {_NAMES[mark] for mark in changed}
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    if sum((gained or lost).values()) == 1:  # one comma, one backslash
        kind = _ONE[kind]
    return f"{'add' if gained else 'remove'} {kind}"


def _tokens(lines: list[str]) -> list[str]:
    return [token for line in lines for token in LAYOUT_TOKEN.findall(line)]


def _marks(lines: list[str]) -> Counter:
    return Counter(c for line in lines for c in line if c in _NAMES or c in _QUOTES)
