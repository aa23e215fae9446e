"""What the groups pane shows, read from the session: groups with their files and hunks.

Pure data (no widgets), built in one pass over the session's changes, so the
tree, the diff pane and the commits pane agree on what a group holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from segmint_core.changes.models import Change, Hunk

UNGROUPED = "ungrouped"  # pseudo-group id for changes no group holds (before the first grouping)


@dataclass
class FileRow:
    change: Change
    hunks: list[Hunk]

    @property
    def added(self) -> int:
        return self.change.counts(self.hunks)[0]

    @property
    def removed(self) -> int:
        return self.change.counts(self.hunks)[1]


@dataclass
class GroupRow:
    id: str
    summary: str
    reasons: list[str]
    files: list[FileRow] = field(default_factory=list)
    edited: bool = False

    @property
    def added(self) -> int:
        return sum(f.added for f in self.files)

    @property
    def removed(self) -> int:
        return sum(f.removed for f in self.files)

    @property
    def hunk_ids(self) -> list[str]:
        return [h.id for f in self.files for h in f.hunks]

    @property
    def unit_ids(self) -> list[str]:
        """Hunk ids, plus change ids for files without hunks (what move_hunks takes)."""
        return [h.id for f in self.files for h in f.hunks] + [f.change.id for f in self.files if not f.hunks]

    def file(self, change_id: str) -> FileRow | None:
        return next((f for f in self.files if f.change.id == change_id), None)

    def parts(self) -> list[tuple[Change, list[Hunk]]]:
        return [(f.change, f.hunks) for f in self.files]


def group_rows(session) -> list[GroupRow]:
    """The session's groups as rows; changes no group holds come last as one pseudo-group."""
    changes: list[Change] = list(session.changes)
    order = {c.id: n for n, c in enumerate(changes)}
    owner: dict[str, tuple[Change, Hunk]] = {}
    for change in changes:
        for hunk in change.hunks:
            owner[hunk.id] = (change, hunk)
    by_change = {c.id: c for c in changes}
    seen: set[str] = set()
    rows: list[GroupRow] = []
    for group in list(session.groups):
        files: dict[str, FileRow] = {}
        for hid in group.hunk_ids:
            found = owner.get(hid)
            if found is None:  # a stale id during a concurrent update: the next event redraws
                continue
            change, hunk = found
            files.setdefault(change.id, FileRow(change, [])).hunks.append(hunk)
            seen.add(hid)
        for cid in group.change_ids:
            whole = by_change.get(cid)
            if whole is not None and not whole.hunks:
                files.setdefault(cid, FileRow(whole, []))
                seen.add(cid)
        row = GroupRow(group.id, group.summary or "(no summary)", list(group.reasons), edited=group.edited)
        row.files = sorted(files.values(), key=lambda f: order.get(f.change.id, 0))
        rows.append(row)
    rest: list[FileRow] = []
    for change in changes:
        hunks = [h for h in change.hunks if h.id not in seen]
        if hunks or (not change.hunks and change.id not in seen):
            rest.append(FileRow(change, hunks))
    if rest:
        rows.append(GroupRow(UNGROUPED, "Not grouped yet", ["press g to group the changes by intent"], rest))
    return rows
