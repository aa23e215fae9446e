"""Lines a batch of commits leaves behind by itself.

Committing a hunk part by part makes git diff what is left again, and it may line the lines up anew:
a blank line placed elsewhere (a blank line removed in one place, added in another), or what is left
of a hunk no longer cut the way the plans after it name (they go out of date). When the batch commits
every uncommitted line and the work tree is as it was when the batch began, whatever is left is such
a remnant of the batch, not the person's work: planning it again and committing it gives the tree
the person planned. Otherwise what is left stays uncommitted and is named, as always.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from segmint_core.git import Git, changed_paths


@dataclass(frozen=True)
class WorkTree:
    """What the work tree holds beyond HEAD when a batch begins: each changed path's content digest
    (None: deleted)."""

    files: dict[str, str | None]


def snapshot(git: Git) -> WorkTree | None:
    """The work tree's changed files now; None without a HEAD commit (nothing to compare)."""
    if git.head() is None:
        return None
    return WorkTree(_digests(git, changed_paths(git)))


def left_by_batch(git: Git, before: WorkTree) -> bool:
    """Whether lines are left uncommitted that only the batch's own commits left: every path still
    changed was changed when it began, and the work tree holds what it held then."""
    if git.head() is None:
        return False
    still = changed_paths(git)
    return bool(still) and set(still) <= set(before.files) and _digests(git, list(before.files)) == before.files


def _digests(git: Git, paths: list[str]) -> dict[str, str | None]:
    return {path: _digest(os.path.join(git.root, path)) for path in paths}


def _digest(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
