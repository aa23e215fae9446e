"""Where a hunk may hold lines of two intents, and where to cut it.

Grouping works on *atoms*: pieces of a hunk between candidate cuts. Candidate
cuts are the starts of separate runs of changed lines (context between them)
and, in changelogs, the start of each new entry or heading, since adjacent
changelog entries are often separate intents. Atoms are
clustered like hunks; a hunk whose atoms land in different groups is cut
where the group changes. Every cut goes through ``split_hunk``'s own rules
(``part_ranges``), so each part still applies on its own.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection

from segmint_core.changes.models import Hunk
from segmint_core.changes.split import cut_points, part_ranges
from segmint_core.changes.kinds import CHANGELOG

CHANGED = ("+", "-")
# A line that starts a new entry in prose: a bullet, a numbered item, a heading, a directive.
_ITEM_START = re.compile(r"^\s{0,3}(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|\.\. |version\s|\{[a-z]+\}`)", re.I)


def atom_ranges(hunk: Hunk, kind: str, extra: Collection[int] = ()) -> list[tuple[int, int]]:
    """The ``[start, end)`` line ranges of a hunk's atoms (one range if it cannot be cut);
    ``extra``: more cuts wanted (where the recorded intent of its lines changes)."""
    lines = hunk.lines
    allowed = set(cut_points(lines))
    if not allowed:
        return [(0, len(lines))]
    wanted = [
        c for c in allowed if _starts_run(lines, c) or (kind == CHANGELOG and _starts_item(lines, c)) or c in extra
    ]
    return part_ranges(lines, wanted)


def _starts_run(lines: list[str], index: int) -> bool:
    return lines[index - 1][:1] not in CHANGED and lines[index - 1][:1] != "\\"


def _starts_item(lines: list[str], index: int) -> bool:
    return bool(_ITEM_START.match(lines[index][1:]))


def cuts_between(ranges: list[tuple[int, int]], labels: list[int], lines: list[str]) -> tuple[list[int], list[int]]:
    """Cuts where consecutive atoms carry different labels, and the label of each
    resulting part. An atom that the cut rules merge into a part gives way to
    the part's majority (by changed lines); parts that end up with the same
    label as their neighbour are joined again."""
    wanted = [start for (start, _), prev, cur in zip(ranges[1:], labels, labels[1:]) if prev != cur]
    while True:
        parts = part_ranges(lines, wanted)
        part_labels = [_majority(ranges, labels, lines, start, end) for start, end in parts]
        kept = [start for (start, _), prev, cur in zip(parts[1:], part_labels, part_labels[1:]) if prev != cur]
        if len(kept) == len(parts) - 1:
            return kept, part_labels
        wanted = kept


def _majority(ranges: list[tuple[int, int]], labels: list[int], lines: list[str], start: int, end: int) -> int:
    votes: Counter[int] = Counter()
    for (a, b), label in zip(ranges, labels):
        if start <= a < end:
            votes[label] += sum(1 for line in lines[a:b] if line[:1] in CHANGED) or 1
    return min(votes, key=lambda lab: (-votes[lab], lab))
