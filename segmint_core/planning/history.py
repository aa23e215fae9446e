"""The diffs of past commits, read so what a past commit did can be compared with the change at hand.

``read_patches`` reads the diffs of the commits small enough to read (one
``git show`` for all of them); the commits themselves come from the one
first-parent reader, ``segmint_core.history``.
"""

from __future__ import annotations

from segmint_core.changes.capture import merge_patches
from segmint_core.changes.parser import parse_diff
from segmint_core.errors import DiffParseError
from segmint_core.git import Git
from segmint_core.history import PastCommit

HISTORY_LIMIT = 300
PATCH_LINE_LIMIT = 1500  # a past commit changing more lines than this is known by its files only
_RECORD = "\x1e"  # starts each commit in the output of git show


def read_patches(git: Git, commits: list[PastCommit], line_limit: int = PATCH_LINE_LIMIT) -> None:
    """Fill in ``parts`` of the commits changing at most ``line_limit`` lines (text only)."""
    wanted = [c for c in commits if c.files and c.lines <= line_limit]
    if not wanted:
        return
    res = git.run(
        "show",
        "--diff-merges=first-parent",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "-M",
        f"--format={_RECORD}%H",
        *(c.sha for c in wanted),
        "--",
        check=False,
    )
    if res.returncode != 0:
        return  # a shallow clone missing a parent: the commits stay known by their files
    by_sha = {c.sha: c for c in wanted}
    for chunk in res.text.split(_RECORD)[1:]:
        sha, _, diff = chunk.partition("\n")
        commit = by_sha.get(sha.strip())
        if commit is None:
            continue
        try:
            changes = merge_patches(parse_diff(diff, strict=False), [], [])
        except DiffParseError:
            continue
        commit.parts = [(c, c.hunks) for c in changes if not c.binary]
