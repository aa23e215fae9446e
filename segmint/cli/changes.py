"""``segmint changes``: the uncommitted changes, as a table or as JSON."""

from __future__ import annotations

import argparse
import sys

from segmint_core.changes import ChangeSet, capture
from segmint_core.changes.models import Change
from segmint_core.git import Git
from segmint_core.wording import counted, shown

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (3 ms here)
if TYPE_CHECKING:
    from segmint_core.changes.encode import ListingEncoder


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = subparsers.add_parser(
        "changes",
        parents=[common],
        help="list uncommitted changes (staged, unstaged, untracked)",
        description="List the repository's uncommitted changes as structured objects.",
    )
    p.add_argument("--json", action="store_true", help='print {"changes": [...]} as JSON')
    p.set_defaults(func=run, quick_exit=True)


def run(args: argparse.Namespace) -> int:
    git = Git.discover(args.repo)
    if args.json:
        changes = _print_json(git)
    else:
        changes = capture(git)
        sys.stdout.write(format_table(changes))
    warn_conflicts(git, changes.changes)
    return 0


def warn_conflicts(git: Git, changes: list[Change]) -> None:
    """On stderr, when a merge or rebase left conflicted files (``unfinished.conflict_warning``)."""
    from segmint_core.unfinished import conflict_warning

    warning = conflict_warning(git, changes)
    if warning is not None:
        sys.stdout.flush()
        print(f"segmint: warning: {warning}.", file=sys.stderr)


def _print_json(git: Git) -> ChangeSet:
    listing = _EarlyListing()
    changes = capture(git, on_patch=lambda patch: listing.encoder.prepare(patch))
    out = sys.stdout.buffer
    out.writelines(listing.encoder.parts(changes))
    out.write(b"\n")
    return changes


class _EarlyListing:
    """Encodes each file patch as soon as ``capture`` parses it. The encoder is
    made on the first patch, so importing json, like most of the encoding,
    happens while git is still writing the diff."""

    def __init__(self) -> None:
        self._encoder: ListingEncoder | None = None

    @property
    def encoder(self) -> ListingEncoder:
        if self._encoder is None:
            from segmint_core.changes.encode import ListingEncoder

            self._encoder = ListingEncoder()
        return self._encoder


def format_table(changes: ChangeSet) -> str:
    if not changes.changes:
        return "No uncommitted changes.\n"
    rows = [("ID", "STATUS", "HUNKS", "+", "-", "PATH")]
    for c in changes.changes:
        rows.append((c.id, c.status, _hunk_summary(c), str(c.added), str(c.removed), _path_label(c)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for r in rows:
        cells = [r[i].ljust(widths[i]) if i in (0, 1, 2) else r[i].rjust(widths[i]) for i in range(len(widths))]
        lines.append("  ".join(cells + [r[-1]]))
    total_hunks = sum(len(c.hunks) for c in changes.changes)
    lines.append(f"\n{counted(len(changes.changes), 'file')}, {counted(total_hunks, 'hunk')}")
    return "\n".join(lines) + "\n"


def _hunk_summary(c: Change) -> str:
    staged = sum(1 for h in c.hunks if h.staged)
    unstaged = len(c.hunks) - staged
    parts = []
    if staged:
        parts.append(f"{staged} staged")
    if unstaged:
        parts.append(f"{unstaged} unstaged")
    return ", ".join(parts) or "-"


def _path_label(c: Change) -> str:
    label = shown(c.file_path)  # a newline or tab in the name as \n, \t: one row per file
    if c.old_path:
        label = f"{shown(c.old_path)} -> {label}"
    notes = [n for n, on in (("binary", c.binary), ("untracked", c.untracked)) if on]
    if c.old_mode and c.new_mode and c.old_mode != c.new_mode:
        notes.append(f"mode {c.old_mode} -> {c.new_mode}")
    return label + (f" ({', '.join(notes)})" if notes else "")
