"""Folding a fix into an earlier commit with git plumbing: no editor, no work tree, no checkout.

The fix is what turns HEAD's tree into ``fixed_tree``. Each commit from the
target to HEAD is made again with the fix in its tree (each file merged as a
three-way merge of that commit's version, HEAD's and the fixed one; a conflict
refuses the whole fold), its parent the one made before it, its message,
author and author date as they were. The new tip's tree must be ``fixed_tree``
exactly; the caller moves the branch.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass

from segmint_core.apply.gitops import write_blobs
from segmint_core.errors import RefusedError
from segmint_core.git import Git
from segmint_core.rewrite.edits import Diffs, conflicts, apply_edits, split_lines
from segmint_core.rewrite.stack import Commit

REWRITE_SCRATCH = "rewrite-index"


@dataclass(frozen=True)
class Changed:
    path: str
    mode: str
    before: str  # HEAD's blob
    after: str  # the fixed blob


def fold(
    git: Git, head: str, stack: list[Commit], target: str, fixed_tree: str, made: dict[str, str] | None = None
) -> str:
    """The new tip: the commits from ``target`` to ``head`` (``stack``, newest first) made again with
    the fix; refused when the fix does not commute with one of them. ``made`` is filled with each
    old commit's new one."""
    chain = _chain(stack, target)
    changed = _changed(git, head, fixed_tree)
    diffs = Diffs(git)
    parent = chain[0].parent
    folder = os.path.join(git.git_dir, "segmint", "tmp")
    os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="segmint-fold-", dir=folder) as tmp:
        index = os.path.join(tmp, REWRITE_SCRATCH)
        for commit in chain:
            tree = _fixed_tree(git, diffs, commit, changed, index)
            parent = recommit(git, commit, tree, parent)
            if made is not None:
                made[commit.sha] = parent
    tip_tree = git.run("rev-parse", f"{parent}^{{tree}}").text.strip()
    if tip_tree != fixed_tree:
        raise RefusedError(
            f"folding the fix into {target[:7]} made a tree other than the one planned; nothing was changed"
        )
    return parent or ""


def _chain(stack: list[Commit], target: str) -> list[Commit]:
    """The commits from ``target`` to HEAD, oldest first."""
    shas = [c.sha for c in stack]
    if target not in shas:
        raise RefusedError(f"{target[:7]} is no longer among HEAD's unpushed commits; absorb again")
    return list(reversed(stack[: shas.index(target) + 1]))


def _changed(git: Git, head: str, fixed_tree: str) -> list[Changed]:
    out = git.run("diff-tree", "-r", "-z", "--no-renames", head, fixed_tree).stdout.split(b"\0")
    changed = []
    for meta, path in zip(out[0::2], out[1::2]):
        if not meta:
            continue
        old_mode, new_mode, old, new, status = meta.lstrip(b":").decode().split()
        name = path.decode("utf-8", "surrogateescape")
        if status != "M" or old_mode != new_mode:
            raise RefusedError(f"a fix can only edit files already there; {name} is not just edited")
        changed.append(Changed(name, new_mode, old, new))
    return changed


def _fixed_tree(git: Git, diffs: Diffs, commit: Commit, changed: list[Changed], index: str) -> str:
    env = {"GIT_INDEX_FILE": index}
    git.run("read-tree", commit.sha, env=env)
    rows = []
    contents = []
    for item in changed:
        blob = git.run("rev-parse", "--verify", "--quiet", f"{commit.sha}:{item.path}", check=False).text.strip()
        if not blob:
            raise RefusedError(f"{item.path} is not in {commit.named}: the fix cannot go back that far")
        ours = diffs.between(item.before, blob)  # what later commits did, seen from HEAD
        fix = diffs.between(item.before, item.after)
        if conflicts(ours, fix):
            raise RefusedError(f"the fix to {item.path} conflicts with a commit after {commit.named}")
        base = split_lines(git.run("cat-file", "blob", item.before).stdout)
        contents.append(apply_edits(base, [*ours, *fix]))
        rows.append(item)
    for item, oid in zip(rows, write_blobs(git, contents)):
        git.run("update-index", "--cacheinfo", f"{item.mode},{oid},{item.path}", env=env)
    return git.run("write-tree", env=env).text.strip()


def recommit(git: Git, commit: Commit, tree: str, parent: str | None) -> str:
    """``commit`` made again on ``tree`` and ``parent``: its message, author and author date kept."""
    raw = git.run("cat-file", "commit", commit.sha).stdout
    header, _, message = raw.partition(b"\n\n")
    env = {}
    for line in header.split(b"\n"):
        if line.startswith(b"author "):
            ident, _, stamp = line[len(b"author ") :].decode("utf-8", "surrogateescape").rpartition("> ")
            name, _, email = ident.partition(" <")
            env = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_AUTHOR_DATE": f"@{stamp.replace(' ', ' ')}"}
    args = ["commit-tree", tree] + (["-p", parent] if parent else [])
    return git.run(*args, input=message, env=env).text.strip()
