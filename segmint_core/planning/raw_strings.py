"""String literals only made raw: ``fix invalid escape sequences``, or ``use raw strings``.

A line rewritten with nothing but an ``r`` before its strings' quotes (``'-v\\s+'`` ->
``r'-v\\s+'``) changes no code but what a backslash means. Where an old literal held a
backslash before a character Python gives no meaning after one (``\\s``, ``\\[``, ``\\d``:
a ``DeprecationWarning``, later a ``SyntaxWarning``) or one it starts and does not finish
(``\\Users``), the change fixes invalid escape sequences; otherwise it only uses raw strings.
"""

from __future__ import annotations

import re

# An ``r`` prefix, alone or beside ``b`` or ``f``, directly before a string's quote.
_RAW = re.compile(r"""(?<![\w])([bBfF]?)[rR]([bBfF]?)(?=['"])""")
# A backslash before a character no escape sequence starts with, or starting one it does not
# finish (``C:\Users``: ``\U`` wants eight hex digits, a syntax error in Python 3); a
# backslash escaped by the one before it (``C:\\Users``) starts none.
_INVALID = re.compile(
    r"""(?<!\\)(?:\\\\)*\\(?:[^\\'"abfnrtvx0-7NuU\n]|x(?![0-9a-fA-F]{2})|u(?![0-9a-fA-F]{4})|U(?![0-9a-fA-F]{8})|N(?!\{))"""
)


def raw_strings_edit(pairs: list[tuple[str, str]], changed: int, kept: list[str]) -> str | None:
    """What a change of ``changed`` lines does where each is one of ``pairs`` (old, new) that
    only gains ``r`` prefixes: ``fix invalid escape sequences`` or ``use raw strings``; else None.
    The backslashes are read on the old lines and on the unchanged ones around them, a
    docstring's later lines (click's ``r\"\"\"`` for the ``C:\\Users`` below it), where those
    make no string raw themselves."""
    if not pairs or 2 * len(pairs) != changed:
        return None
    if any(old == new or _RAW.sub(r"\1\2", new) != old for old, new in pairs):
        return None
    read = [old for old, _ in pairs] + [line for line in kept if not _RAW.search(line)]
    return "fix invalid escape sequences" if any(map(_INVALID.search, read)) else "use raw strings"
