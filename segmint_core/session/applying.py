"""Applying plans and undoing them, as session methods (``session.Session`` binds them).

An agent's apply waits for the person's approval when a person is present
(the TUI) unless the app allows agent commits. After a commit, the session
re-reads the repository: the committed hunks are gone, the rest keep their
groups and plans under their new ids.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from typing import Any

from segmint_core.apply.commit import ApplyResult, Selection, apply_selection
from segmint_core.apply.gitops import index_lock, update_index
from segmint_core.apply.states import FileState
from segmint_core.changes import capture
from segmint_core.errors import RefusedError, SegmintError
from segmint_core.session import events
from segmint_core.session.core import SessionCore
from segmint_core.session.models import (
    AGENT, APPLIED, APPROVED, PERSON, AWAITING_APPROVAL, FAILED, AppliedCommit, CommitPlan, Group,
)
from segmint_core.session.state import write_units
from segmint_core.session.units import Units
from segmint_core.wording import counted


@dataclass
class ApplyOutcome:
    commit_id: str
    status: str                 # applied | awaiting_approval | dry_run
    sha: str | None = None
    files: list[dict[str, Any]] = field(default_factory=list)
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"commit_id": self.commit_id, "status": self.status, "sha": self.sha, "files": self.files,
                "message": self.message}


def selection_for(session: SessionCore, plan: CommitPlan) -> Selection:
    selection = Selection()
    for unit in session.units.resolve(plan.hunk_ids):
        change = unit.change
        if change.binary or "160000" in (change.old_mode, change.new_mode):
            selection.whole.add(change.id)
        else:
            selection.refs.setdefault(change.id, set()).update(unit.refs)
    for change in session.units.resolve_changes(plan.change_ids):
        if change.hunks:
            raise SegmintError(f"{plan.id} names {change.id} as a whole change, but it has hunks: name its hunks")
        selection.whole.add(change.id)
    return selection


def apply_commit(session: SessionCore, commit_id: str, *, dry_run: bool = False, actor: str = PERSON) -> ApplyOutcome:
    with session.lock:
        plan = session.plan(commit_id)
        if plan.status == APPLIED:
            raise SegmintError(f"{commit_id} is already applied as {(plan.sha or '')[:7]}")
        if plan.out_of_date:
            raise RefusedError(plan.out_of_date)
        present = session.presence()
        if actor == AGENT and not dry_run and present.person_present and not present.agent_can_commit \
                and plan.status != APPROVED:
            plan.status = AWAITING_APPROVAL
            session.record(actor, "requested", f"{actor} asked to apply {commit_id}: waiting for approval")
            outcome = ApplyOutcome(commit_id, AWAITING_APPROVAL, message=f"{commit_id} is waiting for the person's approval")
        else:
            outcome = _apply(session, plan, dry_run=dry_run, actor=actor)
    session.announce(events.PLANS, actor, outcome.to_dict())
    if outcome.status == APPLIED:
        session.announce(events.CHANGES, actor, session.last_refresh.to_dict())
    return outcome


def _apply(session: SessionCore, plan: CommitPlan, *, dry_run: bool, actor: str) -> ApplyOutcome:
    state_before = {
        "groups": [g.to_dict() for g in session.groups],
        "plans": [p.to_dict() for p in session.plans],
        "splits": dict(session.units.splits),
    }
    try:
        result = apply_selection(session.git, session.units.changeset, selection_for(session, plan),
                                 plan.message, dry_run=dry_run)
    except SegmintError as exc:
        if not dry_run:
            plan.status, plan.error = FAILED, str(exc)
            session.record(actor, "failed", f"{actor} could not apply {plan.id}: {exc}")
        raise
    files = [{"path": f.path, "added": f.added, "removed": f.removed} for f in result.files]
    if dry_run:
        return ApplyOutcome(plan.id, "dry_run", files=files, message=f"{plan.id} would commit {counted(len(files), 'file')}")
    _record(session, plan, result, state_before)
    session.log(actor, "applied", f"{actor} applied {plan.id} as {result.sha[:7]}: {plan.title}")
    session.refresh(actor="segmint", committed=frozenset(plan.hunk_ids))
    return ApplyOutcome(plan.id, APPLIED, result.sha, files, f"{plan.id} committed as {result.sha[:7]}")


def _record(session: SessionCore, plan: CommitPlan, result: ApplyResult, state_before: dict[str, Any]) -> None:
    plan.status, plan.sha, plan.error = APPLIED, result.sha, None
    session.state.applied.append(AppliedCommit(
        sha=result.sha or "", parent=result.parent, plan_id=plan.id,
        index_before=result.saved_index or "", paths=result.index_paths, state_before=state_before,
    ))
    session.state.revision += 1
    session.save()


def apply_all(session: SessionCore, *, actor: str = PERSON, approved_only: bool = False) -> list[ApplyOutcome]:
    wanted = [p for p in session.plans if p.status != APPLIED and (p.status == APPROVED or not approved_only)]
    stale = [p.out_of_date for p in wanted if p.out_of_date]
    if stale:   # before any commit, so none of the batch lands half-way
        raise RefusedError(stale[0])
    return [apply_commit(session, plan_id, dry_run=False, actor=actor) for plan_id in [p.id for p in wanted]]


@dataclass
class UndoOutcome:
    sha: str
    commit_id: str
    head: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"undone": self.sha, "commit_id": self.commit_id, "head": self.head}


def undo(session: SessionCore, *, actor: str = PERSON) -> UndoOutcome:
    with session.lock:
        if not session.applied:
            raise RefusedError("Nothing to undo: Segmint has made no commit in this session")
        last = session.applied[-1]
        head = session.git.head()
        if head != last.sha:
            raise RefusedError(
                f"HEAD is {head[:7] if head else 'unborn'}, not Segmint's last commit {last.sha[:7]}; nothing was undone"
            )
        busy = session.git.operation_in_progress()
        if busy:
            raise RefusedError(f"Cannot undo while {busy} is in progress")
        with index_lock(session.git) as index_path:
            _restore_index_entries(session, str(index_path), last)
            if last.parent:
                session.git.run("update-ref", "-m", "segmint: undo", "HEAD", last.parent, last.sha)
            else:
                session.git.run("update-ref", "-d", "HEAD", last.sha)
        _restore_state(session, last)
        session.state.applied.pop()
        session.log(actor, "undid", f"{actor} undid {last.plan_id} ({last.sha[:7]})")
        session.save()
        outcome = UndoOutcome(last.sha, last.plan_id, last.parent)
    session.announce(events.CHANGES, actor, outcome.to_dict())
    session.announce(events.PLANS, actor, outcome.to_dict())
    return outcome


def _restore_index_entries(session: SessionCore, index_path: str, last: AppliedCommit) -> None:
    """Put back the index entries the apply rewrote, as they were before it."""
    if not last.paths:
        return
    saved = last.index_before
    before: dict[str, tuple[str, str]] = {}
    if saved and os.path.exists(saved):
        out = session.git.run("ls-files", "-s", "-z", "--", *last.paths, env={"GIT_INDEX_FILE": saved}).stdout
        for row in out.split(b"\0"):
            if row:
                meta, path = row.split(b"\t", 1)
                mode, oid, _stage = meta.decode().split()
                before[path.decode("utf-8", "surrogateescape")] = (mode, oid)
    entries = []
    for path in last.paths:
        if path in before:
            mode, oid = before[path]
            entries.append((FileState(path, mode, None, oid=oid), oid))
        else:
            entries.append((FileState(path, None, None), None))
    scratch = index_path + ".segmint-undo"
    shutil.copy2(index_path, scratch)  # keep the mtime: see apply.commit._write_index
    try:
        update_index(session.git, scratch, entries)
        os.replace(scratch, index_path)
    finally:
        if os.path.exists(scratch):
            os.unlink(scratch)


def _restore_state(session: SessionCore, last: AppliedCommit) -> None:
    """Groups and plans as they were before the commit, on a fresh capture
    (which, with HEAD and the index put back, has the same hunk ids)."""
    fresh = capture(session.git)
    session.units = Units(fresh, last.state_before.get("splits", {}))
    known = set(session.units.by_id) | set(session.units.change_by_id)
    state = session.state
    state.splits = dict(session.units.splits)
    state.fingerprint, state.head = fresh.fingerprint, fresh.head
    state.revision += 1
    state.changes_revision = state.revision
    state.groups = [Group.from_dict(g) for g in last.state_before["groups"]]
    state.plans = [CommitPlan.from_dict(p) for p in last.state_before["plans"]]
    open_plans = [p for p in state.plans if p.status != APPLIED]   # applied ones name what they committed
    for item in (*state.groups, *open_plans):
        item.hunk_ids = [h for h in item.hunk_ids if h in known]
        item.change_ids = [c for c in item.change_ids if c in known]
    for item in (*state.groups, *state.plans):
        item.revision = state.revision
    write_units(session.folder, session.units)
