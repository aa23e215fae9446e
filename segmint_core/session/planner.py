"""Turning groups into commit plans: messages, dependencies, order.

Everything here works on the current units and the repository they came from
(and the settings, for messages); it knows nothing of the session around them.
"""

from __future__ import annotations

from collections.abc import Sequence

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from segmint_core.apply.gitops import head_entries
from segmint_core.apply.lines import FileLines
from segmint_core.apply.states import (
    change_dependencies,
    changes_file,
    creation_needs,
    file_lines,
    leaves_as_is,
    line_counts,
    renamed_away,
    start_path,
)
from segmint_core.changes.models import Change
from segmint_core.config import Settings
from segmint_core.git import Git, read_blobs
from segmint_core.planning.order import cycles, order_plans
from segmint_core.session.models import (
    APPLIED,
    APPROVED,
    AWAITING_APPROVAL,
    MERGE_TO_COMMIT,
    PROPOSED,
    CommitPlan,
    Group,
    id_number,
)
from segmint_core.session.units import Units
from segmint_core.wording import readable, shown

if TYPE_CHECKING:
    from segmint_core.planning.style import HouseStyle


class Drafter:
    """Plans drafted for groups of the current units, then put in dependency order.

    A plan in ``previous`` (the open plans being replaced) for the same group
    and the same hunks, none changed since, lends the new one its id, its
    approval, and its message when approved. A message a person or agent
    edited is kept whatever the hunks. Any other message is written afresh,
    and a plan whose hunks differ gets a new id: an old id never names
    other changes. What every draft reads (the files' layers, their sections,
    the recorded tasks) is read once, so a group changed since its draft (two
    merged) is drafted again alone.
    """

    def __init__(
        self, units: Units, git: Git, settings: Settings, previous: Sequence[CommitPlan], style: HouseStyle
    ) -> None:
        from segmint_core.planning.enclosing import Sections  # (loads the message writer: only when planning)
        from segmint_core.planning.facts import tree_entries
        from segmint_core.session.intents import recorded_tasks  # (loads the grouping's rules: only when planning)

        self.units, self.settings, self.previous, self.style = units, settings, previous, style
        self.reused: dict[str, str] = {}  # group id -> the id of the plan it lends
        self.layered = layered_files(units, git)
        self.sections = Sections(units.changes, git)
        self.recorded = recorded_tasks(units, git)
        entries = tree_entries([(c, c.hunks) for c in units.changes])
        # A change's one entry titling the plan that holds all its code reads the change as one commit
        # (that plan and the entry's then say the same, and are merged): not when that is turned off.
        self.entries = entries if settings.prefer_one_commit else replace(entries, code_lines={})
        self.dependencies = change_dependencies(units.changeset.changes) if units.changeset.unchanged else {}

    def drafts(self, groups: list[Group]) -> dict[str, CommitPlan]:
        """Each group's plan by group id (none for a group that would commit nothing)."""
        return {group.id: plan for group in groups if (plan := self.draft(group)) is not None}

    def draft(self, group: Group) -> CommitPlan | None:
        from segmint_core.planning.writer import write_message

        units = self.units
        self.reused.pop(group.id, None)
        if changes_nothing(units, group):
            return None  # a file staged, then put back: a commit of it would change nothing
        parts = plan_parts(units, [group], self.dependencies)
        if not parts.hunk_ids and not parts.change_ids:
            return None
        hunkless = parts.change_ids
        plan = CommitPlan(
            id=group.id,
            title="",
            description="",
            change_group_ids=[group.id],
            hunk_ids=parts.hunk_ids,
            change_ids=hunkless,
            base=units.changeset.head,
        )
        before = _same_group(self.previous, group.id)
        same = before is not None and not before.out_of_date and _same_content(before, plan)
        if same and before is not None:
            self.reused[group.id] = before.id
            if before.status in (APPROVED, AWAITING_APPROVAL):
                plan.status = before.status
        if before is not None and (before.edited or plan.status != PROPOSED):
            plan.title, plan.description, plan.edited = before.title, before.description, before.edited
        else:
            counts = {**_net_counts(units, plan.hunk_ids, self.layered), **_whole_counts(units, hunkless)}
            message = write_message(
                self.sections.resolve(units.message_parts(plan.hunk_ids, hunkless)),
                self.settings,
                counts=counts,
                style=self.style,
                asked=self.recorded.asked(plan.hunk_ids, hunkless) if self.recorded else None,
                old_text=self.sections.old_text,
                entries=self.entries,
            )
            # Text from file content may hold a newline (a file name) or bytes that are not UTF-8.
            plan.title, plan.description = shown(message.title), readable(message.description)
            plan.note = readable(message.note) if message.note else None
        plan.note = " ".join(filter(None, [plan.note, parts_note(parts)])) or None
        return plan

    def _in_task_order(self, drafts: dict[str, CommitPlan]) -> list[str]:
        """The drafts' ids, the plans of recorded tasks in the order the tasks were asked (the work's
        own order: a later task may build on an earlier one's lines), then the rest as given."""
        if self.recorded is None:
            return list(drafts)
        number = {gid: self.recorded.task_number(p.hunk_ids, p.change_ids) for gid, p in drafts.items()}
        return sorted(drafts, key=lambda gid: (number[gid] is None, number[gid] or 0))

    def ordered(self, drafts: dict[str, CommitPlan], start: int) -> list[CommitPlan]:
        """The drafts in dependency order, numbered from ``start``; plans that need each other say so."""
        units, layered = self.units, self.layered
        idle = idle_plans(units, list(drafts.values()), layered)
        needs = plan_needs(units, list(drafts.values()), layered, idle)
        staged = [gid for gid, plan in drafts.items() if any(units.by_id[h].parent.staged for h in plan.hunk_ids)]
        ordered = [drafts[gid] for gid in order_plans(self._in_task_order(drafts), needs, staged)]
        stuck = set(cycles(list(drafts), needs))
        names = _names([p.id for p in ordered], self.reused, start)
        for plan in ordered:
            if plan.id in stuck:
                plan.merge_with = sorted((names[o] for o in needs.get(plan.id, ()) if o in stuck), key=id_number)
                plan.note = _stuck_note(plan.id, plan.merge_with, needs, stuck, idle)
            plan.id = names[plan.id]
        return ordered


def merge_advice(plan: CommitPlan) -> str:
    """Why a plan that must be merged (``merge_with``) cannot be committed alone, and what to do:
    its note, or (the note gone with an edited message) a sentence from the plans it needs."""
    if plan.note and plan.note.endswith(MERGE_TO_COMMIT):
        return plan.note
    return f"Depends on {', '.join(plan.merge_with)}, which cannot be committed without it: {MERGE_TO_COMMIT}"


def _stuck_note(plan_id: str, others: list[str], needs: dict[str, set[str]], stuck: set[str], idle: set[str]) -> str:
    merge = MERGE_TO_COMMIT
    if plan_id in idle and set(needs.get(plan_id, ())) & stuck <= idle:
        return f"Changes nothing on its own, nor does {', '.join(others)}, but together they do: {merge}"
    if plan_id in idle:
        return f"Depends on {', '.join(others)}, which needs its lines, though on its own it changes nothing: {merge}"
    if set(needs.get(plan_id, ())) & stuck <= idle:
        return f"Depends on {', '.join(others)}, which changes nothing on its own: {merge}"
    return f"Depends on {', '.join(others)} which depends on it back: {merge}"


def changes_nothing(units: Units, group: Group) -> bool:
    """Whether the group holds only files with no net change (``changes.unchanged``: staged and then
    put back as HEAD has them, say), all of each one: committing it would leave HEAD as it is."""
    ids = {units.change_of(h).id for h in group.hunk_ids} | set(group.change_ids)
    changes = [units.change_by_id[c] for c in ids if c in units.change_by_id]
    unchanged = units.changeset.unchanged
    if not changes or not all(c.file_path in unchanged for c in changes):
        return False
    held = set(group.hunk_ids)
    return all(h.id in held for c in changes for h in c.hunks)


@dataclass
class PlanParts:
    """What a plan of some groups commits (its hunks, and changes without hunks), and the files of
    the groups it leaves as they are in the index."""

    hunk_ids: list[str]
    change_ids: list[str]
    left: list[str] = field(default_factory=list)  # paths: no net change, and no file of the plan needs them gone
    taken: list[str] = field(default_factory=list)  # paths: no net change, taken out for a file of the plan


def plan_parts(units: Units, groups: list[Group], needs: dict[str, set[str]] | None = None) -> PlanParts:
    """The groups' hunks and hunkless changes, but those of files with no net change held whole: a plan
    leaves them staged as they are, for a commit of them changes nothing, unless a file of the plan needs
    their path (a file where their folder was) and takes them out of the index with it. ``needs``:
    ``change_dependencies``, worked out when not given."""
    hunks = [h for g in groups for h in g.hunk_ids]
    hunkless = [c for g in groups for c in g.change_ids if c in units.change_by_id and not units.change_by_id[c].hunks]
    unchanged = units.changeset.unchanged
    if not unchanged:
        return PlanParts(hunks, hunkless, [])
    owner = {h: unit.change.id for h in hunks if (unit := units.by_id.get(h)) is not None}
    ids = set(owner.values()) | set(hunkless)
    held = set(owner)
    idle = {
        c
        for c in ids
        if units.change_by_id[c].file_path in unchanged  # all of it: part of it changes HEAD
        and all(h.id in held for h in units.change_by_id[c].hunks)
    }
    if not idle:
        return PlanParts(hunks, hunkless, [])
    needs = change_dependencies(units.changeset.changes) if needs is None else needs
    left = idle - {n for c in ids - idle for n in needs.get(c, ())}
    path = lambda c: units.change_by_id[c].file_path  # noqa: E731
    return PlanParts(
        [h for h in hunks if owner.get(h) not in left],
        [c for c in hunkless if c not in left],
        sorted(map(path, left)),
        sorted(map(path, idle - left)),
    )


def parts_note(parts: PlanParts) -> str | None:
    """What a plan does to the files of its groups with no net change, in a sentence or two."""
    said = []
    if parts.left:
        said.append(
            f"Leaves {_listed(parts.left)} staged as {_it(parts.left)} in the index: no net change "
            "against HEAD (staged, then put back or deleted), so a commit of it changes nothing."
        )
    if parts.taken:
        said.append(
            f"Takes {_listed(parts.taken)} out of the index (no net change against HEAD): a file of this "
            "commit goes where its folder was."
        )
    return " ".join(said) or None


def _listed(paths: list[str]) -> str:
    return ", ".join(shown(p) for p in paths)


def _it(paths: list[str]) -> str:
    return "it is" if len(paths) == 1 else "they are"


def needed_elsewhere(units: Units, groups: list[Group]) -> list[tuple[str, Group, Group]]:
    """Changes with no net change that a file of another group needs out of the index (a file where
    their folder was): (change id, its group, the needing file's group). The two commit together."""
    unchanged = units.changeset.unchanged
    if not unchanged:
        return []
    owner: dict[str, Group] = {}
    for group in groups:
        for h in group.hunk_ids:
            if h in units.by_id:
                owner.setdefault(units.change_of(h).id, group)
        for c in group.change_ids:
            owner.setdefault(c, group)
    found = []
    for needer, needed in change_dependencies(units.changeset.changes).items():
        for cid in sorted(needed, key=id_number):
            change = units.change_by_id.get(cid)
            here, there = owner.get(cid), owner.get(needer)
            if (
                change is not None
                and change.file_path in unchanged
                and here is not None
                and there is not None
                and here is not there
                and units.change_by_id[needer].file_path not in unchanged
            ):
                found.append((cid, here, there))
    return found


def _same_group(plans: Sequence[CommitPlan], group_id: str) -> CommitPlan | None:
    return next((p for p in plans if p.change_group_ids == [group_id]), None)


def _same_content(a: CommitPlan, b: CommitPlan) -> bool:
    return sorted(a.hunk_ids) == sorted(b.hunk_ids) and sorted(a.change_ids) == sorted(b.change_ids)


def _names(group_ids: list[str], reused: dict[str, str], start: int) -> dict[str, str]:
    """Plan ids: a reused one stays, new ones count on from ``start`` past every id in use."""
    taken = {id_number(reused[gid]) for gid in group_ids if gid in reused}
    names: dict[str, str] = {}
    number = start
    for gid in group_ids:
        if gid in reused:
            names[gid] = reused[gid]
            continue
        while number in taken:
            number += 1
        names[gid] = f"commit-{number}"
        taken.add(number)
    return names


def plan_needs(
    units: Units, plans: list[CommitPlan], layered: dict[str, FileLines], idle: set[str] | None = None
) -> dict[str, set[str]]:
    """plan id -> plan ids it needs first: its unstaged lines edit their staged lines.

    A plan in ``idle`` (``idle_plans``; worked out when not given) makes no commit, so a plan that
    needs it never finds its lines committed: each needs the other, and the two must be merged."""
    owner = {unit_id: plan.id for plan in plans for unit_id in plan.hunk_ids}
    ref_owner = {ref: owner[u.id] for u in units.by_id.values() if u.id in owner for ref in u.refs}
    needs: dict[str, set[str]] = {}
    change_owner: dict[str, set[str]] = {}
    for plan in plans:
        for unit_id in plan.hunk_ids:
            change_owner.setdefault(units.change_of(unit_id).id, set()).add(plan.id)
        for cid in plan.change_ids:
            change_owner.setdefault(cid, set()).add(plan.id)
    for needer, needed in change_dependencies(units.changeset.changes).items():
        for a in change_owner.get(needer, ()):
            for other in needed:
                needs.setdefault(a, set()).update(change_owner.get(other, set()) - {a})
    # By line: the parts of one hunk may be in different plans (lines moved one by one).
    for model in layered.values():
        for line, lines_needed in model.line_dependencies().items():
            for other_line in lines_needed:
                needer_id, needed_id = ref_owner.get(line), ref_owner.get(other_line)
                if needer_id and needed_id and needer_id != needed_id:
                    needs.setdefault(needer_id, set()).add(needed_id)
    # A line added to a file another layer creates: the file is there only with a creating line.
    raw = units.changeset.by_id
    for cid in layered:
        created, added, first = creation_needs(raw[cid])
        holders = {ref_owner[r] for r in created if r in ref_owner}
        creator = ref_owner.get(first) if first is not None else None
        for ref in added:
            needer_id = ref_owner.get(ref)
            if needer_id and creator and needer_id not in holders:
                needs.setdefault(needer_id, set()).add(creator)
    idle = idle if idle is not None else idle_plans(units, plans, layered)
    for a, others in _idle_together(units, plans, layered, idle).items():
        needs.setdefault(a, set()).update(others)
    for plan_id in idle:
        needers = [a for a, needed in needs.items() if plan_id in needed]
        if needers:
            needs.setdefault(plan_id, set()).update(needers)
    return needs


def idle_plans(units: Units, plans: list[CommitPlan], layered: dict[str, FileLines]) -> set[str]:
    """Plans of lines only, all in layered files, that leave every file as HEAD has it (a file
    deleted in the index and made again with its old lines, say): alone they make no commit."""
    raw = units.changeset.by_id
    idle: set[str] = set()
    for plan in plans:
        refs = _layered_refs(units, plan, layered)
        if refs and not plan.change_ids and all(leaves_as_is(raw[c], layered[c], r) for c, r in refs.items()):
            idle.add(plan.id)
    return idle


def _layered_refs(units: Units, plan: CommitPlan, layered: dict[str, FileLines]) -> dict[str, set] | None:
    """change id -> the plan's lines in it, when all its lines are in layered files; else None."""
    refs: dict[str, set] = {}
    for unit_id in plan.hunk_ids:
        unit = units.by_id.get(unit_id)
        if unit is None or unit.change.id not in layered:
            return None
        refs.setdefault(unit.change.id, set()).update(unit.refs)
    return refs


def _idle_together(
    units: Units, plans: list[CommitPlan], layered: dict[str, FileLines], idle: set[str]
) -> dict[str, set[str]]:
    """Idle plans that change a file together (the lines of a deletion split among them: only all
    of them take the file away) need each other, as neither ever commits alone."""
    raw = units.changeset.by_id
    held: dict[str, dict[str, set]] = {}  # change id -> idle plan id -> its lines there
    for plan in plans:
        if plan.id in idle:
            for cid, refs in (_layered_refs(units, plan, layered) or {}).items():
                held.setdefault(cid, {})[plan.id] = refs
    needs: dict[str, set[str]] = {}
    for cid, by_plan in held.items():
        if len(by_plan) > 1 and changes_file(raw[cid], layered[cid], set().union(*by_plan.values())):
            for a in by_plan:
                needs.setdefault(a, set()).update(set(by_plan) - {a})
    return needs


def needed_later(units: Units, git: Git, plans: list[CommitPlan], plan: CommitPlan) -> list[str]:
    """Open plans after ``plan`` in ``plans`` that it needs first, by the lines as read now (the
    rule the commit applies), leaving out those that need it back (their note says to merge).

    After a commit the files are read again, and git may pair an unstaged edit of one of several
    identical staged lines with another of them: one a plan later in the order holds."""
    open_plans = [p for p in plans if p.status != APPLIED]
    ids = [p.id for p in open_plans]
    later = set(ids[ids.index(plan.id) + 1 :]) if plan.id in ids else set()
    if not later:
        return []
    needs = plan_needs(units, open_plans, layered_files(units, git))
    stuck = set(cycles(ids, needs))
    return sorted(o for o in needs.get(plan.id, set()) & later if not (plan.id in stuck and o in stuck))


def layered_files(units: Units, git: Git) -> dict[str, FileLines]:
    """change id -> its line model, for the changes whose layers depend on each other:
    staged and unstaged edits of one file, or a type change."""
    both = [
        c
        for c in units.changeset.changes
        if (c.staged_patch and c.unstaged_patch or _typechange(c)) and c.file_path not in units.changeset.generated
    ]  # a generated file goes whole
    if not both:
        return {}
    away = renamed_away(units.changeset.changes)
    starts = [start_path(c, away) for c in both]  # as the commit reads them
    entries = head_entries(git, units.changeset.head, sorted({p for p in starts if p}))
    contents = read_blobs(git, [entries[p][1] for p in starts if p in entries])
    models = {}
    for change, start in zip(both, starts):
        oid = entries.get(start or "", (None, None))[1]
        models[change.id] = file_lines(change, contents.get(oid, b"") if oid else b"")
    return models


def _net_counts(units: Units, hunk_ids: list[str], layered: dict[str, FileLines]) -> dict[str, tuple[int, int]]:
    """file path -> lines the hunks add and remove against HEAD, for the layered files among them
    (a line staged, then edited again, counts once, as in the commit)."""
    refs: dict[str, set] = {}
    for hunk_id in hunk_ids:
        unit = units.by_id[hunk_id]
        if unit.change.id in layered:
            refs.setdefault(unit.change.id, set()).update(unit.refs)
    return {units.change_by_id[cid].file_path: layered[cid].net_counts(chosen) for cid, chosen in refs.items()}


def _whole_counts(units: Units, change_ids: list[str]) -> dict[str, tuple[int, int]]:
    """file path -> lines added and removed, for the generated files among ``change_ids`` (kept whole:
    their message counts their lines, never reads them)."""
    raw = units.changeset.by_id
    return {
        raw[c].file_path: line_counts(raw[c])
        for c in change_ids
        if c in raw and raw[c].file_path in units.changeset.generated
    }


def _typechange(change: Change) -> bool:
    """A file replaced by a symlink or the reverse: its new side needs the old one's removal."""
    return any(fp is not None and fp.typechange for fp in (change.staged_patch, change.unstaged_patch))
