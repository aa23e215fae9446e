"""The session's record of the commits Segmint made: a plan marked applied, and
the state put back when one is undone.

Used as a commit or an undo happens, and by the next process when one was
interrupted (``segmint_core.apply.journal``): both bring the saved state in
line with the repository the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from segmint_core.changes import ChangeSet
from segmint_core.session.models import (
    APPLIED,
    APPLY_OP,
    APPROVED,
    FAILED,
    PROPOSED,
    SEGMINT,
    UNDO_OP,
    AppliedCommit,
    AskedFor,
    OperationKind,
    CommitPlan,
    Group,
    Operation,
    id_number,
)
from segmint_core.session.state import SavedState
from segmint_core.session.units import Units


def state_before(state: SavedState, splits: dict[str, list[list[int]]]) -> dict[str, Any]:
    """What undo puts back: the groups, the plans and the hunks' splits, as plain data."""
    return {
        "groups": [g.to_dict() for g in state.groups],
        "plans": [p.to_dict() for p in state.plans],
        "splits": dict(splits),
    }


@dataclass
class OpStart:
    """The operation a commit belongs to, as known when it began (one per apply, one per apply --all)."""

    id: str
    actor: str = SEGMINT
    time: str = ""
    ref: str | None = None
    kind: OperationKind = APPLY_OP  # apply, or absorb when it folds fixes into earlier commits


def next_op_id(state: SavedState) -> str:
    return f"op-{state.op_count + 1}"


def find_operation(state: SavedState, op_id: str) -> Operation | None:
    return next((o for o in state.operations if o.id == op_id), None)


def record_commit(
    state: SavedState,
    plan: CommitPlan,
    sha: str,
    parent: str | None,
    *,
    saved_index: str | None,
    paths: list[str],
    before: dict[str, Any],
    index_after: dict[str, str] | None = None,
    op: OpStart | None = None,
    asked: AskedFor | None = None,
) -> None:
    """``plan`` is committed as ``sha`` on ``parent``: mark it applied, keep what undo needs (and
    what was asked for its lines, for the pull request), and log it in its operation (``op``; a new
    one when None)."""
    plan.status, plan.sha, plan.error = APPLIED, sha, None
    for other in state.plans:  # the rest now go on top of this commit
        if other.status != APPLIED and other.base == parent:
            other.base = sha
    op = op or OpStart(next_op_id(state))
    state.applied.append(
        AppliedCommit(
            sha=sha,
            parent=parent,
            plan_id=plan.id,
            index_before=saved_index or "",
            paths=list(paths),
            state_before=before,
            index_after=dict(index_after or {}),
            op=op.id,
            asked=asked,
        )
    )
    _log_commit(state, op, plan.id, sha, parent, saved_index or "", index_after or {})
    state.revision += 1


def record_rewrite(state: SavedState, label: str, sha: str, parent: str, op: OpStart) -> None:
    """The branch moved from ``parent`` to ``sha``, a rewrite of its history (a split): kept for undo,
    which moves it back; the index is not the rewrite's, so undo leaves it be."""
    state.applied.append(
        AppliedCommit(
            sha=sha,
            parent=parent,
            plan_id=label,
            index_before="",
            paths=[],
            state_before=state_before(state, state.splits),
            op=op.id,
        )
    )
    _log_commit(state, op, label, sha, parent, "", {})
    state.revision += 1


def _log_commit(
    state: SavedState,
    op: OpStart,
    plan_id: str,
    sha: str,
    parent: str | None,
    saved_index: str,
    index_after: dict[str, str],
) -> None:
    entry = find_operation(state, op.id)
    if entry is None:
        state.op_count = max(state.op_count, id_number(op.id))
        entry = Operation(op.id, op.kind, plan_id, op.actor, op.time, op.ref, parent, sha, saved_index)
        state.operations.append(entry)
    else:
        entry.label = f"{entry.label}, {plan_id}"
    entry.commits.append(sha)
    entry.head_after = sha
    entry.index_after.update(index_after)


def record_undo(
    state: SavedState, undone: list[Operation], op: OpStart, head_before: str | None, head_after: str | None
) -> Operation:
    """The operations ``undone`` are taken back by a new operation, logged."""
    state.op_count = max(state.op_count, id_number(op.id))
    entry = Operation(
        op.id,
        UNDO_OP,
        ", ".join(o.id for o in undone),
        op.actor,
        op.time,
        op.ref,
        head_before,
        head_after,
        undoes=[o.id for o in undone],
    )
    for taken in undone:
        taken.undone_by = op.id
    state.operations.append(entry)
    return entry


def operations_named(state: SavedState, op_ids: list[str]) -> list[Operation]:
    wanted = set(op_ids)
    return [o for o in state.operations if o.id in wanted]


def taken_back(state: SavedState, op_ids: list[str]) -> list[AppliedCommit]:
    """The commits of the operations ``op_ids`` that the session still holds as applied, oldest first
    (none once their undo is recorded)."""
    wanted = set(op_ids)
    return [c for c in state.applied if c.op in wanted]


def undoable(state: SavedState) -> list[Operation]:
    """The operations undo can take back, oldest first: those not undone, and not undos themselves."""
    return [o for o in state.operations if o.kind != UNDO_OP and not o.undone_by]


def just_committed(state: SavedState) -> frozenset[str]:
    """The units of the last commit, when the state was saved after recording it but before the
    changes were read again (a process stopped in between): they must not claim remaining hunks."""
    if not state.applied or state.applied[-1].parent != state.head:
        return frozenset()
    last = state.applied[-1]
    plan = next((p for p in state.plans if p.id == last.plan_id), None)
    return frozenset(plan.hunk_ids) if plan is not None else frozenset()


def put_back(
    state: SavedState, last: AppliedCommit, fresh: ChangeSet, taken: list[AppliedCommit] | None = None
) -> Units:
    """Groups and plans as they were before ``last`` was committed, on a fresh capture (which,
    with HEAD and the index put back, has the same hunk ids); the units they name. ``taken``:
    the commits undone together, ``last`` the first of them (one undo of an ``apply --all``). No plan
    comes back approved: an agent's apply of it waits for the person again (unless they let agents commit)."""
    before = last.state_before
    units = Units(fresh, before.get("splits", {}))
    known = set(units.by_id) | set(units.change_by_id)
    state.splits = dict(units.splits)
    state.fingerprint, state.head = fresh.fingerprint, fresh.head
    state.revision += 1
    state.changes_revision = state.revision
    state.groups = [Group.from_dict(g) for g in before["groups"]]
    state.plans = [CommitPlan.from_dict(p) for p in before["plans"]]
    open_plans = [p for p in state.plans if p.status != APPLIED]  # applied ones name what they committed
    kept: list[Group | CommitPlan] = [*state.groups, *open_plans]
    for item in kept:
        item.hunk_ids = [h for h in item.hunk_ids if h in known]
        item.change_ids = [c for c in item.change_ids if c in known]
    everything: list[Group | CommitPlan] = [*state.groups, *state.plans]
    for item in everything:
        item.revision = state.revision
    undone = next((p for p in state.plans if p.id == last.plan_id), None)
    if undone is not None and undone.status == FAILED:  # that failure was overcome by the commit undone
        undone.status, undone.error = PROPOSED, None
    for plan in open_plans:  # an approval was spent on a commit now undone: the person approves again
        if plan.status == APPROVED:
            plan.status = PROPOSED
    gone = {id(c) for c in taken or [last]}
    if taken is None and not (state.applied and state.applied[-1] is last):
        gone = set()
    state.applied[:] = [c for c in state.applied if id(c) not in gone]
    return units
