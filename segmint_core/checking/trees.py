"""The tree of each planned commit: HEAD plus the plans up to it, built as ``apply`` would commit them."""

from __future__ import annotations

import os
from dataclasses import dataclass

from segmint_core.apply.commit import Selection, planned_tree
from segmint_core.checking.models import PlanSpec, SessionView
from segmint_core.errors import SegmintError


@dataclass(frozen=True)
class CommitTree:
    spec: PlanSpec
    tree: str | None  # None: the commit cannot be built on its own
    parent: str | None  # the tree before it (HEAD's, or the previous commit's)
    error: str = ""


def head_tree(view: SessionView) -> str:
    head = view.changes.head
    if head is None:
        return view.git.run("hash-object", "-t", "tree", "--stdin", "-w", input=b"").text.strip()
    return view.git.run("rev-parse", f"{head}^{{tree}}").text.strip()


def commit_trees(view: SessionView, specs: list[PlanSpec], folder: str) -> list[CommitTree]:
    """Each commit's tree, in order; a commit that cannot be built (it needs lines a later one
    holds) has none, and the ones after it are built as if it were there."""
    index = os.path.join(folder, f"trees-{os.getpid()}.index")
    total = Selection()
    out: list[CommitTree] = []
    parent: str | None = head_tree(view)
    try:
        for spec in specs:
            _add(total, view.select(spec))
            try:
                tree = planned_tree(view.git, view.changes, total, index)
                out.append(CommitTree(spec, tree, parent))
                parent = tree
            except SegmintError as exc:
                out.append(CommitTree(spec, None, parent, f"{spec.id} cannot be built on its own: {exc}"))
    finally:
        for leftover in (index, index + ".lock"):
            if os.path.exists(leftover):
                os.unlink(leftover)
    return out


def _add(total: Selection, more: Selection) -> None:
    for change_id, refs in more.refs.items():
        total.refs.setdefault(change_id, set()).update(refs)
    total.whole |= more.whole
