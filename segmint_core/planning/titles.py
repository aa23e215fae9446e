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
    kept = cut_short(candidates[-1] if candidates else "", limit - len(head))
    return (head + kept).strip() or head.strip()[:limit]


def cut_short(text: str, room: int) -> str:
    """``text`` in at most ``room`` characters: its words up to the last that fits, ended where a
    reader can stop (``_without_dangling_tail``)."""
    words = text.split(" ")
    kept = ""
    for word in words:
        if len(kept) + len(word) + (1 if kept else 0) > room:
            break
        kept = f"{kept} {word}" if kept else word
    return kept if kept == text else _without_dangling_tail(kept)


# Words a title cut short must not end on: "... options that should be", "... to send instead of the".
_DANGLING = frozenset(
    """a an the of to for with in on at by from into onto instead that which who whose and or but nor as
    than should would could can will shall may must be been being is are was were has have had not so
    if when while its their this these those via using per each every""".split()
)
_LAST_CLAUSE = 3  # words after a sentence's last comma that make a clause worth ending on
# Words opening a clause that adds a second thing to do (", and note it in the changelog"): cut, it is half said.
_JOINING = frozenset("and but or so then also plus while because since".split())


_CLOSERS = {"'": "'", '"': '"', "`": "`", "\u201c": "\u201d", "\u2018": "\u2019", "(": ")", "[": "]"}


def _without_dangling_tail(text: str) -> str:
    """A title cut at a word ended where a reader can stop: not inside a quote or brackets it opened
    ("...: 'if the other"), not on a function word, nor a couple of words into a new clause
    ("..., they currently") or into one that adds a second thing (", and note it")."""
    words = _before_open_quote(text.split(" "))
    while len(words) > 1:
        if words[-1].lower().strip(",;:") in _DANGLING:
            words.pop()
            continue
        if len(words) > 2 and words[-2].lower() == "by" and words[-1].lower().endswith("ing"):
            del words[-2:]  # "... by renaming": the means, cut before what it acts on
            continue
        clause = next((i for i in range(len(words) - 1, 0, -1) if words[i - 1].endswith((",", ";", ":"))), None)
        if clause is not None and (len(words) - clause < _LAST_CLAUSE or words[clause].lower() in _JOINING):
            words = words[:clause]
            continue
        break
    return " ".join(words).rstrip(",;:- ")


def _before_open_quote(words: list[str]) -> list[str]:
    """The words before a quote or bracket that opens and is not closed by the last word."""
    opened: tuple[int, str] | None = None  # where, and the mark that closes it
    for i, word in enumerate(words):
        if opened is None and word[:1] in _CLOSERS:
            closer = _CLOSERS[word[0]]
            if not word[1:].rstrip(".,;:!?").endswith(closer):
                opened = (i, closer)
        elif opened is not None and word.rstrip(".,;:!?").endswith(opened[1]):
            opened = None
    return words[: opened[0]] if opened is not None and opened[0] > 0 else words
