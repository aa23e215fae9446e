"""Where the other lines of a split hunk went, for the diff pane.

A part of a hunk (``change-3:2.2``) is shown as the hunk it commits: its own
changed lines, another part's removed lines as context (they stay in its
commit), and none of another part's added lines. So that the person sees which
lines went where, the diff pane also shows those added lines, dimmed, where
they sit in the hunk, and tags every line another part changes with the group
that holds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from segmint_core.changes.models import Hunk
from segmint_core.changes.split import part_rows


@dataclass(frozen=True)
class Elsewhere:
    """Another part's lines around one part (indices are into the part's own ``lines``)."""

    # before row i (or, at len(lines), after the last row): (line, where it went)
    added: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    removed: dict[int, str] = field(default_factory=dict)  # row i is removed there
    places: tuple[str, ...] = ()  # every other place, in order


def elsewhere_of(session, hunks: list[Hunk]) -> dict[str, Elsewhere]:
    """Hunk id -> its ``Elsewhere``, for the hunks among ``hunks`` that are parts of a split hunk."""
    parts = [h for h in hunks if h.parent_id is not None]
    if not parts:
        return {}
    units = session.units
    group_of = {uid: g.id for g in session.groups for uid in g.hunk_ids}
    out: dict[str, Elsewhere] = {}
    for hunk in parts:
        unit = units.by_id.get(hunk.id)
        if unit is None:  # a stale id during a concurrent update: the next event redraws
            continue
        owner: dict[int, str] = {}
        for other in units.by_id.values():
            if other.parent is unit.parent and other.id != unit.id:
                where = group_of.get(other.id, f"{other.id}, in no group")
                owner.update((i, where) for _, i in other.refs)
        out[hunk.id] = _around(unit.parent.lines, {i for _, i in unit.refs}, owner)
    return out


def _around(lines: list[str], owned: set[int], owner: dict[int, str]) -> Elsewhere:
    rows = part_rows(lines, owned)
    added: dict[int, list[tuple[str, str]]] = {}
    removed: dict[int, str] = {}
    foreign = lambda i: i in owner and lines[i][:1] == "+"  # noqa: E731  (a sibling's added line)
    edges = [-1, *rows, len(lines)]
    for n in range(len(rows) + 1):
        start, end = edges[n] + 1, edges[n + 1]
        if n == 0:  # before the first row: only the sibling lines right before it
            start = _run_start(lines, end, foreign)
        if n == len(rows):  # after the last row: only the sibling lines right after it
            end = _run_end(lines, start, foreign)
        between = [(lines[i], owner[i]) for i in range(start, end) if foreign(i)]
        if between:
            added[n] = between
    for n, index in enumerate(rows):
        if index in owner:
            removed[n] = owner[index]
    places = tuple(dict.fromkeys(owner[i] for i in sorted(owner)))
    return Elsewhere(added, removed, places)


def _run_start(lines: list[str], end: int, foreign) -> int:
    start = end
    while start > 0 and (foreign(start - 1) or lines[start - 1][:1] == "\\"):
        start -= 1
    return start


def _run_end(lines: list[str], start: int, foreign) -> int:
    end = start
    while end < len(lines) and (foreign(end) or lines[end][:1] == "\\"):
        end += 1
    return end
