"""``absorb`` as a session method: fixes proposed as folds into the unpushed commits they fix, the
rest grouped by intent, one plan showing both.

The changes are grouped afresh; a git hunk whose runs of changed lines go to
different places (a fix and a new line three lines apart) is cut into parts;
each hunk or part ``rewrite.absorb.place`` puts into a commit moves to a group of
that commit's; each such group is planned as "absorb into 3f2a1c9 'subject'"
and ordered first. Applying such a plan folds its lines into that commit
(``rewrite.fold``) instead of committing them on top.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from segmint_core.rewrite.absorb import Placement, place, run_splits
from segmint_core.session import events
from segmint_core.session.core import SessionCore
from segmint_core.session.editing import regroup
from segmint_core.session.groups import add_group, tidy_groups
from segmint_core.session.models import APPLIED, PERSON, CommitPlan
from segmint_core.session.plans import propose_commits
from segmint_core.session.state import write_units
from segmint_core.session.units import Units

ABSORB_PREFIX = "absorb into "


@dataclass
class AbsorbPlan:
    placements: list[Placement]
    plans: list[CommitPlan]

    def to_dict(self) -> dict[str, Any]:
        return {"placements": [p.to_dict() for p in self.placements], "commits": [p.to_dict() for p in self.plans]}


def absorb_preview(session: SessionCore) -> list[Placement]:
    """Where each hunk (each run of changed lines) would go, changing nothing."""
    with session.lock:
        raw = session.units.changeset
    whole = Units(raw, {})
    return place(session.git, Units(raw, run_splits(whole)))


def absorb(session: SessionCore, *, actor: str = PERSON) -> AbsorbPlan:
    """Group afresh, move the fixes to groups of the commits they fix, and plan both."""
    regroup(session, actor=actor)
    with session.lock:
        session.begin_edit()
        state = session.state
        raw = session.units.changeset
        splits = {**run_splits(session.units), **state.splits}
        session.units = _cut(session, raw, splits)
        state.splits = dict(session.units.splits)
        _follow_cuts(state, session.units)
        placements = place(session.git, session.units)
        targets: dict[str, list[Placement]] = {}
        for placement in placements:
            if placement.target is not None:
                targets.setdefault(placement.target.sha, []).append(placement)
        moved = {p.unit_id for found in targets.values() for p in found}
        for group in state.groups:
            group.hunk_ids = [h for h in group.hunk_ids if h not in moved]
        absorb_groups = {}
        for sha, found in targets.items():
            target = found[0].target
            assert target is not None  # only placements with a target are gathered above
            group = add_group(
                state,
                session.units,
                [p.unit_id for p in found],
                f"{ABSORB_PREFIX}{target.named}",
                [found[0].reason],
            )
            absorb_groups[group.id] = sha
        tidy_groups(state, session.units)
        state.revision += 1
        write_units(session.folder, session.units, state)
        session.log(actor, "absorbed", f"{actor} found {len(moved)} fixes for {len(targets)} unpushed commits")
        session.save()
    session.announce(events.GROUPS, actor, {"groups": [g.id for g in session.groups]})
    plans = propose_commits(session, actor=actor, merge_alike=False)  # each group is the fixes of one commit
    with session.lock:
        session.begin_edit()
        for plan in session.plans:
            into = next((absorb_groups[g] for g in plan.change_group_ids if g in absorb_groups), None)
            if into is not None and plan.status != APPLIED:
                plan.absorb_into = into
                plan.title = session.group(plan.change_group_ids[0]).summary
                plan.description = ""
        order = [p for p in session.plans if p.absorb_into] + [p for p in session.plans if not p.absorb_into]
        session.state.plans = order
        session.save()
        plans = list(session.plans)
    session.announce(events.PLANS, actor, {"plans": [p.id for p in plans]})
    return AbsorbPlan(placements, plans)


def _cut(session: SessionCore, raw, splits: dict[str, list[list[int]]]) -> Units:
    """The units with each whole hunk cut into parts by where its runs go: runs going to the same
    place stay together, so a hunk going to one place is not cut at all."""
    fine = Units(raw, splits)
    where: dict[str, dict[str | None, list[int]]] = {}
    for placement in place(session.git, fine):
        unit = fine.by_id[placement.unit_id]
        if unit.parent.id not in splits or unit.parent.id in session.state.splits:
            continue
        target = placement.target.sha if placement.target else None
        where.setdefault(unit.parent.id, {}).setdefault(target, []).extend(i for _, i in unit.refs)
    kept: dict[str, list] = dict(session.state.splits)
    for hunk_id, parts in where.items():
        if len(parts) > 1:
            kept[hunk_id] = sorted((sorted(p) for p in parts.values()), key=min)
    return Units(raw, kept)


def _follow_cuts(state, units: Units) -> None:
    """Groups naming a hunk now cut name its parts instead."""
    parts: dict[str, list[str]] = {}
    for unit in units.by_id.values():
        if unit.hunk is not unit.parent:
            parts.setdefault(unit.parent.id, []).append(unit.id)
    for group in state.groups:
        group.hunk_ids = [p for h in group.hunk_ids for p in (parts.get(h) or [h])]
