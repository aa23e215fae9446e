"""Where each uncommitted hunk goes: into the unpushed commit that last wrote its lines, or nowhere.

A hunk (or a part of one) is placed in commit C when every line it removes was
last written by C (``git blame``), or, for a hunk that only adds lines, when the
lines on both sides of it were; and when it commutes with every commit after C:
none of them changed lines overlapping or touching the ones it changes. The rest
is left for new commits, each with the reason it could not go anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from segmint_core.changes.models import Change
from segmint_core.git import Git, encode
from segmint_core.rewrite.edits import Diffs, Edit, conflicts, split_lines
from segmint_core.rewrite.stack import Commit, blobs_at, unpushed


NEAR = 10  # lines: a fix to old lines this close to what the only commit to change its file changed goes there


@dataclass(frozen=True)
class Placement:
    unit_id: str
    path: str
    target: Commit | None  # where it goes; None: left for a new commit
    reason: str  # why there, or why nowhere

    def to_dict(self) -> dict[str, object]:
        target = self.target
        return {
            "hunk_id": self.unit_id,
            "path": self.path,
            "target": target.sha if target else None,
            "target_subject": target.subject if target else None,
            "reason": self.reason,
        }


def place(git: Git, units: Any) -> list[Placement]:
    """A placement for every unit of ``units``, in their order."""
    head = units.changeset.head
    stack = unpushed(git, head) if head else []
    finder = _Finder(git, head, stack)
    return [finder.place(unit) for unit in units.by_id.values()]


def unit_edits(unit: Any) -> list[Edit]:
    """The unit's own changes as edits of HEAD's lines (the git hunk's other lines stay as they are)."""
    parent = unit.parent
    owned = {i for _, i in unit.refs}
    edits: list[Edit] = []
    line = parent.old_start - 1 if parent.old_lines else parent.old_start
    new: list[bytes] = []
    start, open_edit = line, False
    lines = parent.lines
    for i, text in enumerate(lines):
        kind = text[:1]
        if kind == "\\":
            continue
        changed = i in owned and kind in "+-"
        if changed:
            if not open_edit:
                start, new, open_edit = line, [], True
            if kind == "+":
                ends = not (i + 1 < len(lines) and lines[i + 1].startswith("\\"))
                new.append(encode(text[1:]) + (b"\n" if ends else b""))
        elif open_edit:
            edits.append(Edit(start, line, tuple(new)))
            open_edit = False
        if kind in " -":
            line += 1
    if open_edit:
        edits.append(Edit(start, line, tuple(new)))
    return edits


class _Finder:
    def __init__(self, git: Git, head: str | None, stack: list[Commit]) -> None:
        self.git = git
        self.head = head
        self.stack = stack  # newest first
        self.by_sha = {c.sha: c for c in stack}
        self.diffs = Diffs(git)
        self._blobs: dict[str, dict[str, str | None]] = {}
        self._lengths: dict[str, int] = {}
        self._touched: dict[str, list[Commit]] = {}

    def place(self, unit: Any) -> Placement:
        change = unit.change
        path = change.file_path
        refusal = self._unsupported(change)
        if refusal:
            return Placement(unit.id, path, None, refusal)
        edits = unit_edits(unit)
        if not edits:
            return Placement(unit.id, path, None, "it changes nothing on its own")
        owners = self._owners(path, edits)
        if not owners or owners == {"older"}:
            return self._by_file(unit, path, edits)
        if len(owners) > 1:
            named = " and ".join(self.by_sha[s].named if s in self.by_sha else "older commits" for s in owners)
            return Placement(unit.id, path, None, f"it touches lines of two commits ({named})")
        target = self.by_sha[owners.pop()]
        blocker = self._blocker(path, edits, target)
        if blocker:
            return Placement(unit.id, path, None, f"it conflicts with a later commit, {blocker}")
        return Placement(
            unit.id, path, target, "that commit last wrote the lines it changes, and no later commit touches them"
        )

    def _by_file(self, unit: Any, path: str, edits: list[Edit]) -> Placement:
        """Lines older than every unpushed commit: the fix goes with the one unpushed commit that changed
        its file, when just one did (the intent it belongs to), and commutes with those after it."""
        touching = self._touching(path)
        if len(touching) != 1:
            why = (
                "no unpushed commit changed its file"
                if not touching
                else f"{len(touching)} unpushed commits changed its file"
            )
            return Placement(unit.id, path, None, f"no commit in range wrote the lines it changes, and {why}")
        target = touching[0]
        if not self._near(path, edits, target):
            return Placement(
                unit.id,
                path,
                None,
                f"no commit in range wrote the lines it changes, and it is "
                f"more than {NEAR} lines from what {target.named} changed",
            )
        blocker = self._blocker(path, edits, target)
        if blocker:
            return Placement(unit.id, path, None, f"it conflicts with a later commit, {blocker}")
        return Placement(
            unit.id,
            path,
            target,
            "that commit is the only unpushed one to change this file, and no later commit touches these lines",
        )

    def _near(self, path: str, edits: list[Edit], target: Commit) -> bool:
        """Whether the edits are within ``NEAR`` lines of a line ``target`` changed (it is the only unpushed
        commit to change the file, so the file at HEAD is as it left it)."""
        head_blob = self._blobs_of(path).get(self.head or "")
        before = self._blob_before(target, path)
        if not head_blob or not before:
            return False
        written = self.diffs.between(head_blob, before)  # in HEAD's lines: what the target wrote
        return any(w.start - NEAR <= e.end and e.start <= w.end + NEAR for w in written for e in edits)

    def _touching(self, path: str) -> list[Commit]:
        if path not in self._touched:
            blobs = self._blobs_of(path)
            self._touched[path] = [
                c for c in self.stack if c.parent is None or blobs.get(c.sha) != self._blob_before(c, path)
            ]
        return self._touched[path]

    def _blob_before(self, commit: Commit, path: str) -> str | None:
        blobs = self._blobs_of(path)
        if commit.parent in blobs:
            return blobs[commit.parent]
        return blobs_at(self.git, [commit.parent or ""], path).get(commit.parent or "")

    def _unsupported(self, change: Change) -> str | None:
        if not self.stack:
            return "there is no unpushed commit to absorb it into"
        if change.status != "modified" or change.binary:
            return f"it is in a file {change.status if change.status != 'modified' else 'binary'}, not edited"
        if change.staged_patch is not None and change.unstaged_patch is not None:
            return "its file has staged and unstaged changes"
        if "160000" in (change.old_mode, change.new_mode):
            return "it is a submodule"
        return None

    def _owners(self, path: str, edits: list[Edit]) -> set[str]:
        """The commits that last wrote the lines ``edits`` remove, or for pure additions the lines around
        them; a line older than the stack counts as ``"older"``."""
        lines: set[int] = set()
        for edit in edits:
            if edit.end > edit.start:
                lines.update(range(edit.start, edit.end))
            else:
                lines.update(n for n in (edit.start - 1, edit.start) if n >= 0)
        length = self._length(path)
        wanted = sorted(n for n in lines if n < length)
        blamed = self._blame(path, wanted)
        return {blamed.get(n, "older") for n in wanted}

    def _blame(self, path: str, lines: list[int]) -> dict[int, str]:
        if not lines:
            return {}
        ranges: list[list[int]] = []
        for n in lines:
            if ranges and ranges[-1][1] == n:
                ranges[-1][1] = n + 1
            else:
                ranges.append([n, n + 1])
        oldest = self.stack[-1]
        bounds = [f"{oldest.parent}..{self.head}"] if oldest.parent else [self.head or "HEAD"]
        args = [a for s, e in ranges for a in ("-L", f"{s + 1},{e}")]
        out = self.git.run("blame", "--porcelain", *args, *bounds, "--", path, check=False)
        if out.returncode != 0:
            return {}
        blamed: dict[int, str] = {}
        for row in out.stdout.split(b"\n"):
            parts = row.split(b" ")
            if len(parts) >= 3 and len(parts[0]) in (40, 64) and parts[1].isdigit() and parts[2].isdigit():
                sha = parts[0].decode()
                blamed[int(parts[2]) - 1] = sha if sha in self.by_sha else "older"
        return blamed

    def _length(self, path: str) -> int:
        """How many lines ``path`` has at HEAD."""
        if path not in self._lengths:
            blob = self._blobs_of(path).get(self.head or "")
            self._lengths[path] = len(split_lines(self.git.run("cat-file", "blob", blob).stdout)) if blob else 0
        return self._lengths[path]

    def _blobs_of(self, path: str) -> dict[str, str | None]:
        if path not in self._blobs:
            self._blobs[path] = blobs_at(self.git, [self.head or "HEAD", *(c.sha for c in self.stack)], path)
        return self._blobs[path]

    def _blocker(self, path: str, edits: list[Edit], target: Commit) -> str | None:
        """The later commit the edits do not commute with, named; None when they commute with all."""
        blobs = self._blobs_of(path)
        head_blob = blobs.get(self.head or "")
        later: Commit | None = None
        for commit in self.stack:  # newest first: HEAD, then back to the target
            if commit.sha == target.sha:
                break
            later = commit
            parent = commit.parent or ""
            blob = blobs.get(parent) if parent in blobs else None
            if blob is None:
                return f"{commit.named} (the file is not in the commit before it)"
            if head_blob and conflicts(self.diffs.between(head_blob, blob), edits):
                return commit.named
        if blobs.get(target.sha) is None:
            return f"{later.named if later else target.named} (the file had another name)"
        return None


def run_splits(units: Any) -> dict[str, list[list[int]]]:
    """Each whole git hunk cut into its runs of changed lines (between context lines), as saved splits:
    a fix and an unrelated edit three lines apart are one git hunk, and go to different places."""
    splits: dict[str, list[list[int]]] = {}
    for unit in units.by_id.values():
        if unit.hunk is not unit.parent or unit.change.binary:
            continue
        runs: list[list[int]] = []
        previous = None
        for i, text in enumerate(unit.parent.lines):
            if text[:1] in ("+", "-"):
                if previous is None or previous != i - 1:
                    runs.append([])
                runs[-1].append(i)
                previous = i
            elif text[:1] == "\\" and previous == i - 1:
                previous = i
        if len(runs) > 1:
            splits[unit.parent.id] = runs
    return splits
