"""Carrying units across a re-capture: after a commit, an edit on disk, a restart.

Git renumbers hunks whenever the files change, and may merge or split its hunks
(a commit between two hunks can bring them within context of each other). A
unit is recognised by its changed lines: each new git hunk's ``+``/``-`` lines
are covered, left to right, by old units whose changed lines appear there in
the same order (same layer first, then the other layer, for a hunk someone
staged meanwhile). Where one git hunk now holds several old units, it is split
at their borders. Changed lines no old unit claims are new ("appeared").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from segmint_core.changes import ChangeSet
from segmint_core.changes.models import Hunk
from segmint_core.changes.split import part_ranges

CHANGED = ("+", "-")


@dataclass(frozen=True)
class OldUnit:
    id: str
    path: str
    staged: bool
    changed: tuple[str, ...]


@dataclass
class Remap:
    splits: dict[str, list[int]] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)     # old unit id -> new unit id
    appeared: list[str] = field(default_factory=list)     # new unit ids no old unit claims
    vanished: list[str] = field(default_factory=list)     # old unit ids not found


@dataclass
class _Segment:
    start: int               # index into the hunk's changed-line list
    end: int
    units: list[OldUnit]     # empty: lines no old unit claims


def remap(old: list[OldUnit], changes: ChangeSet) -> Remap:
    result = Remap()
    pool: dict[str, list[OldUnit]] = {}
    for unit in old:
        pool.setdefault(unit.path, []).append(unit)
    used: set[str] = set()
    for change in changes.changes:
        candidates = pool.get(change.file_path, [])
        if change.old_path:
            candidates = candidates + pool.get(change.old_path, [])
        for hunk in change.hunks:
            _map_hunk(hunk, candidates, used, result)
    result.vanished = [u.id for u in old if u.id not in used]
    return result


def _map_hunk(hunk: Hunk, candidates: list[OldUnit], used: set[str], result: Remap) -> None:
    lines = hunk.lines
    changed_at = [i for i, line in enumerate(lines) if line[:1] in CHANGED]
    changed = [lines[i] for i in changed_at]
    segments = _cover(changed, hunk.staged, candidates, used)
    if len(segments) > 1:
        cuts = [changed_at[s.start] for s in segments[1:]]
        ranges = part_ranges(lines, cuts)
        segments = _merge_to_ranges(segments, ranges, changed_at)
    if len(segments) == 1:
        _record(result, segments[0].units, hunk.id)
        return
    result.splits[hunk.id] = [changed_at[s.start] for s in segments[1:]]
    for n, segment in enumerate(segments, start=1):
        _record(result, segment.units, f"{hunk.id}.{n}")


def _record(result: Remap, units: list[OldUnit], new_id: str) -> None:
    if not units:
        result.appeared.append(new_id)
    for unit in units:
        result.ids[unit.id] = new_id


def _cover(changed: list[str], staged: bool, candidates: list[OldUnit], used: set[str]) -> list[_Segment]:
    segments: list[_Segment] = []
    taken: set[str] = set()
    p = 0
    while p < len(changed):
        unit = _match_at(changed, p, staged, candidates, used | taken)
        if unit is None:
            if segments and not segments[-1].units:
                segments[-1].end = p + 1
            else:
                segments.append(_Segment(p, p + 1, []))
            p += 1
            continue
        taken.add(unit.id)
        segments.append(_Segment(p, p + len(unit.changed), [unit]))
        p += len(unit.changed)
    used.update(taken)
    return segments


def _match_at(changed: list[str], p: int, staged: bool, candidates: list[OldUnit], used: set[str]) -> OldUnit | None:
    best: OldUnit | None = None
    for same_layer in (True, False):
        for unit in candidates:
            if unit.id in used or (unit.staged == staged) != same_layer or not unit.changed:
                continue
            n = len(unit.changed)
            if tuple(changed[p:p + n]) == unit.changed and (best is None or n > len(best.changed)):
                best = unit
        if best is not None:
            return best
    return None


def _merge_to_ranges(segments: list[_Segment], ranges: list[tuple[int, int]], changed_at: list[int]) -> list[_Segment]:
    """Segments regrouped by the parts a split can really make: where a cut is
    not allowed, the segments it would have separated become one unit, and
    every old unit among them maps to it."""
    merged: list[_Segment] = []
    for start, end in ranges:
        inside = [s for s in segments if start <= changed_at[s.start] < end]
        if inside:
            merged.append(_Segment(inside[0].start, inside[-1].end, [u for s in inside for u in s.units]))
    return merged
