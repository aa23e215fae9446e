"""An applied commit's diff, read from git (in a worker thread: a commit may be large)."""

from __future__ import annotations

from segmint_core.changes.capture import merge_patches
from segmint_core.changes.models import Change, Hunk
from segmint_core.changes.parser import parse_diff
from segmint_core.git import DIFF_OPTIONS, Git

Parts = list[tuple[Change, list[Hunk]]]
CommitDiff = Parts | str  # the parts, or a note to show instead (reading, or why it failed)


def commit_parts(git: Git, sha: str) -> Parts:
    """The files and hunks ``sha`` changed, as the diff pane shows them.

    Their ids are blanked: numbered like the working tree's (``change-N:k``),
    they would name other, current hunks.
    """
    shown = git.run("show", "--format=", *DIFF_OPTIONS, sha)
    changes = merge_patches([], parse_diff(shown.stdout, from_git=True), [])
    for change in changes:
        change.id = ""
        for hunk in change.hunks:
            hunk.id = ""
    return [(change, change.hunks) for change in changes]
