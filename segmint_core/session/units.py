"""Units: the hunks people and agents move around, and the lines each one owns.

A unit is an effective hunk: a git hunk, or one part of a split git hunk
(``change-3:2.1``), whose changed lines may be any of the hunk's (see
``changes.parts``). Applying a unit means applying exactly the changed lines it
owns in its git hunk, which is what the line model needs.
"""

from __future__ import annotations

from collections.abc import Sequence

from dataclasses import dataclass

from segmint_core.apply.lines import LineRef
from segmint_core.apply.states import line_counts
from segmint_core.changes import ChangeSet
from segmint_core.changes.generated import is_lock_file
from segmint_core.changes.models import Change, Hunk
from segmint_core.changes.parts import HunkParts, changed_indices
from segmint_core.changes.split import render_part
from segmint_core.errors import SegmintError, UnknownIdError

CHANGED = ("+", "-")
# A lock file's hunks are read for the versions a message names up to this many lines;
# a lock file regenerated whole is named, not read.
LOCK_LINES_READ = 20_000


@dataclass(frozen=True)
class Unit:
    id: str
    change: Change
    hunk: Hunk  # what is shown: the git hunk or the sub-hunk
    parent: Hunk  # the git hunk it comes from
    refs: frozenset[LineRef]

    @property
    def changed_lines(self) -> list[str]:
        lines = self.parent.lines
        return [lines[i] for _, i in sorted(self.refs, key=lambda r: r[1])]


class Units:
    """The effective changes of a ChangeSet under a set of splits.

    ``splits`` maps a git hunk id to its parts as saved (``HunkParts.to_saved``)
    or to grouping's cuts; ``self.splits`` holds every cut hunk's parts as saved,
    and ``self.hunk_parts`` the same as ``HunkParts``. A generated file
    (``changes.generated``) is one unit: listed without hunks, moved, planned
    and committed as a whole change, never read line by line.
    """

    def __init__(self, changes: ChangeSet, splits: dict[str, list]) -> None:
        self.changeset = changes
        self.splits: dict[str, list[list[int]]] = {}
        self.hunk_parts: dict[str, HunkParts] = {}
        self._ranks: dict[str, dict[int, int]] = {}  # git hunk id -> line index -> place among its changed lines
        self.by_id: dict[str, Unit] = {}
        self.changes: list[Change] = []
        for change in changes.changes:
            if change.file_path in changes.generated and change.hunks:
                whole = change.with_hunks([])  # kept whole, as a change without hunks
                whole.kept_whole = line_counts(change)
                self.changes.append(whole)
                continue
            hunks: list[Hunk] = []
            for git_hunk in change.hunks:
                for unit in self._units_of(change, git_hunk, splits.get(git_hunk.id, [])):
                    self.by_id[unit.id] = unit
                    hunks.append(unit.hunk)
            self.changes.append(change.with_hunks(hunks))
        self.change_by_id = {c.id: c for c in self.changes}
        self._position = {c.id: n for n, c in enumerate(self.changes)}  # a change's place in file order

    def _units_of(self, change: Change, hunk: Hunk, saved: list) -> list[Unit]:
        try:
            parts = HunkParts.from_saved(hunk.lines, saved) if saved else None
        except SegmintError:
            parts = None  # saved for other lines: the hunk is whole
        if parts is None or len(parts.parts) < 2:
            return [Unit(hunk.id, change, hunk, hunk, _refs(hunk, range(len(hunk.lines))))]
        self.hunk_parts[hunk.id] = parts
        self.splits[hunk.id] = parts.to_saved()
        if not parts.is_split:
            return [Unit(hunk.id, change, hunk, hunk, _refs(hunk, parts.live()[0][1]))]
        return [
            Unit(f"{hunk.id}.{number}", change, render_part(hunk, owned, number), hunk, _refs(hunk, owned))
            for number, owned in parts.live()
        ]

    def places(self, unit: Unit) -> list[int]:
        """Where the unit's lines are among its git hunk's changed lines (0-based)."""
        if unit.hunk is unit.parent:
            return list(range(len(unit.refs)))
        rank = self._ranks.get(unit.parent.id)
        if rank is None:
            rank = self._ranks[unit.parent.id] = {i: n for n, i in enumerate(changed_indices(unit.parent.lines))}
        return [rank[i] for _, i in sorted(unit.refs)]

    def parts_of(self, unit: Unit) -> HunkParts:
        """How the unit's git hunk is cut (one part: the whole hunk)."""
        return self.hunk_parts.get(unit.parent.id) or HunkParts.whole(unit.parent.lines)

    def resolve(self, ids: Sequence[str]) -> list[Unit]:
        unknown = [i for i in ids if i not in self.by_id]
        if unknown:
            raise UnknownIdError("hunk", unknown, list(self.by_id))
        return [self.by_id[i] for i in ids]

    def resolve_changes(self, ids: Sequence[str]) -> list[Change]:
        unknown = [i for i in ids if i not in self.change_by_id]
        if unknown:
            raise UnknownIdError("change", unknown, list(self.change_by_id))
        return [self.change_by_id[i] for i in ids]

    def ids(self) -> list[str]:
        return list(self.by_id)

    def in_order(self, ids: list[str]) -> list[str]:
        """``ids`` (unit ids) in file and hunk order, each once."""
        wanted = set(ids)
        return [u for u in self.by_id if u in wanted]

    def parts(self, hunk_ids: list[str], change_ids: Sequence[str] = ()) -> list[tuple[Change, list[Hunk]]]:
        """The hunks among ``hunk_ids`` by change, in file order, with the changes named in ``change_ids``."""
        wanted = set(hunk_ids)
        named = {self.by_id[h].change.id for h in wanted if h in self.by_id} | set(change_ids)
        out: list[tuple[Change, list[Hunk]]] = []
        for n in sorted(self._position[c] for c in named if c in self._position):  # not every change per plan
            change = self.changes[n]
            hunks = [h for h in change.hunks if h.id in wanted]
            if hunks or change.id in change_ids:
                out.append((change, hunks))
        return out

    def message_parts(self, hunk_ids: list[str], change_ids: Sequence[str] = ()) -> list[tuple[Change, list[Hunk]]]:
        """``parts`` to write a message from: a lock file kept whole comes with its git hunks,
        for the versions it bumps (``package-lock.json`` alone is a dependency bump), where it
        is small enough to read. For reading only: a plan commits the whole change."""
        whole = {c.id: c for c in self.changeset.changes if c.file_path in self.changeset.generated}
        out: list[tuple[Change, list[Hunk]]] = []
        for change, hunks in self.parts(hunk_ids, change_ids):
            full = whole.get(change.id)
            if (
                full is not None
                and not hunks
                and is_lock_file(full.file_path)
                and sum(len(h.lines) for h in full.hunks) <= LOCK_LINES_READ
            ):
                change, hunks = full, list(full.hunks)
            out.append((change, hunks))
        return out

    def hunkless_change_ids(self) -> list[str]:
        return [c.id for c in self.changes if not c.hunks]

    def change_of(self, unit_id: str) -> Change:
        return self.by_id[unit_id].change

    def to_changeset(self) -> ChangeSet:
        return ChangeSet(self.changes, self.changeset.fingerprint, self.changeset.head)


def _refs(hunk: Hunk, indices) -> frozenset[LineRef]:
    lines = hunk.lines
    return frozenset((hunk.id, i) for i in indices if lines[i][:1] in CHANGED)
