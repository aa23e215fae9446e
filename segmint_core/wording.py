"""Small helpers for the sentences Segmint prints."""

from __future__ import annotations

import re
from typing import Any

# Control characters (a newline or a tab in a file name), and bytes that are not
# UTF-8 (decoded by git's surrogateescape into U+DC80..U+DCFF).
_UNSHOWABLE = re.compile("[\x00-\x1f\x7f\udc80-\udcff]")
_UNDECODABLE = re.compile("[\udc80-\udcff]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


_PLAIN_WORD = re.compile(r"[a-z]+(?:['’-][a-z]+)*")  # add, don't, re-enable; not res.links, sendStatus, `x`
_WORD = re.compile(r"(?:[A-Za-z][a-z]+|[a-z])(?:['’-][a-z]+)*")  # Add, Don't, Re-enable; not HTTP, macOS, RunE


def capitalized(text: str) -> str:
    """``text`` with its first letter in upper case where its first word is a word; a name written as
    code keeps its case (``res.links should skip ...``, ``sendStatus``, ``go.mod``)."""
    first = _first_word(text)
    return text[:1].upper() + text[1:] if _PLAIN_WORD.fullmatch(first) else text


def uncapitalized(text: str) -> str:
    """``text`` with its first word in lower case where it is a word (``Add`` -> ``add``); a name
    keeps its case (``WebSocket``, ``HTTP``, ``RunE``, ``macOS``)."""
    first = _first_word(text)
    return first.lower() + text[len(first) :] if _WORD.fullmatch(first) and text.startswith(first) else text


def _first_word(text: str) -> str:
    return text.split(None, 1)[0].rstrip(",.:;!?") if text.strip() else ""


def counted(n: int, noun: str) -> str:
    """``1 hunk``, ``3 hunks``, ``1,200 hunks``, ``2 dependencies``: a count with its noun, plural
    unless it is one."""
    if n == 1:
        return f"{n:,} {noun}"
    plural = noun[:-1] + "ies" if noun[-1:] == "y" and noun[-2:-1] not in "aeiou" else noun + "s"
    return f"{n:,} {plural}"


def series(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def shown(text: str) -> str:
    """``text`` as one line a person can read, wherever a name or a title is shown (tables,
    commit subjects, sentences): a newline, tab or carriage return as ``\\n``, ``\\t``, ``\\r``,
    any other control character or byte that is not UTF-8 as ``\\xNN``; the rest as it is."""
    return text if _UNSHOWABLE.search(text) is None else _UNSHOWABLE.sub(_escape, text)


def readable(text: str) -> str:
    """``text`` (of several lines, a commit body say) with bytes that are not UTF-8 as ``\\xNN``,
    so it can be saved, printed and sent as JSON; its lines are kept."""
    return text if _UNDECODABLE.search(text) is None else _UNDECODABLE.sub(_escape, text)


def readable_data(data: Any) -> Any:
    """JSON-like data (dicts, lists, text) with every text ``readable``: what no transport
    can send as JSON otherwise (a Latin-1 file name kept as surrogates)."""
    if isinstance(data, str):
        return readable(data)
    if isinstance(data, dict):
        return {readable(k) if isinstance(k, str) else k: readable_data(v) for k, v in data.items()}
    if isinstance(data, list):
        return [readable_data(item) for item in data]
    return data


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code - 0xDC00 if code >= 0xDC80 else code:02x}"
