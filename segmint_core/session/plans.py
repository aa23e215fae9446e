"""Editing the commit plans: proposing them from the groups, messages, order, approvals.

Each function is a session method (``session.Session`` binds it).
"""

from __future__ import annotations

from dataclasses import dataclass

from segmint_core.errors import SegmintError, UnknownIdError
from segmint_core.planning.conventional import parse_subject
from segmint_core.session import events
from segmint_core.session.core import SessionCore
from segmint_core.session.editing import ensure_groups
from segmint_core.session.models import AGENT, APPLIED, APPROVED, AWAITING_APPROVAL, PERSON, CommitPlan, id_number
from segmint_core.session.groups import follow_groups, refresh_summaries, tidy_groups
from segmint_core.session.planner import Drafter, changes_nothing, needed_elsewhere
from segmint_core.wording import counted, readable, shown


def propose_commits(
    session: SessionCore, group_ids: list[str] | None = None, *, actor: str = PERSON, merge_alike: bool = True
) -> list[CommitPlan]:
    """One plan per group (all, or ``group_ids``), in dependency order. ``merge_alike``: groups Segmint
    made whose commits would say the same are merged first (``same_titles``)."""
    if group_ids is not None and not group_ids:
        raise SegmintError("Give at least one group id, or none at all to plan every group")
    with session.lock:
        ensure_groups(session, actor=actor)
        joined = join_needed(session)
        merged: list[tuple[list[str], str]] = []
        groups = [session.group(g) for g in group_ids] if group_ids is not None else list(session.groups)
        plans = session.plans
        applied = [p for p in plans if p.status == APPLIED]
        open_plans = [p for p in plans if p.status != APPLIED]
        kept_ids = {p.id for p in open_plans if group_ids is not None and not set(p.change_group_ids) & set(group_ids)}
        replaced = [p for p in open_plans if p.id not in kept_ids]
        start = 1 + max((id_number(p.id) for p in plans), default=0)  # a replaced id never names another commit
        drafter = Drafter(session.units, session.git, session.settings, replaced, session.message_style())
        drafts = drafter.drafts(groups)
        while merge_alike and (alike := same_titles(session, list(drafts.values()))):
            for titled_alike in alike:
                ids, into = join_alike(session, titled_alike)
                merged.append((ids, into))
                drafts = {gid: plan for gid, plan in drafts.items() if gid not in ids[1:]}
                redrafted = drafter.draft(session.group(into))  # the merged group alone, in its place
                if redrafted is None:
                    del drafts[into]
                else:
                    drafts[into] = redrafted
        fresh = drafter.ordered(drafts, start)
        session.begin_edit()
        session.state.revision += 1
        for plan in fresh:
            plan.revision = session.revision
        # Some groups proposed again keep their places; all of them, the dependency order afresh.
        session.state.plans = applied + (in_place(open_plans, kept_ids, fresh) if group_ids is not None else fresh)
        session.log(actor, "planned", f"{actor} proposed {counted(len(fresh), 'commit')}")
        session.save()
    if joined:
        session.announce(events.GROUPS, "segmint", {"moved": joined})
    for ids, into in merged:
        session.announce(events.GROUPS, "segmint", {"merged": ids, "into": into})
    session.announce(events.PLANS, actor, {"plans": [p.id for p in fresh]})
    return fresh


def join_needed(session: SessionCore) -> list[str]:
    """Move each change with no net change that a file of another group needs out of the index (a
    file where its folder was) into that file's group: neither commits without the other. The ids moved."""
    state, units = session.state, session.units
    found = needed_elsewhere(units, state.groups)
    if not found:
        return []
    session.begin_edit()
    for cid, here, there in found:
        hunks = [h for h in here.hunk_ids if units.change_of(h).id == cid]
        here.hunk_ids = [h for h in here.hunk_ids if h not in hunks]
        here.change_ids = [c for c in here.change_ids if c != cid]
        there.hunk_ids = units.in_order(there.hunk_ids + hunks)
        there.change_ids = sorted(set(there.change_ids) | {cid}, key=id_number)
        path = shown(units.change_by_id[cid].file_path)
        session.log(
            "segmint",
            "moved",
            f"segmint moved {path} from {here.id} to {there.id}: a file there "
            "takes its path, so it leaves the index with that commit",
        )
    tidy_groups(state, units)
    follow_groups(state, units)
    state.revision += 1
    refresh_summaries(state, units, session.git)
    return [cid for cid, _, _ in found]


def same_titles(session: SessionCore, fresh: list[CommitPlan]) -> list[list[CommitPlan]]:
    """Plans of groups Segmint made that got one title (its words, whatever the Conventional type):
    two commits never say the same thing, so their groups are one intent. A group someone named, or
    whose lines someone moved, is theirs and left as it is."""
    settled = set(session.state.settled)
    by_title: dict[str, list[CommitPlan]] = {}
    for plan in fresh:
        (gid,) = plan.change_group_ids
        group = session.group(gid)
        if plan.edited or group.edited or settled & {*group.hunk_ids, *group.change_ids}:
            continue
        by_title.setdefault(parse_subject(plan.title).text.casefold(), []).append(plan)
    return [plans for plans in by_title.values() if len(plans) > 1]


def join_alike(session: SessionCore, plans: list[CommitPlan]) -> tuple[list[str], str]:
    """Merge the groups of ``plans`` into the first: the group ids merged, and the one kept."""
    state, units = session.state, session.units
    session.begin_edit()
    keep, *rest = [session.group(p.change_group_ids[0]) for p in plans]
    for other in rest:
        keep.hunk_ids = units.in_order(keep.hunk_ids + other.hunk_ids)
        keep.change_ids = sorted(set(keep.change_ids) | set(other.change_ids), key=id_number)
    state.groups = [g for g in state.groups if g not in rest]
    follow_groups(state, units)
    state.revision += 1
    refresh_summaries(state, units, session.git, only={keep.id})
    group_ids = [keep.id, *(g.id for g in rest)]
    said = f"their commits said “{plans[0].title}”"
    session.log("segmint", "merged", f"segmint merged {', '.join(group_ids)} into {keep.id}: {said}")
    return group_ids, keep.id


def in_place(open_plans: list[CommitPlan], kept_ids: set[str], fresh: list[CommitPlan]) -> list[CommitPlan]:
    """The open plans with each one proposed again where it was, so re-proposing some groups keeps the
    order of the list; a group that had no plan gets its plan last."""
    placed, pending = [], list(fresh)
    for plan in open_plans:
        if plan.id in kept_ids:
            placed.append(plan)
            continue
        now = [p for p in pending if set(p.change_group_ids) & set(plan.change_group_ids)]
        placed += now
        pending = [p for p in pending if p not in now]
    return placed + pending


@dataclass
class Unplanned:
    """A group no open plan commits, and why."""

    group_id: str
    paths: list[str]
    units: int  # hunks, and changes without hunks
    nothing: bool  # only files staged and then put back: there is nothing to commit

    @property
    def sentence(self) -> str:
        files = ", ".join(self.paths)
        if self.nothing:
            return (
                f"{self.group_id} ({files}) has nothing to commit: staged, then put back as HEAD has it "
                f"in the work tree, or deleted (`git restore --staged -- {' '.join(self.paths)}` unstages it)"
            )
        return (
            f"{self.group_id} ({counted(self.units, 'change')} in {files}) is not planned, so its lines stay "
            "uncommitted in the work tree"
        )


def unplanned(session: SessionCore) -> list[Unplanned]:
    """The groups no open plan commits: grouped after the last proposal, or with nothing to commit."""
    with session.lock:
        planned = {g for p in session.plans if p.status != APPLIED for g in p.change_group_ids}
        units = session.units
        out = []
        for group in session.groups:
            if group.id in planned:
                continue
            ids = {units.change_of(h).id for h in group.hunk_ids} | set(group.change_ids)
            paths = sorted(shown(units.change_by_id[c].file_path) for c in ids if c in units.change_by_id)
            hunkless = [c for c in group.change_ids if c in units.change_by_id and not units.change_by_id[c].hunks]
            out.append(Unplanned(group.id, paths, len(group.hunk_ids) + len(hunkless), changes_nothing(units, group)))
        return out


def update_commit(
    session: SessionCore,
    commit_id: str,
    *,
    title: str | None = None,
    description: str | None = None,
    actor: str = PERSON,
) -> CommitPlan:
    if title is None and description is None:
        raise SegmintError("Give a new title, a new description, or both")
    if description is not None and "\0" in description:
        raise SegmintError("A commit description cannot hold a NUL byte: git cannot store one in a commit message")
    with session.lock:
        session.begin_edit()
        plan = session.plan(commit_id)
        if plan.status == APPLIED:
            raise SegmintError(
                f"{commit_id} is already applied as {plan.sha[:7] if plan.sha else '?'}; undo it to edit"
            )
        if title is not None:
            title = title.strip()
            if not title or "\n" in title:
                raise SegmintError("A commit title must be one non-empty line")
            plan.title = shown(title)
        if description is not None:
            plan.description = readable(description.strip("\n"))
        plan.note = None
        plan.edited = True
        text = f"{actor} edited the message of {commit_id}"
        if actor == AGENT and plan.status == APPROVED:  # the person approved the message they read
            plan.status = AWAITING_APPROVAL
            text += ": it waits for approval again"
        plan.revision = session.record(actor, "edited", text)
    session.announce(events.PLANS, actor, {"edited": commit_id})
    return plan


def reorder_commits(session: SessionCore, commit_ids: list[str], *, actor: str = PERSON) -> list[CommitPlan]:
    with session.lock:
        session.begin_edit()
        open_plans = [p for p in session.plans if p.status != APPLIED]
        by_id = {p.id: p for p in open_plans}
        unknown = [c for c in commit_ids if c not in by_id]
        if unknown:
            raise UnknownIdError("open commit", unknown, list(by_id))
        if sorted(commit_ids) != sorted(by_id) or len(set(commit_ids)) != len(commit_ids):
            raise SegmintError(f"Give every open commit exactly once: {', '.join(p.id for p in open_plans)}")
        applied = [p for p in session.plans if p.status == APPLIED]
        if [p.id for p in open_plans] != commit_ids:
            for plan in open_plans:
                plan.check = None  # each commit now holds other lines: its last check says nothing of it
        session.state.plans = applied + [by_id[c] for c in commit_ids]
        session.record(actor, "reordered", f"{actor} reordered the commits: {', '.join(commit_ids)}")
    session.announce(events.PLANS, actor, {"order": commit_ids})
    return session.plans


def approve(session: SessionCore, commit_ids: list[str], *, actor: str = PERSON) -> list[CommitPlan]:
    with session.lock:
        plans = [session.plan(c) for c in commit_ids]
        for plan in plans:
            if plan.status == APPLIED:
                raise SegmintError(f"{plan.id} is already applied")
            plan.status = APPROVED
        session.record(actor, "approved", f"{actor} approved {', '.join(commit_ids)}")
    session.announce(events.PLANS, actor, {"approved": commit_ids})
    return plans
