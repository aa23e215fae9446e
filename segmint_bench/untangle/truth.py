"""Which commit of a case made each changed line (the ground truth).

An added line is blamed on the tip (``git blame base..tip``). A removed line is
blamed in reverse (``git blame --reverse base..tip`` on the base's file): that
names the last commit the line was still in, so the next commit of the chain
removed it. Lines blame cannot place inside the chain (a moved line the diff
shows as added, say) are left out of the score.
"""

from __future__ import annotations

import re

from segmint_bench.untangle.cases import Case
from segmint_core.changes import ChangeSet
from segmint_core.changes.models import Change
from segmint_core.git import Git

LineKey = tuple[str, int]  # (original hunk id, index into hunk.lines)

_PORCELAIN_HEADER = re.compile(r"^([0-9a-f]{40}) \d+ (\d+)", re.MULTILINE)


def line_truth(git: Git, case: Case, changes: ChangeSet) -> dict[LineKey, int]:
    """Each scorable changed line -> the index (0-based) of the commit that made it."""
    order = {sha: n for n, sha in enumerate(case.commits)}
    span = f"{case.base}..{case.tip}"
    added_files = [c for c in changes.changes if _has(c, "+")]
    removed_files = [c for c in changes.changes if _has(c, "-")]
    commands = [("blame", "--porcelain", span, "--", c.file_path) for c in added_files]
    commands += [("blame", "--porcelain", "--reverse", span, "--", c.old_path or c.file_path) for c in removed_files]
    # A path blame cannot follow (a submodule, say) scores no line.
    results = git.run_many(*commands, may_fail=tuple(range(len(commands)))) if commands else []
    truth: dict[LineKey, int] = {}
    for change, result in zip(added_files, results):
        owners = _owners(result.text) if result.returncode == 0 else {}
        for key, line_no in _numbered(change, "+"):
            n = order.get(owners.get(line_no, ""))
            if n is not None:
                truth[key] = n
    for change, result in zip(removed_files, results[len(added_files) :]):
        last_seen = _owners(result.text) if result.returncode == 0 else {}
        for key, line_no in _numbered(change, "-"):
            sha = last_seen.get(line_no)
            n = -1 if sha == case.base or (sha is not None and sha not in order) else order.get(sha or "")
            if n is not None and n + 1 < len(case.commits):
                truth[key] = n + 1
    return truth


def _has(change: Change, sign: str) -> bool:
    return any(line[:1] == sign for h in change.hunks for line in h.lines)


def _owners(porcelain: str) -> dict[int, str]:
    return {int(m.group(2)): m.group(1) for m in _PORCELAIN_HEADER.finditer(porcelain)}


def _numbered(change: Change, sign: str) -> list[tuple[LineKey, int]]:
    """The ``sign`` lines of a change with their line numbers on their side."""
    out: list[tuple[LineKey, int]] = []
    for h in change.hunks:
        old = h.old_start if h.old_lines else h.old_start + 1
        new = h.new_start if h.new_lines else h.new_start + 1
        for i, line in enumerate(h.lines):
            kind = line[:1]
            if kind == sign:
                out.append(((h.id, i), old if sign == "-" else new))
            if kind in (" ", "-"):
                old += 1
            if kind in (" ", "+"):
                new += 1
    return out
