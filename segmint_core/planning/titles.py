"""Clean commit titles: one line of printable text, at most 72 characters.

A title is fitted by choosing shorter wording (the candidates a subject offers,
most detailed first), never by cutting it with an ellipsis; control characters
from paths or content are shown escaped (``\\n``, ``\\t``, ``\\x1b``), never kept.
"""

from __future__ import annotations

import re
import unicodedata

TITLE_LIMIT = 72
_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
_SPACES = re.compile(r" {2,}")


def printable(text: str) -> str:
    """``text`` with every control, line- or paragraph-separator character escaped."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable() or ch == " ":
            out.append(ch)
        elif ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif unicodedata.category(ch) in ("Zs",):
            out.append(" ")
        elif 0xDC80 <= ord(ch) <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape): as that byte
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        else:
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
    return "".join(out)


def one_line(text: str) -> str:
    return _SPACES.sub(" ", printable(text)).strip()


def fit(heads: list[str], candidates: list[str], limit: int = TITLE_LIMIT) -> str:
    """The first ``head + candidate`` within ``limit``: every wording under the first
    head, then under the next (a shorter prefix). If none fits, the shortest wording
    ends at the last whole word that fits."""
    candidates = [one_line(c) for c in candidates if c.strip()]
    heads = [one_line(h) + " " if h.strip() else "" for h in heads] or [""]
    for head in heads:
        for text in candidates:
            if len(head) + len(text) <= limit:
                return head + text
    head = heads[-1]
    words = (candidates[-1] if candidates else "").split(" ")
    kept = ""
    for word in words:
        if len(head) + len(kept) + len(word) + (1 if kept else 0) > limit:
            break
        kept = f"{kept} {word}" if kept else word
    return (head + kept).strip() or head.strip()[:limit]
