"""What a title's verb claims, and the evidence the diff holds for it.

"Format" says the code means what it meant: only when the change leaves its
token stream as it was (whitespace tokens aside, read with the file's own
lexer), so a comma dropped between two strings, a quote inside a literal or a
reordered call is never formatting. "Rename" says the old name is gone and the
new one stands in its place: a name swapped for one the change does not define,
where the old one was defined, is a replacement ("use X instead of Y"). "Fix"
says something was broken: only with a tightened condition, an error now
handled, a missing value now checked, a changelog entry or comment that says
so, or an issue the changed text references.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Any

_QUOTES = re.compile(r"'{1,3}|\"{1,3}")
# A Rust string's line ending in a backslash skips the next line's leading whitespace (rustfmt moves it).
_RUST_CONTINUED = re.compile(r"\\\n\s*")
_OPENING = {"(", "[", "{"}
_CLOSING = {")", "]", "}"}
# A changelog entry or comment saying a fix: "Fix ...", "Fixed ...", "bug", "crash", "regression".
_FIX_WORDS = re.compile(r"\b(?:fix(?:es|ed)?|bugs?|crash(?:es|ed)?|regression|broken|workaround)\b", re.IGNORECASE)
# An issue the changed text names as fixed or closed ("Fixes #12", "closes GH-3").
ISSUE_FIXED = re.compile(r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s*(?:#|GH-|gh-)\d+", re.IGNORECASE)


@lru_cache(maxsize=256)
def lexer_for(path: str) -> Any:
    """The file's lexer (by its name), or None where pygments knows no language for it."""
    from pygments.lexers import get_lexer_for_filename
    from pygments.util import ClassNotFound

    try:
        return get_lexer_for_filename(PurePosixPath(path).name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


def code_names(path: str, lines: list[str]) -> list[str] | None:
    """The names the code of ``lines`` writes, read with the file's lexer (a word of a comment, a
    docstring or a string is none), or None without a lexer for ``path`` or past ``MAX_NAMED``."""
    lexer = lexer_for(path)
    text = "\n".join(lines)
    if lexer is None or len(text) > MAX_NAMED:
        return None
    from pygments.token import Name

    return [value for kind, value in lexer.get_tokens(text) if kind in Name]


MAX_NAMED = 1_000_000  # characters of a file lexed for its names, at most (a generated file is not)


def tokens(path: str, lines: Iterable[str]) -> list[str] | None:
    """The values of the lines' tokens as a formatter may not change them, or None without a lexer
    for ``path``: whitespace tokens left out (a string's own whitespace kept), the quote marks
    around a string read alike (``'a'`` is ``"a"``), and a comma closing a bracket that holds
    another comma dropped (black's trailing comma; ``(a,)`` keeps its comma, a tuple of one)."""
    lexer = lexer_for(path)
    if lexer is None:
        return None
    from pygments.token import String

    out: list[str] = []
    commas: list[int] = [0]  # commas seen in each open bracket
    in_string = False  # the last token kept was a string's text: the next one's continues it
    for kind, value in lexer.get_tokens("\n".join(lines)):
        if kind in String and not _QUOTES.fullmatch(value.strip()):
            # a string's whitespace is its value; its text as one token, however the lexer cut it
            if in_string:
                out[-1] += value
            else:
                out.append(value)
            if path.endswith(".rs"):
                out[-1] = _RUST_CONTINUED.sub("\\\n", out[-1])
            in_string = True
            continue
        in_string = False
        value = value.strip()
        if not value:
            continue
        if kind in String:
            value = "<quote3>" if len(value) == 3 else "<quote>"
        if value in _CLOSING and out and out[-1] == "," and commas[-1] > 1:
            out.pop()
        if value in _OPENING:
            commas.append(0)
        elif value in _CLOSING and len(commas) > 1:
            commas.pop()
        elif value == ",":
            commas[-1] += 1
        out.append(value)
    return out


def same_tokens(path: str, removed: list[str], added: list[str]) -> bool:
    """Whether replacing ``removed`` by ``added`` leaves the token stream of ``path`` as it was.
    Without a lexer, only whitespace may differ (every run of it, inside a line too)."""
    before, after = tokens(path, removed), tokens(path, added)
    if before is None or after is None:
        return "".join("".join(removed).split()) == "".join("".join(added).split())
    return before == after


def fix_evidence(facts: Any) -> bool:
    """Whether the diff shows a fix: an error handled, a missing value checked, a condition
    rewritten, an example's line or few rewritten, or words (a changelog entry, a comment) saying
    it fixes something."""
    if facts.handles or facts.missing or facts.typos or facts.conditions_changed or facts.changelog_fixes:
        return True
    if facts.sample_fixed:  # an example is rewritten where it showed the wrong thing
        return True
    said = [*facts.changelog_entries, *facts.comments, *facts.references]
    return any(_FIX_WORDS.search(text) or ISSUE_FIXED.search(text) for text in said)
