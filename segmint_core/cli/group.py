"""``segmint group``: the uncommitted changes grouped by intent, as a list or as JSON.

``--json`` prints ``{"changes": [...], "groups": [...]}``; the changes are
exactly what ``segmint changes --json`` prints, except that a hunk split by
grouping appears as its sub-hunks, so every hunk id in a group resolves.
"""

from __future__ import annotations

import argparse
import sys

from segmint_core.changes import ChangeSet, capture
from segmint_core.changes.encode import encode_changes
from segmint_core.config import load_settings
from segmint_core.git import Git
from segmint_core.grouping import ALGORITHMS, PROVIDERS, Grouping, group_changes
from segmint_core.jsonio import to_json
from segmint_core.wording import counted


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "group", parents=[common],
        help="group uncommitted changes by intent",
        description="Group the repository's uncommitted hunks by intent, each group with a summary and its reasons.",
    )
    p.add_argument("--json", action="store_true", help='print {"changes": [...], "groups": [...]} as JSON')
    p.add_argument(
        "--provider", choices=PROVIDERS, default=None,
        help="embedding provider (default: SEGMINT_EMBEDDINGS, else local; local works offline)",
    )
    p.add_argument(
        "--algorithm", choices=ALGORITHMS, default="graph",
        help="graph: Segmint's engine (default); seed: the seed's greedy centroid clustering, for comparison",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    git = Git.discover(args.repo)
    changes = capture(git)
    settings = load_settings()
    provider = args.provider or settings.embeddings
    grouping = group_changes(
        changes, provider=provider, algorithm=args.algorithm, settings=settings, root=git.root,
    )
    if args.json:
        out = sys.stdout.buffer
        out.write(encode_grouping(changes, grouping).encode("utf-8"))
        out.write(b"\n")
    else:
        sys.stdout.write(format_groups(grouping))
    return 0


def encode_grouping(changes: ChangeSet, grouping: Grouping) -> str:
    """The JSON text: the effective changes in ``segmint changes --json``'s exact form, then the groups."""
    listed = encode_changes(ChangeSet(grouping.changes, changes.fingerprint, changes.head)).decode("utf-8")
    groups = to_json([g.to_dict() for g in grouping.groups])
    return f'{listed[:-1]}, "groups": {groups}}}'


def format_groups(grouping: Grouping) -> str:
    if not grouping.groups:
        return "No uncommitted changes.\n"
    paths = {c.id: c.file_path for c in grouping.changes}
    lines: list[str] = []
    for group in grouping.groups:
        files = ", ".join(paths[c] for c in group.change_ids)
        lines.append(f"{group.id}  {group.summary}")
        lines.append(f"    {counted(len(group.hunk_ids), 'hunk')} in {files}")
        for reason in group.reasons:
            lines.append(f"    - {reason}")
        if group.note:
            lines.append(f"    note: {group.note}")
    split = len(grouping.splits)
    tail = f"\n{counted(len(grouping.groups), 'group')}"
    if split:
        tail += f"; {counted(split, 'hunk')} split between groups"
    lines.append(tail)
    return "\n".join(lines) + "\n"
