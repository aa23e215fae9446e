"""Line edits of one file against a base version, and whether two sets of them commute.

An edit replaces base lines ``[start, end)`` (0-based; ``start == end`` for an
insertion before line ``start``) by new lines. Two edits that overlap or touch
do not commute: as in a three-way merge, changes to adjacent lines are a conflict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from segmint_core.git import Git

_HEADER = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
NO_NEWLINE = b"\\ No newline at end of file"


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    new: tuple[bytes, ...] = ()  # the new lines, each with its newline (the last may lack one)


def split_lines(data: bytes) -> list[bytes]:
    """Lines as git counts them: cut after each newline only (a lone carriage return is not an end)."""
    return re.findall(rb"[^\n]*\n|[^\n]+$", data)


def touch(a: Edit, b: Edit) -> bool:
    return a.start <= b.end and b.start <= a.end


def conflicts(ours: list[Edit], theirs: list[Edit]) -> bool:
    return any(touch(a, b) for a in ours for b in theirs)


def apply_edits(base: list[bytes], edits: list[Edit]) -> bytes:
    """``base`` with ``edits`` (which do not overlap) made."""
    out: list[bytes] = []
    at = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        out.extend(base[at : edit.start])
        out.extend(edit.new)
        at = max(at, edit.end)
    out.extend(base[at:])
    return b"".join(out)


def parse_u0(diff: bytes) -> list[Edit]:
    """The edits of a ``git diff -U0`` of one file."""
    edits: list[Edit] = []
    start = end = 0
    new: list[bytes] = []
    last_added = False
    for line in diff.split(b"\n"):
        match = _HEADER.match(line)
        if match:
            if start != end or new:
                edits.append(Edit(start, end, tuple(new)))
            old_start, old_count = int(match.group(1)), int(match.group(2) or b"1")
            start = old_start - 1 if old_count else old_start
            end = start + old_count
            new, last_added = [], False
        elif line.startswith(b"+") and not line.startswith(b"+++"):
            new.append(line[1:] + b"\n")
            last_added = True
        elif line.startswith(b"-") and not line.startswith(b"---"):
            last_added = False
        elif line == NO_NEWLINE and last_added and new:
            new[-1] = new[-1][:-1]
    if start != end or new:
        edits.append(Edit(start, end, tuple(new)))
    return edits


class Diffs:
    """``git diff -U0`` between blobs, each pair read once."""

    def __init__(self, git: Git) -> None:
        self.git = git
        self._cache: dict[tuple[str, str], list[Edit]] = {}

    def between(self, base: str, other: str) -> list[Edit]:
        if base == other:
            return []
        key = (base, other)
        if key not in self._cache:
            out = self.git.run(
                "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--text", base, other
            ).stdout
            self._cache[key] = parse_u0(out)
        return self._cache[key]
