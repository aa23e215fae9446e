"""Splitting one hunk into smaller hunks that each apply on their own.

A hunk may hold lines of two intents. ``split_hunk(hunk, cuts)`` cuts its line
list at the given indices; each part owns the ``+``/``-`` lines inside it and
becomes a standalone hunk against the same base (HEAD for a staged hunk, the
index for an unstaged one): a ``-`` line owned by another part stays in the
base, so it is shown as context; a ``+`` line owned by another part is simply
not there. Context is trimmed to three lines on each side, like git's.

Two places cannot be cut, and cuts there are moved or dropped:
- between a line and its ``\\ No newline at end of file`` marker;
- inside the run of changed lines around the end of the file when a marker is
  in it: lines added after a last line that lacked its newline need the change
  that gives it one.
A part with no changed line left is merged into its neighbour.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from segmint_core.changes.models import Hunk
from segmint_core.changes.patch import hunk_header, section_of

CONTEXT = 3
CHANGED = ("+", "-")


def split_hunk(hunk: Hunk, cuts: list[int], *, context: int = CONTEXT) -> list[Hunk]:
    """Sub-hunks of ``hunk`` cut before each index in ``cuts`` (indices into
    ``hunk.lines``). Returns ``[hunk]`` itself when no valid cut remains."""
    parts = part_ranges(hunk.lines, cuts)
    if len(parts) < 2:
        return [hunk]
    return [render_part(hunk, range(start, end), n, context=context) for n, (start, end) in enumerate(parts, start=1)]


def part_ranges(lines: list[str], cuts: list[int]) -> list[tuple[int, int]]:
    """The ``[start, end)`` ranges the valid cuts make, each with a changed line."""
    valid = _valid_cuts(lines, cuts)
    bounds = [0, *valid, len(lines)]
    ranges = [(a, b) for a, b in zip(bounds, bounds[1:]) if a < b]
    merged: list[tuple[int, int]] = []
    for start, end in ranges:
        if merged and not _has_change(lines, start, end):
            merged[-1] = (merged[-1][0], end)
        elif merged and not _has_change(lines, *merged[-1]):
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def cut_points(lines: list[str]) -> list[int]:
    """The allowed cuts, one per gap between consecutive changed lines (right
    before the later one): every distinct way to split the changes, once."""
    changed = [i for i, line in enumerate(lines) if line[:1] in CHANGED]
    candidates = set(changed[1:])
    return [c for c in _valid_cuts(lines, candidates) if c in candidates]


def _has_change(lines: list[str], start: int, end: int) -> bool:
    return any(line[:1] in CHANGED for line in lines[start:end])


def _valid_cuts(lines: list[str], cuts: Iterable[int]) -> list[int]:
    n = len(lines)
    frozen_from = _eof_run_start(lines)
    out: list[int] = []
    for cut in sorted(set(cuts)):
        while 0 < cut < n and lines[cut][:1] == "\\":
            cut += 1  # keep a marker with the line it describes
        if not 0 < cut < n or cut > frozen_from:
            continue
        if not out or cut > out[-1]:
            out.append(cut)
    return out


def _eof_run_start(lines: list[str]) -> int:
    """Index of the first line of the changed run that holds a ``\\`` marker
    after a removed line (the old side's last line lacked a newline), or
    ``len(lines)`` when there is none. No cut may fall after it."""
    for i, line in enumerate(lines):
        if line[:1] == "\\" and i > 0 and lines[i - 1][:1] == "-":
            start = i
            while start > 0 and lines[start - 1][:1] in ("+", "-", "\\"):
                start -= 1
            return start
    return len(lines)


def render_part(parent: Hunk, owned: Collection[int], number: int, *, context: int = CONTEXT) -> Hunk:
    """The part of ``parent`` that owns the changed lines at ``owned`` (indices
    into ``parent.lines``, in any pattern) as a standalone hunk ``<parent>.<number>``."""
    rows = part_rows(parent.lines, owned, context=context)
    old_before = parent.old_start - 1 if parent.old_lines else parent.old_start
    first = rows[0] if rows else len(parent.lines)
    old_before += sum(1 for line in parent.lines[:first] if line[:1] in (" ", "", "-"))
    body = [parent.lines[i] if parent.lines[i][:1] != "-" or i in owned else " " + parent.lines[i][1:] for i in rows]
    old_count = sum(1 for line in body if line[:1] in (" ", "", "-"))
    new_count = sum(1 for line in body if line[:1] in (" ", "", "+"))
    old_start = old_before + 1 if old_count else old_before
    new_start = old_start + (old_count == 0) - (new_count == 0)
    header = hunk_header(old_start, old_count, new_start, new_count, section_of(parent.header))
    return Hunk(
        f"{parent.id}.{number}",
        old_start,
        old_count,
        new_start,
        new_count,
        header,
        body,
        staged=parent.staged,
        parent_id=parent.id,
    )


def part_rows(lines: list[str], owned: Collection[int], *, context: int = CONTEXT) -> list[int]:
    """Which of ``lines`` the part owning ``owned`` shows, as indices, in order:
    its changed lines, the other parts' removed lines as context (they stay in
    its base), never the other parts' added lines (not there), and up to
    ``context`` lines of context around."""
    owned = owned if isinstance(owned, (set, frozenset)) else set(owned)
    shown: list[int] = []
    kinds: list[str] = []  # " " context, "-" / "+" owned change, "\\" marker
    dropped_previous = False
    for i, line in enumerate(lines):
        sign = line[:1]
        if sign == "\\":
            if not dropped_previous:
                shown.append(i)
                kinds.append("\\")
            continue
        dropped_previous = False
        if sign == "+" and i not in owned:
            dropped_previous = True
            continue
        shown.append(i)
        kinds.append(sign if sign in CHANGED and i in owned else " ")
    if not any(k in CHANGED for k in kinds):
        return []
    first, last = _trim_bounds(kinds, context)
    return shown[first:last]


def _trim_bounds(kinds: list[str], context: int) -> tuple[int, int]:
    changed = [i for i, k in enumerate(kinds) if k in CHANGED]
    first = changed[0]
    lead = 0
    while first > 0 and lead < context and kinds[first - 1] == " ":
        first -= 1
        lead += 1
    last = changed[-1] + 1
    trail = 0
    while last < len(kinds) and (kinds[last] == "\\" or (trail < context and kinds[last] == " ")):
        if kinds[last] == " ":
            trail += 1
        last += 1
    return first, last
