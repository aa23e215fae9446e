"""Fewer context lines: ``load_diff(context_lines=N)`` keeps N lines around each change.

A hunk whose changes drift more than 2N context lines apart is cut in two, as
``git diff -U<N>`` would cut it; every piece gets a correct ``@@`` header (the
function name after it stays on the first piece only), so the result still
applies with ``git apply``. Pieces keep their hunk's id.
"""

from __future__ import annotations

from segmint_core.changes.models import Hunk
from segmint_core.changes.patch import hunk_header, section_of

_FAR = 1 << 30


def reduce_context(hunks: list[Hunk], keep: int) -> list[Hunk]:
    out: list[Hunk] = []
    for h in hunks:
        out.extend(_reduce_hunk(h, keep))
    return out


def _is_change(line: str) -> bool:
    return line.startswith(("+", "-"))


def _is_context(line: str) -> bool:
    # "" is a context line whose lone space a mailer stripped.
    return line[:1] in (" ", "")


def _reduce_hunk(h: Hunk, keep: int) -> list[Hunk]:
    lines = h.lines
    kept = _kept_lines(lines, keep)
    if all(kept) or not any(kept):
        return [h]
    pieces: list[Hunk] = []
    old_no, new_no = h.old_start, h.new_start
    run: list[str] = []
    run_old = run_new = 0
    for line, keep_it in zip(lines, kept):
        if keep_it:
            if not run:
                run_old, run_new = old_no, new_no
            run.append(line)
        elif run:
            pieces.append(_piece(h, run, run_old, run_new, first=not pieces))
            run = []
        if _is_context(line):
            old_no += 1
            new_no += 1
        elif line.startswith("-"):
            old_no += 1
        elif line.startswith("+"):
            new_no += 1
    if run:
        pieces.append(_piece(h, run, run_old, run_new, first=not pieces))
    return pieces


def _kept_lines(lines: list[str], keep: int) -> list[bool]:
    """For each line: a change, context within ``keep`` lines of one, or the
    ``\\ No newline`` marker of a kept line."""
    n = len(lines)
    distance = [_FAR] * n
    last = -_FAR
    for i, line in enumerate(lines):
        if _is_change(line):
            last = i
        distance[i] = i - last
    last = _FAR
    for i in range(n - 1, -1, -1):
        if _is_change(lines[i]):
            last = i
        distance[i] = min(distance[i], last - i)
    kept: list[bool] = []
    for i, line in enumerate(lines):
        if line.startswith("\\"):
            kept.append(bool(kept) and kept[-1])
        else:
            kept.append(distance[i] <= keep)
    return kept


def _piece(h: Hunk, run: list[str], old_start: int, new_start: int, *, first: bool) -> Hunk:
    old_count = sum(1 for line in run if _is_context(line) or line.startswith("-"))
    new_count = sum(1 for line in run if _is_context(line) or line.startswith("+"))
    # An empty side names the line before the change (git's convention).
    old_at = old_start - 1 if old_count == 0 else old_start
    new_at = new_start - 1 if new_count == 0 else new_start
    header = hunk_header(old_at, old_count, new_at, new_count, section_of(h.header) if first else "")
    return Hunk(h.id, old_at, old_count, new_at, new_count, header, list(run), h.staged, h.parent_id)
