"""Editing the groups: grouping from scratch, moving hunks, merging, renaming.

Each function is a session method (``session.Session`` binds it): it edits
under the session's lock, bumps the revision, logs, saves and announces.
"""

from __future__ import annotations

from collections.abc import Callable

from segmint_core.errors import SegmintError, UnknownIdError
from segmint_core.session import events, moves
from segmint_core.session.confidence import remember_evidence
from segmint_core.session.core import SessionCore
from segmint_core.session.groups import (
    add_group,
    emptied_group,
    emptied_note,
    follow_groups,
    refresh_summaries,
    renumber,
    reopen,
    tidy_groups,
)
from segmint_core.session.models import APPLIED, PERSON, Group, id_number
from segmint_core.session.state import write_units
from segmint_core.session.units import Units
from segmint_core.wording import counted, shown

Progress = Callable[[int, int, str], None]


def regroup(
    session: SessionCore,
    *,
    change_ids: list[str] | None = None,
    provider: str = "local",
    actor: str = PERSON,
    progress: Progress | None = None,
) -> list[Group]:
    """Group the changes (all, or ``change_ids``) from scratch."""
    from segmint_core.grouping import group_changes  # loads numpy: only when grouping

    if change_ids is not None and not change_ids:
        raise SegmintError("Give at least one change id, or none at all to group every change")
    if change_ids is not None:
        change_ids = list(dict.fromkeys(change_ids))  # a change named twice is grouped once
    with session.lock:  # entering it takes up what another process saved: read the state inside
        state = session.state
        if change_ids is not None:
            session.units.resolve_changes(change_ids)
        raw = session.units.changeset
        grouping = group_changes(
            raw,
            change_ids=change_ids,
            provider=provider,
            settings=session.settings,
            progress=progress,
            root=session.git.root,
        )
        session.begin_edit()
        kept = [g for g in session.groups if change_ids is not None and not set(g.change_ids) & set(change_ids)]
        # the saved parts of hunks kept, and grouping's cuts of those grouped again (``Units`` reads both)
        splits: dict[str, list] = dict(state.splits) if change_ids is not None else {}
        splits.update(grouping.splits)
        if splits or session.units.splits:  # with no hunk cut, before or now, the units are those read
            session.units = Units(raw, splits)
        if change_ids is None:
            remember_evidence(session, raw.changes, grouping.evidence)
        state.splits = dict(session.units.splits)
        state.revision += 1
        known = session.units.by_id  # a generated file's hunks are not units: its change id stands for it
        fresh_groups = [
            Group(
                g.id,
                list(g.change_ids),
                [h for h in g.hunk_ids if h in known],
                shown(g.summary),
                [shown(r) for r in g.reasons],
                session.revision,
            )
            for g in grouping.groups
        ]
        state.groups = renumber(kept, fresh_groups)
        state.settled, state.emptied = [], []
        state.pr = None
        state.plans = [p for p in state.plans if p.status == APPLIED]  # open plans named the old groups
        write_units(session.folder, session.units, state)
        session.log(actor, "grouped", f"{actor} grouped the changes into {counted(len(session.groups), 'group')}")
        session.save()
    session.announce(events.GROUPS, actor, {"groups": [g.id for g in session.groups]})
    return session.groups


def ensure_groups(session: SessionCore, *, actor: str = PERSON) -> list[Group]:
    if not session.groups and session.units.changes:
        return regroup(session, actor=actor)
    return session.groups


def move_hunks(
    session: SessionCore,
    hunk_ids: list[str],
    *,
    to_group_id: str | None = None,
    new_group: bool = False,
    actor: str = PERSON,
) -> Group:
    """Move hunks (or whole hunkless changes, by change id) to a group or a new one."""
    if (to_group_id is None) == (not new_group):
        raise SegmintError("Give either to_group_id or new_group=true (not both)")
    with session.lock:
        session.begin_edit()
        state, units = session.state, session.units
        hunks, changes = split_ids(units, hunk_ids)
        target = (emptied_group(state, to_group_id) or session.group(to_group_id)) if to_group_id else None
        # Moving hunks to the group they are in settles them there: nothing moves, it is said so.
        kept = target is not None and set(hunks) <= set(target.hunk_ids) and set(changes) <= set(target.change_ids)
        before = moves.snapshot(session)
        for group in session.groups:
            group.hunk_ids = [h for h in group.hunk_ids if h not in hunks]
            group.change_ids = [c for c in group.change_ids if c not in changes]
        if target is None:
            target = add_group(state, units, [], "", [])
        reopen(state, target)
        target.hunk_ids = units.in_order(target.hunk_ids + hunks)
        target.change_ids = sorted(set(target.change_ids) | set(changes), key=id_number)
        state.settled = list(dict.fromkeys(state.settled + hunks + changes))
        emptied = tidy_groups(state, units)
        follow_groups(state, units)
        state.revision += 1
        refresh_summaries(state, units, session.git)
        text = f"{actor} {'kept' if kept else 'moved'} {', '.join(hunk_ids)} {'in' if kept else 'to'} {target.id}"
        text += emptied_note(emptied)
        session.log(actor, "moved", text)
        moves.remember(session, before, text)
        session.save()
    session.announce(events.GROUPS, actor, {"moved": hunk_ids, "to": target.id})
    return target


def merge_groups(session: SessionCore, group_ids: list[str], *, actor: str = PERSON) -> Group:
    group_ids = list(dict.fromkeys(group_ids))
    if len(group_ids) < 2:
        raise SegmintError("Give at least two different groups to merge")
    with session.lock:
        session.begin_edit()
        state, units = session.state, session.units
        groups = [session.group(gid) for gid in group_ids]
        keep, rest = groups[0], groups[1:]
        for other in rest:
            keep.hunk_ids = units.in_order(keep.hunk_ids + other.hunk_ids)
            keep.change_ids = sorted(set(keep.change_ids) | set(other.change_ids), key=id_number)
        named = next((g for g in groups if g.edited), None)
        if named is not None:  # a name someone gave survives the merge
            keep.summary, keep.edited = named.summary, True
        merged = {g.id for g in rest}
        state.groups = [g for g in state.groups if g.id not in merged]
        follow_groups(state, units)
        state.revision += 1
        refresh_summaries(state, units, session.git)
        session.log(actor, "merged", f"{actor} merged {', '.join(group_ids)} into {keep.id}")
        session.save()
    session.announce(events.GROUPS, actor, {"merged": group_ids, "into": keep.id})
    return keep


def update_group(session: SessionCore, group_id: str, summary: str, *, actor: str = PERSON) -> Group:
    summary = shown(" ".join(summary.split()))
    if not summary:
        raise SegmintError("A group summary cannot be empty")
    with session.lock:
        session.begin_edit()
        group = session.group(group_id)
        group.summary = summary
        group.edited = True
        group.revision = session.record(actor, "renamed", f"{actor} renamed {group_id} to “{summary}”")
    session.announce(events.GROUPS, actor, {"renamed": group_id})
    return group


def split_ids(units: Units, ids: list[str]) -> tuple[list[str], list[str]]:
    """Hunk ids and hunkless change ids; a change with hunks stands for all of them, and a git
    hunk grouping cut (``change-1:2``, as diff chunks name it) for all its parts."""
    parts = {i: _parts_of(units, i) for i in ids if i not in units.by_id and i not in units.change_by_id}
    unknown = [i for i, found in parts.items() if not found]
    if unknown:
        raise UnknownIdError("hunk", unknown, list(units.by_id))
    if not ids:
        raise SegmintError("Give at least one hunk id")
    hunks: list[str] = []
    changes: list[str] = []
    for i in ids:
        change = units.change_by_id.get(i)
        if i in parts:
            hunks.extend(parts[i])
        elif change is None:
            hunks.append(i)
        elif change.hunks:
            hunks.extend(h.id for h in change.hunks)
        else:
            changes.append(i)
    return list(dict.fromkeys(hunks)), list(dict.fromkeys(changes))


def _parts_of(units: Units, hunk_id: str) -> list[str]:
    return [unit.id for unit in units.by_id.values() if unit.parent.id == hunk_id and unit.id != hunk_id]
