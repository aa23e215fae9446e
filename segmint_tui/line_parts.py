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

    added: dict[int, list[tuple[str, str]]] = field(default_factory=dict)   # before row i: (line, where it went)
    removed: dict[int, str] = field(default_factory=dict)                    # row i is removed there
    places: tuple[str, ...] = ()                                             # every other place, in order


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
        if unit is None:       # a stale id during a concurrent update: the next event redraws
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
    for n, index in enumerate(rows):
        if index in owner:
            removed[n] = owner[index]
        if n:
            between = [(lines[i], owner[i]) for i in range(rows[n - 1] + 1, index)
                       if i in owner and lines[i][:1] == "+"]
            if between:
                added[n] = between
    places = tuple(dict.fromkeys(owner[i] for i in sorted(owner)))
    return Elsewhere(added, removed, places)
