"""Re-reading only the files one of Segmint's own commits touched.

A commit of Segmint's changes HEAD and the index entries of its files, and
nothing else: every other file's staged and unstaged diff is what it was, byte
for byte. So after a commit the session re-reads those files alone and keeps
the rest, renumbered; a regenerated 10 MB file beside a one-line fix is not
diffed again after the fix is committed. The result's fingerprint is unknown
(None): the next full look at the repository confirms it, quietly when
nothing else changed meanwhile (``SessionCore._confirmed``).
"""

from __future__ import annotations

from segmint_core.apply.commit import related_paths
from segmint_core.changes import ChangeSet, capture
from segmint_core.changes.models import Change, FilePatch, Hunk
from segmint_core.git import Git


def recapture(git: Git, before: ChangeSet, paths: set[str]) -> ChangeSet:
    """``before`` with the changes of ``paths`` read again (and renamed partners with them)."""
    touched = related_paths(before, set(paths))
    part = capture(git, paths=sorted(touched))
    kept = [c for c in before.changes if c.file_path not in touched and (c.old_path or "") not in touched]
    merged = sorted(kept + part.changes, key=lambda c: c.file_path.encode("utf-8", "surrogateescape"))
    return ChangeSet([_renumbered(c, f"change-{n}") for n, c in enumerate(merged, start=1)], None, part.head)


def _renumbered(change: Change, cid: str) -> Change:
    """``change`` under the id ``cid`` (hunks ``cid:1``...), as a copy: the old objects stay as they were."""
    if change.id == cid:
        return change
    counter = iter(range(1, len(change.hunks) + 1))
    staged = _patch_copy(change.staged_patch, cid, counter)
    unstaged = _patch_copy(change.unstaged_patch, cid, counter)
    hunks = [*(staged.hunks if staged else ()), *(unstaged.hunks if unstaged else ())]
    copy = Change(
        cid,
        change.file_path,
        change.old_path,
        change.status,
        change.binary,
        hunks,
        change.old_mode,
        change.new_mode,
        staged,
        unstaged,
        change.untracked,
    )
    return copy


def _patch_copy(fp: FilePatch | None, cid: str, counter) -> FilePatch | None:
    if fp is None:
        return None
    hunks = [_hunk_copy(h, f"{cid}:{next(counter)}") for h in fp.hunks]
    copy = FilePatch(
        fp.old_path,
        fp.new_path,
        fp.status,
        fp.binary,
        fp.old_mode,
        fp.new_mode,
        fp.old_oid,
        fp.new_oid,
        fp.similarity,
        fp.header_lines,
        hunks,
    )
    copy.unfiltered = fp.unfiltered
    return copy


def _hunk_copy(hunk: Hunk, hid: str) -> Hunk:
    if hunk.body is not None:  # not decoded yet: stays so
        return Hunk(
            hid,
            hunk.old_start,
            hunk.old_lines,
            hunk.new_start,
            hunk.new_lines,
            hunk.header,
            staged=hunk.staged,
            parent_id=hunk.parent_id,
            body=hunk.body,
        )
    return Hunk(
        hid,
        hunk.old_start,
        hunk.old_lines,
        hunk.new_start,
        hunk.new_lines,
        hunk.header,
        list(hunk.lines),
        hunk.staged,
        hunk.parent_id,
    )
