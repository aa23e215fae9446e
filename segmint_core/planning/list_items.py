"""Values a literal list (or set, or tuple) in code gains, and the name it goes by.

``ALLOWED_IMPORTS.update(['ctypes', 'msvcrt'])`` becoming ``...'msvcrt', 'zlib'])``
adds ``zlib`` to ``ALLOWED_IMPORTS``; so does a line ``"zlib",`` added inside
``ALLOWED = [`` spread over lines. Only where that is all the hunk changes.
"""

from __future__ import annotations

import re
from collections import Counter

from segmint_core.changes.models import Hunk

_STRING = re.compile(r"""(["'])([^"'\\\n]{1,60})\1""")
_ITEM_LINE = re.compile(r"""^\s*(["'])([^"'\\\n]{1,60})\1\s*,?\s*$""")
# What holds the list: ``NAME = [``, ``NAME: set[str] = {``, ``"key": [``, ``NAME.update([``, ``.extend(``.
_HOLDER = re.compile(
    r"""(?:^|[\s(,])([A-Za-z_][\w.]*|["'][\w.-]+["'])\s*(?::\s*[^=]+)?(?:=|:)\s*(?:set|frozenset|tuple|list)?\(?\s*[\[{(]"""
    r"""|(?<![\w.])([A-Za-z_][\w.]*)\.(?:update|extend|add|append|union)\(\s*[\[{(]?"""  # from a name's start
)


def added_items(hunk: Hunk) -> tuple[str | None, list[str]] | None:
    """(the list's name, the values it gains), where all the hunk does is add string values to one list."""
    plus = [line[1:] for line in hunk.lines if line[:1] == "+"]
    minus = [line[1:] for line in hunk.lines if line[:1] == "-"]
    if not plus:
        return None
    if len(plus) == len(minus) == 1:
        return _grown(minus[0], plus[0])
    if minus or not all(_ITEM_LINE.match(line) for line in plus):
        return None
    first = next(n for n, line in enumerate(hunk.lines) if line[:1] == "+")
    above = [line[1:] for line in hunk.lines[:first] if line[:1] == " "]
    opening = next((line for line in reversed(above) if not _ITEM_LINE.match(line)), "")
    if not re.search(r"[\[{(]\s*$", opening) or opening.rstrip().endswith("(") and not _HOLDER.search(opening):
        return None  # a call's arguments are no list
    return _holder(opening), [m.group(2) for line in plus if (m := _ITEM_LINE.match(line))]


def _grown(old: str, new: str) -> tuple[str | None, list[str]] | None:
    before, after = (
        Counter(m.group(2) for m in _STRING.finditer(old)),
        Counter(m.group(2) for m in _STRING.finditer(new)),
    )
    gained = list((after - before).elements())
    if not gained or before - after:
        return None
    shrunk = new
    for value in gained:  # the values taken out again, with the comma that separates them
        shrunk = re.sub(
            rf"""\s*,\s*(["']){re.escape(value)}\1|(["']){re.escape(value)}\2\s*,\s*""", "", shrunk, count=1
        )
    if "".join(shrunk.split()) != "".join(old.split()):
        return None
    return _holder(old), gained


def _holder(line: str) -> str | None:
    m = _HOLDER.search(line)
    if not m:
        return None
    return (m.group(1) or m.group(2)).strip("\"'")
