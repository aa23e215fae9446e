"""Units: the hunks people and agents move around, and the lines each one owns.

A unit is an effective hunk: a git hunk, or one part of a split git hunk
(``change-3:2.1``). Applying a unit means applying exactly the changed lines it
owns in its git hunk, which is what the line model needs.
"""

from __future__ import annotations

from dataclasses import dataclass

from segmint_core.apply.lines import LineRef
from segmint_core.changes import ChangeSet
from segmint_core.changes.models import Change, Hunk
from segmint_core.changes.split import part_ranges, split_hunk
from segmint_core.errors import UnknownIdError

CHANGED = ("+", "-")


@dataclass(frozen=True)
class Unit:
    id: str
    change: Change
    hunk: Hunk          # what is shown: the git hunk or the sub-hunk
    parent: Hunk        # the git hunk it comes from
    refs: frozenset[LineRef]

    @property
    def changed_lines(self) -> list[str]:
        lines = self.parent.lines
        return [lines[i] for _, i in sorted(self.refs, key=lambda r: r[1])]


class Units:
    """The effective changes of a ChangeSet under a set of splits."""

    def __init__(self, changes: ChangeSet, splits: dict[str, list[int]]) -> None:
        self.changeset = changes
        self.splits: dict[str, list[int]] = {}
        self.by_id: dict[str, Unit] = {}
        self.changes: list[Change] = []
        for change in changes.changes:
            hunks: list[Hunk] = []
            for git_hunk in change.hunks:
                for unit in self._units_of(change, git_hunk, splits.get(git_hunk.id, [])):
                    self.by_id[unit.id] = unit
                    hunks.append(unit.hunk)
            self.changes.append(change.with_hunks(hunks))
        self.change_by_id = {c.id: c for c in self.changes}

    def _units_of(self, change: Change, hunk: Hunk, cuts: list[int]) -> list[Unit]:
        ranges = part_ranges(hunk.lines, cuts) if cuts else [(0, len(hunk.lines))]
        if len(ranges) < 2:
            return [Unit(hunk.id, change, hunk, hunk, _owned(hunk, 0, len(hunk.lines)))]
        self.splits[hunk.id] = [start for start, _ in ranges[1:]]
        parts = split_hunk(hunk, self.splits[hunk.id])
        return [
            Unit(part.id, change, part, hunk, _owned(hunk, start, end))
            for part, (start, end) in zip(parts, ranges)
        ]

    def resolve(self, ids: list[str]) -> list[Unit]:
        unknown = [i for i in ids if i not in self.by_id]
        if unknown:
            raise UnknownIdError("hunk", unknown)
        return [self.by_id[i] for i in ids]

    def resolve_changes(self, ids: list[str]) -> list[Change]:
        unknown = [i for i in ids if i not in self.change_by_id]
        if unknown:
            raise UnknownIdError("change", unknown)
        return [self.change_by_id[i] for i in ids]

    def ids(self) -> list[str]:
        return list(self.by_id)

    def in_order(self, ids: list[str]) -> list[str]:
        """``ids`` (unit ids) in file and hunk order, each once."""
        wanted = set(ids)
        return [u for u in self.by_id if u in wanted]

    def parts(self, hunk_ids: list[str], change_ids: list[str] = ()) -> list[tuple[Change, list[Hunk]]]:
        """The hunks among ``hunk_ids`` by change, in file order, with the changes named in ``change_ids``."""
        wanted = set(hunk_ids)
        out: list[tuple[Change, list[Hunk]]] = []
        for change in self.changes:
            hunks = [h for h in change.hunks if h.id in wanted]
            if hunks or change.id in change_ids:
                out.append((change, hunks))
        return out

    def hunkless_change_ids(self) -> list[str]:
        return [c.id for c in self.changes if not c.hunks]

    def change_of(self, unit_id: str) -> Change:
        return self.by_id[unit_id].change

    def to_changeset(self) -> ChangeSet:
        return ChangeSet(self.changes, self.changeset.fingerprint, self.changeset.head)


def _owned(hunk: Hunk, start: int, end: int) -> frozenset[LineRef]:
    lines = hunk.lines
    return frozenset((hunk.id, i) for i in range(start, end) if lines[i][:1] in CHANGED)
