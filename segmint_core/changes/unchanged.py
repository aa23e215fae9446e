"""Changes with no net change: the index differs from HEAD, the work tree does not.

A file staged and then put back as HEAD has it (or staged as new and then
deleted), ``git rm --cached`` of a file still in the work tree, a file added
with ``git add -N`` and then deleted: a commit of any of them leaves HEAD as it
is. Plans leave their index entries as they are (``session.planner``), unless
another file needs the path.

The work tree's bytes of an untracked file are not what ``git add`` stores when
git converts line endings (``core.autocrlf``, ``text=auto``): such a file is
compared through git's filters.
"""

from __future__ import annotations

from segmint_core.changes.models import CONFLICTED, Change
from segmint_core.changes.untracked import blob_oid
from segmint_core.git import Git

LITERAL = {"GIT_LITERAL_PATHSPECS": "1"}  # a path argument names that one path, never a pattern


def unchanged_paths(git: Git, changes: list[Change], head: str | None) -> set[str]:
    """The paths of ``changes`` that a commit would leave as HEAD has them, whole."""
    found = {c.file_path for c in changes if reverted(c)}
    empty = blob_oid(b"", git.object_format)
    intent = [
        c.file_path
        for c in changes
        if _deleted_unstaged_only(c) and c.unstaged_patch is not None and c.unstaged_patch.old_oid == empty
    ]
    found.update(p for p in intent if p not in _in_head(git, head, intent))
    for change in changes:
        if change.file_path not in found and _untracked_again(change) and _stored_as_head(git, change):
            found.add(change.file_path)
    return found


def reverted(change: Change) -> bool:
    """Staged, then put back in the work tree as HEAD has it (content, mode, presence):
    the staged and the unstaged layer cancel out. A conflicted file's layers carry no
    object ids at all: it is never one."""
    staged, unstaged = change.staged_patch, change.unstaged_patch
    if staged is None or unstaged is None or change.status == CONFLICTED:
        return False
    return (
        staged.old_path == unstaged.new_path
        and staged.old_mode == unstaged.new_mode
        and staged.old_oid == unstaged.new_oid
    )


def _deleted_unstaged_only(change: Change) -> bool:
    """A deletion git sees between the index and the work tree alone: of a tracked empty file, or
    of an intent-to-add entry (which HEAD does not have)."""
    unstaged = change.unstaged_patch
    return (
        change.staged_patch is None
        and unstaged is not None
        and unstaged.new_path is None
        and unstaged.old_path is not None
        and change.status != CONFLICTED
    )


def _in_head(git: Git, head: str | None, paths: list[str]) -> set[str]:
    if head is None or not paths:
        return set()
    out = git.run("ls-tree", "-z", "--name-only", "--full-tree", head, "--", *paths, env=LITERAL).stdout
    return {name.decode("utf-8", "surrogateescape") for name in out.split(b"\0") if name}


def _untracked_again(change: Change) -> bool:
    """Deleted in the index, there untracked with HEAD's mode but other bytes (``git rm --cached``
    of a file whose line endings git converts)."""
    staged, unstaged = change.staged_patch, change.unstaged_patch
    return (
        staged is not None
        and unstaged is not None
        and unstaged.unfiltered
        and staged.new_path is None
        and staged.old_path == unstaged.new_path
        and staged.old_mode == unstaged.new_mode
        and staged.old_oid != unstaged.new_oid
        and not unstaged.binary
        and change.status != CONFLICTED
    )


def _stored_as_head(git: Git, change: Change) -> bool:
    """Whether ``git add`` would store the work-tree file as HEAD's blob (its filters and line endings)."""
    found = git.run("hash-object", "--path", change.file_path, "--", change.file_path, check=False)
    staged = change.staged_patch  # there: the file is untracked again after a staged deletion
    return found.returncode == 0 and staged is not None and found.text.strip() == staged.old_oid
