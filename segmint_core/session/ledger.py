"""The session's record of the commits Segmint made: a plan marked applied, and
the state put back when one is undone.

Used as a commit or an undo happens, and by the next process when one was
interrupted (``segmint_core.apply.journal``): both bring the saved state in
line with the repository the same way.
"""

from __future__ import annotations

from typing import Any

from segmint_core.changes import ChangeSet
from segmint_core.session.models import (
    APPLIED, APPROVED, FAILED, PROPOSED, AppliedCommit, CommitPlan, Group,
)
from segmint_core.session.state import SavedState
from segmint_core.session.units import Units


def state_before(state: SavedState, splits: dict[str, list[int]]) -> dict[str, Any]:
    """What undo puts back: the groups, the plans and the hunks' splits, as plain data."""
    return {
        "groups": [g.to_dict() for g in state.groups],
        "plans": [p.to_dict() for p in state.plans],
        "splits": dict(splits),
    }


def record_commit(state: SavedState, plan: CommitPlan, sha: str, parent: str | None, *, saved_index: str | None,
                  paths: list[str], before: dict[str, Any], index_after: dict[str, str] | None = None) -> None:
    """``plan`` is committed as ``sha`` on ``parent``: mark it applied and keep what undo needs."""
    plan.status, plan.sha, plan.error = APPLIED, sha, None
    for other in state.plans:   # the rest now go on top of this commit
        if other.status != APPLIED and other.base == parent:
            other.base = sha
    state.applied.append(AppliedCommit(sha=sha, parent=parent, plan_id=plan.id, index_before=saved_index or "",
                                       paths=list(paths), state_before=before, index_after=dict(index_after or {})))
    state.revision += 1


def just_committed(state: SavedState) -> frozenset[str]:
    """The units of the last commit, when the state was saved after recording it but before the
    changes were read again (a process stopped in between): they must not claim remaining hunks."""
    if not state.applied or state.applied[-1].parent != state.head:
        return frozenset()
    last = state.applied[-1]
    plan = next((p for p in state.plans if p.id == last.plan_id), None)
    return frozenset(plan.hunk_ids) if plan is not None else frozenset()


def put_back(state: SavedState, last: AppliedCommit, fresh: ChangeSet) -> Units:
    """Groups and plans as they were before ``last`` was committed, on a fresh capture (which,
    with HEAD and the index put back, has the same hunk ids); the units they name. No plan comes
    back approved: an agent's apply of it waits for the person again (unless they let agents commit)."""
    before = last.state_before
    units = Units(fresh, before.get("splits", {}))
    known = set(units.by_id) | set(units.change_by_id)
    state.splits = dict(units.splits)
    state.fingerprint, state.head = fresh.fingerprint, fresh.head
    state.revision += 1
    state.changes_revision = state.revision
    state.groups = [Group.from_dict(g) for g in before["groups"]]
    state.plans = [CommitPlan.from_dict(p) for p in before["plans"]]
    open_plans = [p for p in state.plans if p.status != APPLIED]   # applied ones name what they committed
    for item in (*state.groups, *open_plans):
        item.hunk_ids = [h for h in item.hunk_ids if h in known]
        item.change_ids = [c for c in item.change_ids if c in known]
    for item in (*state.groups, *state.plans):
        item.revision = state.revision
    undone = next((p for p in state.plans if p.id == last.plan_id), None)
    if undone is not None and undone.status == FAILED:   # that failure was overcome by the commit undone
        undone.status, undone.error = PROPOSED, None
    for plan in open_plans:   # an approval was spent on a commit now undone: the person approves again
        if plan.status == APPROVED:
            plan.status = PROPOSED
    if state.applied and state.applied[-1] is last:
        state.applied.pop()
    return units
