"""Repeated similar edits: the same substitution (or the same added line) in many places.

A removed line paired with an added one gives a substitution: the tokens that
went and the tokens that came (``foo`` -> ``bar``). Units sharing one are
most likely one mechanical change; so are a removed line and the same line
added elsewhere (code that moved). Units are chained (each to the next one
with the same edit), so a rename across 500 places costs 500 links, not 125,000.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from functools import lru_cache

from segmint_core.grouping.links import Link, link
from segmint_core.grouping.signals.base import Context
from segmint_core.grouping.units import Unit

REPEATED = "repeated"
MOVED = "moved"
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|\S")
_MAX_TOKENS = 6


def links(ctx: Context) -> Iterator[Link]:
    holders: dict[str, list[int]] = defaultdict(list)
    for unit in ctx.units:
        for signature in sorted(signatures(unit)):
            holders[signature].append(unit.index)
    for signature in sorted(holders):
        yield from _chain(holders[signature], REPEATED, signature)
    yield from _moved(ctx)


def _chain(members: list[int], kind: str, detail: str) -> Iterator[Link]:
    if len(members) < 2:
        return
    for a, b in zip(members, members[1:]):
        yield link(a, b, 1.0, kind, detail)
    if len(members) > 2:
        yield link(members[0], members[-1], 1.0, kind, detail)


def _moved(ctx: Context) -> Iterator[Link]:
    """A line removed in one unit and added in another: code that moved."""
    removed: dict[str, list[int]] = defaultdict(list)
    added: dict[str, list[int]] = defaultdict(list)
    for unit in ctx.units:
        for text in {t for line in unit.removed if (t := _distinctive(line)) is not None}:
            removed[text].append(unit.index)
        for text in {t for line in unit.added if (t := _distinctive(line)) is not None}:
            added[text].append(unit.index)
    pairs: dict[tuple[int, int], str] = {}
    for text in sorted(removed.keys() & added.keys()):
        for a in removed[text][:4]:
            for b in added[text][:4]:
                if a != b:
                    pairs.setdefault((min(a, b), max(a, b)), text)
    for (a, b), text in sorted(pairs.items()):
        yield link(a, b, 1.0, MOVED, text)


@lru_cache(maxsize=1 << 16)  # asked twice per line (signatures, moved code)
def _distinctive(line: str) -> str | None:
    text = " ".join(line.split())
    return text if len(text) >= 12 and sum(ch.isalpha() for ch in text) >= 8 else None


def signatures(unit: Unit) -> set[str]:
    """The unit's substitutions (``old -> new``) and distinctive whole added/removed lines."""
    out: set[str] = set()
    removed, added = unit.removed, unit.added
    if removed and len(removed) == len(added):
        for old, new in zip(removed, added):
            sub = _substitution(old, new)
            if sub:
                out.add(sub)
    for sign, lines in (("+", added), ("-", removed)):
        for line in lines:
            text = _distinctive(line)
            if text:
                out.add(f"{sign} {text}")
    return out


def _substitution(old: str, new: str) -> str | None:
    a, b = Counter(_TOKEN.findall(old)), Counter(_TOKEN.findall(new))
    gone, came = a - b, b - a
    if not gone and not came:
        return None  # whitespace only
    if sum(gone.values()) > _MAX_TOKENS or sum(came.values()) > _MAX_TOKENS:
        return None
    if not any(t[0].isalpha() or t[0] == "_" for t in (*gone, *came)):
        return None  # punctuation only: too common to mean anything
    return f"{' '.join(sorted(gone.elements()))} -> {' '.join(sorted(came.elements()))}"
