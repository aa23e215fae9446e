"""Applying plans and undoing them, as session methods (``session.Session`` binds them).

An agent's apply waits for the person's approval when a person is present
(the TUI) unless the app allows agent commits. After a commit, the session
re-reads the repository: the committed hunks are gone, the rest keep their
groups and plans under their new ids.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from enum import StrEnum
from datetime import timezone
from typing import Any, Protocol

from typing_extensions import TypedDict

from segmint_core.apply.commit import ApplyResult, Selection, apply_selection
from segmint_core.apply.journal import Unrecorded
from segmint_core.rewrite.fold import fold
from segmint_core.rewrite.stack import followed, unpushed
from segmint_core.apply.undo import forget_saved_index
from segmint_core.errors import OutOfDateError, RefusedError, SegmintError, os_trouble
from segmint_core.git_modes import GITLINK
from segmint_core.session import events, leftovers, ledger
from segmint_core.session.core import SessionCore
from segmint_core.session.groups import disagreement
from segmint_core.session.models import (
    ABSORB_OP,
    AGENT,
    APPLIED,
    APPLY_OP,
    APPROVED,
    AWAITING_APPROVAL,
    FAILED,
    PERSON,
    CommitPlan,
)
from segmint_core.session.planner import merge_advice, needed_later
from segmint_core.session.plans import propose_commits, unplanned
from segmint_core.session import state as saved_state
from segmint_core.session.units import Units
from segmint_core.wire import to_wire
from segmint_core.wording import counted, readable


LEFTOVER_ROUNDS = 2  # a remnant's own plan can leave one again; never more than twice in the cases seen


class FileCommitted(TypedDict):
    path: str
    added: int
    removed: int


class ApplyStatus(StrEnum):
    APPLIED = "applied"
    AWAITING_APPROVAL = "awaiting_approval"
    DRY_RUN = "dry_run"  # checked, nothing committed


@dataclass
class ApplyOutcome:
    commit_id: str
    status: ApplyStatus
    sha: str | None = None
    files: list[FileCommitted] = field(default_factory=list)
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return to_wire(self)


class AlreadyApplied(SegmintError):
    """The plan was committed before this apply was asked for: this one commits nothing."""


class Selects(Protocol):
    """A commit's lines, by id: a plan, or a commit a check builds (``checking.models.PlanSpec``)."""

    @property
    def id(self) -> str: ...

    @property
    def hunk_ids(self) -> Sequence[str]: ...

    @property
    def change_ids(self) -> Sequence[str]: ...


def selection_for(units: Units, plan: Selects) -> Selection:
    selection = Selection()
    for unit in units.resolve(plan.hunk_ids):
        change = unit.change
        if change.binary or GITLINK in (change.old_mode, change.new_mode):
            selection.whole.add(change.id)
        else:
            selection.refs.setdefault(change.id, set()).update(unit.refs)
    for change in units.resolve_changes(plan.change_ids):
        if change.hunks:
            raise SegmintError(f"{plan.id} names {change.id} as a whole change, but it has hunks: name its hunks")
        selection.whole.add(change.id)
    return selection


def apply_commit(session: SessionCore, commit_id: str, *, dry_run: bool = False, actor: str = PERSON) -> ApplyOutcome:
    with session.committing if not dry_run else nullcontext(), session.lock:
        session.begin_edit()
        plan = session.plan(commit_id)
        if plan.status == APPLIED:
            raise AlreadyApplied(f"{commit_id} is already applied as {(plan.sha or '')[:7]}")
        _refuse_if_out_of_date(session, plan)
        present = session.presence()
        if (
            actor == AGENT
            and not dry_run
            and present.person_present
            and not present.agent_can_commit
            and plan.status != APPROVED
        ):
            plan.status = AWAITING_APPROVAL
            session.record(actor, "requested", f"{actor} asked to apply {commit_id}: waiting for approval")
            outcome = ApplyOutcome(
                commit_id, ApplyStatus.AWAITING_APPROVAL, message=f"{commit_id} is waiting for the person's approval"
            )
        else:
            outcome = _apply(session, plan, dry_run=dry_run, actor=actor)
    session.announce(events.PLANS, actor, outcome.to_dict())
    if outcome.status == APPLIED:
        session.announce(events.CHANGES, actor, session.last_refresh.to_dict())
    return outcome


def _apply(session: SessionCore, plan: CommitPlan, *, dry_run: bool, actor: str) -> ApplyOutcome:
    before = ledger.state_before(session.state, session.units.splits)
    op = session.batch_op or operation_start(session, actor, absorbs=bool(plan.absorb_into))
    from segmint_core.session.intents import asked_for  # (loads the grouping engine: only when committing)

    asked = None if dry_run else asked_for(session.units, session.git, [plan])[0]  # while its lines are uncommitted

    def record(result: ApplyResult) -> None:
        ledger.record_commit(
            session.state,
            plan,
            result.sha or "",
            result.parent,
            saved_index=result.saved_index,
            paths=result.index_paths,
            before=before,
            index_after=result.index_after,
            op=op,
            asked=asked,
        )
        try:
            session.save()
        except OSError as exc:  # the commit and the index are right; the journal stays for the next run
            raise Unrecorded(
                f"{plan.id} is committed as {(result.sha or '')[:7]} and the index matches it", exc
            ) from exc

    try:
        selection = selection_for(session.units, plan)
        result = apply_selection(
            session.git,
            session.units.changeset,
            selection,
            plan.message,
            dry_run=dry_run,
            label=plan.id,
            record=record,
            operation=op.id,
            rewrite=_folding(session, plan),
        )
    except SegmintError as exc:
        if not dry_run and plan.status != APPLIED:
            plan.status, plan.error = FAILED, str(exc)
            session.record(actor, "failed", f"{actor} could not apply {plan.id}: {exc}")
        raise
    files = [FileCommitted(path=readable(f.path), added=f.added, removed=f.removed) for f in result.files]
    if dry_run:
        return ApplyOutcome(
            plan.id, ApplyStatus.DRY_RUN, files=files, message=f"{plan.id} would commit {counted(len(files), 'file')}"
        )
    sha = result.sha
    assert sha is not None, "a commit that is not a dry run has a sha"
    _forget_unreachable(session)
    session.log(actor, "applied", f"{actor} applied {plan.id} as {sha[:7]}: {plan.title}")
    chosen = set(selection.change_ids())
    touched = {p for c in session.units.changeset.changes if c.id in chosen for p in (c.file_path, c.old_path) if p}
    session.refresh(actor="segmint", committed=frozenset(plan.hunk_ids), paths=touched)
    if plan.absorb_into:
        return ApplyOutcome(
            plan.id,
            ApplyStatus.APPLIED,
            sha,
            files,
            f"{plan.id} folded into {plan.absorb_into[:7]}: HEAD is now {sha[:7]}",
        )
    return ApplyOutcome(plan.id, ApplyStatus.APPLIED, sha, files, f"{plan.id} committed as {sha[:7]}")


def _folding(session: SessionCore, plan: CommitPlan) -> Callable[[str], str] | None:
    """For an absorb plan, what makes the rewritten branch from the tree the fix gives HEAD (its
    target followed through the folds made since it was planned)."""
    if not plan.absorb_into:
        return None
    head = session.units.changeset.head or ""
    moves = [(a.parent, a.sha) for a in session.state.applied]
    target = followed(session.git, plan.absorb_into, moves)

    def rewrite(tree: str) -> str:
        return fold(session.git, head, unpushed(session.git, head), target, tree)

    return rewrite


def _forget_unreachable(session: SessionCore) -> None:
    """Keep no more operations to undo than the saved session does (``UNDO_KEPT``), and remove the
    copies of the index kept for the older ones: each is a copy of the whole index."""
    applied = session.state.applied
    dropped = applied[: len(applied) - len(saved_state.undo_reaches(applied))]
    del applied[: len(dropped)]
    for commit in dropped:
        forget_saved_index(session.git, commit.index_before)


def _refuse_if_out_of_date(session: SessionCore, plan: CommitPlan) -> None:
    """Refuse a plan that cannot be applied as it stands: out of date (what changed on disk, or in
    its groups: ``OutOfDateError``, which proposing again mends), or one to merge with another."""
    if plan.out_of_date:
        raise OutOfDateError(plan.out_of_date)
    if plan.merge_with:
        raise RefusedError(f"{plan.id} cannot be committed on its own. {merge_advice(plan)}")
    moved = disagreement(plan, session.groups, session.units)
    if moved:
        raise OutOfDateError(f"{plan.id} is out of date: {moved} since it was proposed; propose commits again")
    later = needed_later(session.units, session.git, session.plans, plan)
    if later:
        raise OutOfDateError(
            f"{plan.id} is out of date: it now needs {', '.join(later)}, ordered after it, "
            "since the files were read again; propose commits again"
        )


class BatchStopped(SegmintError):
    """Applying stopped after some commits were made: they are named, then the reason."""

    def __init__(self, made: list[ApplyOutcome], plan_id: str, reason: str) -> None:
        done = ", ".join(f"{o.commit_id} as {(o.sha or '')[:7]}" for o in made)
        super().__init__(f"Committed {done}; then {plan_id} stopped the batch: {reason}")
        self.made = made
        self.plan_id = plan_id
        self.reason = reason


def stopped(
    session: SessionCore, made: list[ApplyOutcome], plan_id: str, exc: SegmintError | OSError
) -> BatchStopped | None:
    """The ``BatchStopped`` for ``exc`` raised while applying ``plan_id`` after ``made``; None if
    nothing was committed. A plan committed before the error (recording it failed) counts as made;
    one applied before this apply was asked for does not."""
    committed = [o for o in made if o.status == APPLIED]
    reason = str(exc) if isinstance(exc, SegmintError) else os_trouble(exc)
    plan = next((p for p in session.plans if p.id == plan_id), None)
    if plan is not None and plan.status == APPLIED and plan.sha and not isinstance(exc, AlreadyApplied):
        committed.append(
            ApplyOutcome(plan_id, ApplyStatus.APPLIED, plan.sha, message=f"{plan_id} committed as {plan.sha[:7]}")
        )
        if not isinstance(exc, Unrecorded):
            reason += " (after committing it)"
    return BatchStopped(committed, plan_id, reason) if committed else None


def apply_all(session: SessionCore, *, actor: str = PERSON, approved_only: bool = False) -> list[ApplyOutcome]:
    """Every open plan (or the approved ones) in order. A failure after some commits raises
    ``BatchStopped``, naming the commits made; before any, the failure itself. When the batch commits
    every uncommitted line, what its own commits leave (``leftovers``) is planned again and committed
    too, in the same operation."""
    with session.committing:  # the whole batch: another apply cannot take a plan of it half-way
        with session.lock:
            wanted = [p for p in session.plans if p.status != APPLIED and (p.status == APPROVED or not approved_only)]
            for plan in wanted:  # before any commit, so none of the batch lands half-way
                _refuse_if_out_of_date(session, plan)
            before = _whole(session, wanted)
            # the batch is one operation: one undo takes it back
            session.batch_op = operation_start(session, actor, absorbs=any(p.absorb_into for p in wanted))
        made: list[ApplyOutcome] = []
        try:
            for turn in range(1 + LEFTOVER_ROUNDS):
                if turn:
                    waiting = any(o.status != ApplyStatus.APPLIED for o in made)
                    if waiting or before is None or not leftovers.left_by_batch(session.git, before):
                        break
                    propose_commits(session, actor=actor)
                    wanted = [p for p in session.plans if p.status != APPLIED]
                    if not wanted:
                        break
                try:
                    _apply_each(session, [p.id for p in wanted], made, actor)
                except BatchStopped as stop:
                    if turn == LEFTOVER_ROUNDS or before is None or not isinstance(stop.__cause__, OutOfDateError):
                        raise
                    if not leftovers.left_by_batch(session.git, before):
                        raise
        finally:
            session.batch_op = None
        return made


def _whole(session: SessionCore, wanted: list[CommitPlan]) -> leftovers.WorkTree | None:
    """The work tree as the batch begins, when the batch commits all of it (every open plan, and no
    group unplanned); None otherwise, when what is left stays uncommitted."""
    if not wanted or len(wanted) != len([p for p in session.plans if p.status != APPLIED]):
        return None
    if any(not left.nothing for left in unplanned(session)):
        return None
    return leftovers.snapshot(session.git)


def _apply_each(session: SessionCore, plan_ids: list[str], made: list[ApplyOutcome], actor: str) -> None:
    for plan_id in plan_ids:
        try:
            made.append(apply_commit(session, plan_id, dry_run=False, actor=actor))
        except (SegmintError, OSError) as exc:
            stop = stopped(session, made, plan_id, exc)
            if stop is None:
                raise
            raise stop from exc


def operation_start(session: SessionCore, actor: str, *, absorbs: bool = False) -> ledger.OpStart:
    """A new operation, begun now on the branch HEAD names."""
    stamp = session._clock().astimezone(timezone.utc).isoformat(timespec="seconds")
    return ledger.OpStart(
        ledger.next_op_id(session.state), actor, stamp, session.git.head_ref(), ABSORB_OP if absorbs else APPLY_OP
    )
