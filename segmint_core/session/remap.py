"""Carrying units across a re-capture: after a commit, an edit on disk, a restart.

Git renumbers hunks whenever the files change, and may merge or split its hunks
(a commit between two hunks can bring them within context of each other). A
unit is recognised by its changed lines: each new git hunk's ``+``/``-`` lines
are covered, left to right, by old git hunks whose remaining units' lines
appear there in the same order, interleaved as they were (a hunk cut line by
line), or else by single old units whose lines appear there in a row (same
layer first, then the other layer, for a hunk someone staged meanwhile).
Lines still unclaimed then go to old units whose lines are all among them in
another order, in one hunk or across the file's hunks: after a commit took
some of a hunk's lines, git may line up repeated lines differently, or show
what is left of a part as two hunks (the part then maps to both). Where one
git hunk now holds several old units, it is cut the same way, and keeps the
old part numbers when its parts all come from one old hunk. Changed lines no
old unit claims are new ("appeared").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from segmint_core.changes import ChangeSet
from segmint_core.changes.models import Hunk
from segmint_core.changes.parts import HunkParts, changed_indices, eof_block


@dataclass(frozen=True)
class OldUnit:
    id: str
    path: str
    staged: bool
    changed: tuple[str, ...]
    parent: str = ""  # its git hunk's id ("" when saved by an older version)
    positions: tuple[int, ...] = ()  # where its lines are among that hunk's changed lines


@dataclass
class Remap:
    splits: dict[str, list[list[int]]] = field(default_factory=dict)  # as HunkParts.to_saved
    ids: dict[str, str] = field(default_factory=dict)  # old unit id -> new unit id
    # old unit id -> more new ids: its lines are in several hunks now
    also: dict[str, list[str]] = field(default_factory=dict)
    appeared: list[str] = field(default_factory=list)  # new unit ids no old unit claims
    vanished: list[str] = field(default_factory=list)  # old unit ids not found


@dataclass(frozen=True)
class _Pattern:
    """Lines to look for: one old unit's, or the remaining units of one old git hunk, interleaved."""

    lines: tuple[str, ...]
    owners: tuple[OldUnit, ...]  # the old unit of each line
    staged: bool

    @cached_property
    def units(self) -> frozenset[str]:
        return frozenset(u.id for u in self.owners)


def remap(old: list[OldUnit], changes: ChangeSet) -> Remap:
    result = Remap()
    pool: dict[str, list[OldUnit]] = {}
    for unit in old:
        pool.setdefault(unit.path, []).append(unit)
    used: set[str] = set()
    for change in changes.changes:
        if change.file_path in changes.generated:
            continue  # kept whole: it maps by its path, as a change without hunks
        candidates = pool.get(change.file_path, [])
        if change.old_path:
            candidates = candidates + pool.get(change.old_path, [])
        patterns = _by_first_line(_patterns(candidates))
        covered = [(hunk, _changed_of(hunk)) for hunk in change.hunks]
        owners = [_cover(changed, hunk.staged, patterns, used) for hunk, changed in covered]
        for (hunk, changed), found in zip(covered, owners):
            _cover_rest([changed], hunk.staged, [found], candidates, used)
        if len(covered) > 1:
            _cover_rest([c for _, c in covered], False, owners, candidates, used)
        for (hunk, _), found in zip(covered, owners):
            _record_hunk(hunk, found, result)
    result.vanished = [u.id for u in old if u.id not in used]
    return result


def _changed_of(hunk: Hunk) -> list[str]:
    lines = hunk.lines
    return [lines[i] for i in changed_indices(lines)]


def _patterns(units: list[OldUnit]) -> list[_Pattern]:
    """Whole old hunks cut into several units first (their lines interleave), then single units."""
    by_parent: dict[str, list[OldUnit]] = {}
    for unit in units:
        if unit.parent and len(unit.positions) == len(unit.changed):
            by_parent.setdefault(unit.parent, []).append(unit)
    patterns: list[_Pattern] = []
    for siblings in by_parent.values():
        staged = {u.staged for u in siblings}
        if len(siblings) < 2 or len(staged) > 1:
            continue
        placed = sorted((p, line, u) for u in siblings for p, line in zip(u.positions, u.changed))
        patterns.append(_Pattern(tuple(x[1] for x in placed), tuple(x[2] for x in placed), staged.pop()))
    patterns.extend(_Pattern(u.changed, (u,) * len(u.changed), u.staged) for u in units if u.changed)
    return patterns


def _by_first_line(patterns: list[_Pattern]) -> dict[str, list[_Pattern]]:
    """Patterns by their first line, in order: a line is matched only against the patterns
    starting with it, so a file of thousands of hunks maps in linear time, not quadratic."""
    index: dict[str, list[_Pattern]] = {}
    for pattern in patterns:
        index.setdefault(pattern.lines[0], []).append(pattern)
    return index


def _record_hunk(hunk: Hunk, owners: list[OldUnit | None], result: Remap) -> None:
    lines = hunk.lines
    groups = _merge_block(_groups(owners, changed_indices(lines)), eof_block(lines))
    if len(groups) == 1:
        _record(result, groups[0][1], hunk.id)
        return
    numbers = _numbers(hunk.id, groups)
    parts: list[frozenset[int]] = [frozenset()] * max(numbers)
    for number, (indices, units) in zip(numbers, groups):
        parts[number - 1] = frozenset(indices)
        _record(result, units, f"{hunk.id}.{number}")
    result.splits[hunk.id] = HunkParts(tuple(parts)).to_saved()


def _record(result: Remap, units: list[OldUnit], new_id: str) -> None:
    if not units:
        result.appeared.append(new_id)
    for unit in units:
        if unit.id in result.ids:
            result.also.setdefault(unit.id, []).append(new_id)
        else:
            result.ids[unit.id] = new_id


def _cover(
    changed: list[str], staged: bool, patterns: dict[str, list[_Pattern]], used: set[str]
) -> list[OldUnit | None]:
    """The old unit of each changed line, or None for lines none claims."""
    owners: list[OldUnit | None] = []
    taken: set[str] = set()
    p = 0
    while p < len(changed):
        found = _match_at(changed, p, staged, patterns, used, taken)
        if found is None:
            owners.append(None)
            p += 1
            continue
        taken |= found.units
        owners.extend(found.owners)
        p += len(found.lines)
    used.update(taken)
    return owners


def _cover_rest(
    changed: list[list[str]],
    staged: bool,
    owners: list[list[OldUnit | None]],
    candidates: list[OldUnit],
    used: set[str],
) -> None:
    """Lines still unclaimed (in one hunk, or across a file's hunks) go to old units whose lines
    are all among them, in another order: after a commit took some lines of a hunk, git may
    line up repeated lines differently, or show what is left of a part as two hunks."""
    free = [(k, p) for k, found in enumerate(owners) for p, owner in enumerate(found) if owner is None]
    if not free:
        return
    texts = [changed[k][p] for k, p in free]
    left = list(range(len(free)))
    order = sorted(
        (u for u in candidates if u.id not in used and u.changed), key=lambda u: (u.staged != staged, -len(u.changed))
    )
    for unit in order:
        places = _places(texts, left, unit.changed)
        if places is None:
            continue
        for n in places:
            k, p = free[n]
            owners[k][p] = unit
        used.add(unit.id)
        left = [n for n in left if n not in set(places)]
        if not left:
            return


def _places(changed: list[str], free: list[int], wanted: tuple[str, ...]) -> list[int] | None:
    """Free places holding ``wanted``'s lines, each after the one before where possible; None if some is missing."""
    left = list(free)
    places: list[int] = []
    for line in wanted:
        after = places[-1] if places else -1
        found = next((p for p in left if p > after and changed[p] == line), None)
        if found is None:
            found = next((p for p in left if changed[p] == line), None)
        if found is None:
            return None
        left.remove(found)
        places.append(found)
    return places


def _match_at(
    changed: list[str], p: int, staged: bool, patterns: dict[str, list[_Pattern]], used: set[str], taken: set[str]
) -> _Pattern | None:
    best: _Pattern | None = None
    for same_layer in (True, False):
        for pattern in patterns.get(changed[p], ()):
            if (
                (pattern.staged == staged) != same_layer
                or not pattern.units.isdisjoint(used)
                or not pattern.units.isdisjoint(taken)
            ):  # (not their union: it would copy a growing set)
                continue
            n = len(pattern.lines)
            if tuple(changed[p : p + n]) == pattern.lines and (best is None or n > len(best.lines)):
                best = pattern
        if best is not None:
            return best
    return None


def _groups(owners: list[OldUnit | None], changed_at: list[int]) -> list[tuple[list[int], list[OldUnit]]]:
    """Line indices by the old unit that claims them; each run of unclaimed lines is a group of its own."""
    by_unit: dict[str, tuple[list[int], list[OldUnit]]] = {}
    out: list[tuple[list[int], list[OldUnit]]] = []
    previous: OldUnit | None | str = "start"
    for index, owner in zip(changed_at, owners):
        if owner is None:
            if previous is not None:
                out.append(([], []))
            out[-1][0].append(index)
        elif owner.id in by_unit:
            by_unit[owner.id][0].append(index)
        else:
            by_unit[owner.id] = ([index], [owner])
            out.append(by_unit[owner.id])
        previous = owner
    return out


def _merge_block(
    groups: list[tuple[list[int], list[OldUnit]]], block: frozenset[int]
) -> list[tuple[list[int], list[OldUnit]]]:
    """The groups holding lines of the end-of-file block become one: they commit together."""
    holding = [g for g in groups if block & set(g[0])]
    if len(holding) < 2:
        return groups
    first = holding[0]
    for other in holding[1:]:
        first[0].extend(other[0])
        first[1].extend(other[1])
    first[0].sort()
    return [g for g in groups if g is first or g not in holding]


def _numbers(hunk_id: str, groups: list[tuple[list[int], list[OldUnit]]]) -> list[int]:
    """Part numbers: the old ones when every claimed part comes from one old hunk's numbered
    parts (new lines count on after them), else 1, 2, ... in the order of the lines."""
    olds = [[_number(u) for u in units] for _, units in groups]
    parents = {u.parent for _, units in groups for u in units}
    if len(parents) == 1 and all(n is not None for ns in olds for n in ns):
        kept = [min(n for n in ns if n is not None) if ns else None for ns in olds]
        nxt = max((k for k in kept if k is not None), default=0)
        numbers = []
        for k in kept:
            if k is None:
                nxt += 1
                k = nxt
            numbers.append(k)
        return numbers
    order = sorted(range(len(groups)), key=lambda g: min(groups[g][0]))
    numbers = [0] * len(groups)
    for n, g in enumerate(order, start=1):
        numbers[g] = n
    return numbers


def _number(unit: OldUnit) -> int | None:
    """The part number of ``change-3:2.4`` (4); None for a whole hunk."""
    if not unit.parent or not unit.id.startswith(unit.parent + "."):
        return None
    tail = unit.id[len(unit.parent) + 1 :]
    return int(tail) if tail.isdigit() else None
