"""Moving single lines of a hunk to another group, and undoing the last move.

``move_lines`` cuts a hunk (or one part of it) by any set of its changed
lines (``changes.parts``): the lines move to the target group as a part of
their own, or join the part of the same hunk that group already holds; the
lines left behind stay where they were, under the part id that names them.
A selection that cannot be committed on its own is refused, naming the lines
that must come along, and the session is left as it was.

Every move (of hunks or of lines) remembers what it changed; ``undo_move``
puts it back, as long as nothing else edited the session since.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from segmint_core.changes.models import Hunk, wire_lines
from segmint_core.errors import RefusedError, SegmintError
from segmint_core.git_modes import GITLINK
from segmint_core.session import events
from segmint_core.session.core import SessionCore
from segmint_core.session.groups import (
    add_group,
    emptied_group,
    emptied_note,
    follow_groups,
    refresh_summaries,
    reopen,
    tidy_groups,
)
from segmint_core.session.models import PERSON, CommitPlan, Group
from segmint_core.session.state import write_units
from segmint_core.session.units import Unit, Units
from segmint_core.wording import counted

MOVES_KEPT = 20


@dataclass
class LineMove:
    """What a line move did, for the person or agent who asked."""

    hunk_id: str  # the hunk or part the lines were taken from
    lines: list[int]  # their 1-based places among its changed lines
    moved_id: str  # the part holding them now
    rest_id: str | None  # the part holding the lines left behind (None: none left)
    group: Group  # the group they went to
    sentence: str = ""


@dataclass
class Snapshot:
    """The groups, plans and cuts a move is about to change (``remember`` keeps only what it changed)."""

    groups: dict[str, dict]
    order: list[str]
    plans: dict[str, dict]
    plan_order: list[str]
    splits: dict[str, list]
    changed: dict[str, Any] = field(default_factory=dict)


def snapshot(session: SessionCore) -> Snapshot:
    state = session.state
    return Snapshot(
        {g.id: g.to_dict() for g in state.groups},
        [g.id for g in state.groups],
        {p.id: p.to_dict() for p in state.plans},
        [p.id for p in state.plans],
        dict(state.splits),
    )


def remember(session: SessionCore, before: Snapshot, text: str) -> None:
    """Keep what the move just made (``text``) changed, for ``undo_move``; call after the revision bump."""
    state = session.state
    entry = {
        "after": state.revision,
        "text": text,
        "order": before.order,
        "plan_order": before.plan_order,
        "splits": before.splits,
        "groups": {gid: g for gid, g in before.groups.items() if _changed(state.groups, gid, g)},
        "plans": {pid: p for pid, p in before.plans.items() if _changed(state.plans, pid, p)},
    }
    state.moves = [*state.moves, entry][-MOVES_KEPT:]


def _changed(items: list, ident: str, before: dict) -> bool:
    now = next((x for x in items if x.id == ident), None)
    return now is None or now.to_dict() != before


def undo_move(session: SessionCore, *, actor: str = PERSON) -> str:
    """Put back what the last move changed; refused when the session was edited since."""
    with session.lock:
        state = session.state
        if not state.moves:
            raise SegmintError("Nothing to undo: no hunks or lines were moved")
        entry = state.moves[-1]
        if entry["after"] != state.revision:
            state.moves = []
            session.save()
            raise RefusedError(
                "The session changed since the last move; only a move that was the last edit "
                "can be undone: move the hunks or lines back instead"
            )
        current = {g.id: g for g in state.groups}
        state.groups = [
            Group.from_dict(dict(entry["groups"][gid])) if gid in entry["groups"] else current[gid]
            for gid in entry["order"]
        ]
        plans = {p.id: p for p in state.plans}
        state.plans = [
            CommitPlan.from_dict(dict(entry["plans"][pid])) if pid in entry["plans"] else plans[pid]
            for pid in entry["plan_order"]
        ]
        session.units = Units(session.units.changeset, entry["splits"])
        state.splits = dict(session.units.splits)
        write_units(session.folder, session.units, session.state)
        state.moves = state.moves[:-1]
        state.revision += 1
        if state.moves:
            state.moves[-1]["after"] = state.revision  # the state is what that move left
        sentence = f"{actor} undid the move: {entry['text']}"
        session.log(actor, "undid", sentence)
        session.save()
    session.announce(events.GROUPS, actor, {"undid": entry["text"]})
    return sentence


def move_lines(
    session: SessionCore,
    hunk_id: str,
    lines: list[int],
    *,
    to_group_id: str | None = None,
    new_group: bool = False,
    actor: str = PERSON,
) -> LineMove:
    """Move the changed lines at ``lines`` (1-based, among ``hunk_id``'s changed lines) to a group or a new one."""
    if (to_group_id is None) == (not new_group):
        raise SegmintError("Give either to_group_id or new_group=true (not both)")
    with session.lock:
        session.begin_edit()
        units = session.units
        (unit,) = units.resolve([hunk_id])
        chosen = _chosen(unit, lines)
        holder = _holder(session, unit.id)
        target = (emptied_group(session.state, to_group_id) or session.group(to_group_id)) if to_group_id else None
        if target is not None and target is holder:
            raise SegmintError(f"{hunk_id} is already in {target.id}")
        parts = units.parts_of(unit)
        joining = _part_in(units, target, unit) if target is not None else None
        into = parts.number_of(min(i for _, i in joining.refs)) if joining else None
        source = parts.number_of(min(chosen))
        cut, number = parts.move(unit.parent.lines, source, frozenset(chosen), into, unit_id=hunk_id)
        before = snapshot(session)
        if target is None:
            target = add_group(session.state, session.units, [], "", [])
        reopen(session.state, target)
        if cut is not parts:
            splits = {**units.splits, unit.parent.id: cut.to_saved()}
            session.units = Units(units.changeset, splits)
            session.state.splits = dict(session.units.splits)
            write_units(session.folder, session.units, session.state)
        moved_id = _unit_id(session.units, unit, next(iter(chosen)))
        rest = sorted({i for _, i in unit.refs} - chosen)
        rest_id = _unit_id(session.units, unit, rest[0]) if rest else None
        renamed = {unit.id: rest_id}
        if joining is not None:
            renamed[joining.id] = moved_id
        _rename_units(session, renamed, moved_id, target)
        session.state.settled = list(dict.fromkeys([*session.state.settled, moved_id]))  # as move_hunks
        emptied = tidy_groups(session.state, session.units)
        follow_groups(session.state, session.units)
        session.state.revision += 1
        refresh_summaries(session.state, session.units, session.git)
        places = counted(len(chosen), "line")
        text = (
            f"{actor} moved {places} of {hunk_id} to {target.id}"
            + (f" ({moved_id}; {rest_id} keeps the rest)" if rest_id else "")
            + emptied_note(emptied)
        )
        session.log(actor, "moved", text)
        remember(session, before, text)
        session.save()
    session.announce(events.GROUPS, actor, {"moved": [hunk_id], "lines": sorted(lines), "to": target.id})
    sentence = (
        f"Moved {places} of {hunk_id} to {target.id} as {moved_id}"
        + (f"; {rest_id} holds the {counted(len(rest), 'line')} left" if rest_id else "")
        + "."
    )
    return LineMove(hunk_id, sorted(set(lines)), moved_id, rest_id, target, sentence)


def describe_parts(session: SessionCore) -> list[dict[str, Any]]:
    """Every part of a hunk cut in several: its lines, where they sit in the hunk, and its group."""
    units = session.units
    if not any(parts.is_split for parts in units.hunk_parts.values()):
        return []
    group_of = {uid: g.id for g in session.groups for uid in g.hunk_ids}
    return [
        {
            "id": unit.id,
            "hunk_id": unit.parent.id,
            "positions": [p + 1 for p in units.places(unit)],
            "lines": wire_lines(unit.changed_lines),
            "group_id": group_of.get(unit.id),
        }
        for unit in units.by_id.values()
        if unit.hunk is not unit.parent
    ]


def _chosen(unit: Unit, lines: list[int]) -> set[int]:
    """The line indices (in the git hunk) at 1-based ``lines`` among the unit's changed lines."""
    change = unit.change
    if change.binary or GITLINK in (change.old_mode, change.new_mode):
        raise SegmintError(f"{unit.id} is a submodule or binary change: move it whole with move_hunks")
    owned = sorted(i for _, i in unit.refs)
    if not lines:
        raise SegmintError(
            f"Give the lines of {unit.id} to move: places from 1 to {len(owned)} among its added and removed lines"
        )
    bad = sorted({n for n in lines if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(owned)})
    if bad:
        raise SegmintError(
            f"{unit.id} has {counted(len(owned), 'changed line')}: give places from 1 to "
            f"{len(owned)} (not {', '.join(map(str, bad))})"
        )
    return {owned[n - 1] for n in lines}


def _holder(session: SessionCore, unit_id: str) -> Group | None:
    return next((g for g in session.groups if unit_id in g.hunk_ids), None)


def _part_in(units: Units, group: Group, unit: Unit) -> Unit | None:
    """The part of the same git hunk that ``group`` holds, if any."""
    return next(
        (
            units.by_id[h]
            for h in group.hunk_ids
            if h in units.by_id and h != unit.id and units.by_id[h].parent is unit.parent
        ),
        None,
    )


def _unit_id(units: Units, old: Unit, index: int) -> str:
    """The id of the unit holding line ``index`` of ``old``'s git hunk, in the new units."""
    ref = (old.parent.id, index)
    return next(u.id for u in _siblings(units, old.parent) if ref in u.refs)


def _siblings(units: Units, parent: Hunk) -> list[Unit]:
    return [u for u in units.by_id.values() if u.parent.id == parent.id]


def _rename_units(session: SessionCore, renamed: dict[str, str | None], moved_id: str, target: Group) -> None:
    """Groups name the new units: each old id its successor (None: gone); the moved lines go to
    ``target`` and leave every other group. Open plans keep what they named and go out of date
    where their groups changed (``follow_groups``), as after any move."""
    for group in session.groups:
        group.hunk_ids = _renamed(group.hunk_ids, renamed, moved_id)
    target.hunk_ids = session.units.in_order([*target.hunk_ids, moved_id])


def _renamed(ids: list[str], renamed: dict[str, str | None], leaving: str | None = None) -> list[str]:
    out = (renamed.get(h, h) for h in ids)
    return [h for h in dict.fromkeys(out) if h is not None and h != leaving]
