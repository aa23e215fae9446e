"""Group bookkeeping on the saved state and the current units: new groups,
tidying after a move, summaries rewritten for the hunks a group holds now.

These take the narrow things they change (the state, the units), so both the
session's core (a refresh) and its edits (a move, a merge) use them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from segmint_core.git import Git
from segmint_core.session.models import APPLIED, CommitPlan, Group, id_number
from segmint_core.session.planner import plan_parts
from segmint_core.session.state import SavedState
from segmint_core.session.units import Units
from segmint_core.wording import shown

if TYPE_CHECKING:
    from segmint_core.session.intents import RecordedTasks


def add_group(state: SavedState, units: Units, ids: list[str], summary: str, reasons: list[str]) -> Group:
    """A group holding ``ids`` (unit ids, or change ids of hunkless changes), numbered past every group."""
    # Past the emptied ones too: a move back to an emptied group's id finds it, not a newer group.
    number = 1 + max((id_number(g) for g in [*(g.id for g in state.groups), *state.emptied]), default=0)
    hunks = [i for i in ids if i in units.by_id]
    changes = {units.change_of(h).id for h in hunks} | {i for i in ids if i in units.change_by_id}
    group = Group(f"group-{number}", sorted(changes, key=id_number), hunks, summary, reasons, state.revision)
    state.groups.append(group)
    return group


EMPTIED_KEPT = 50


def tidy_groups(state: SavedState, units: Units) -> list[str]:
    """Recompute each group's change ids from its hunks; drop empty groups, remembering their ids
    (``reopen``). The ids of the groups dropped."""
    for group in state.groups:
        hunkless = {c for c in group.change_ids if not units.change_by_id[c].hunks}
        group.change_ids = sorted({units.change_of(h).id for h in group.hunk_ids} | hunkless, key=id_number)
    emptied = [g.id for g in state.groups if not (g.hunk_ids or g.change_ids)]
    state.groups = [g for g in state.groups if g.hunk_ids or g.change_ids]
    state.emptied = [*(e for e in state.emptied if e not in emptied), *emptied][-EMPTIED_KEPT:]
    return emptied


def emptied_group(state: SavedState, group_id: str | None) -> Group | None:
    """The group a move emptied, made again under its id (empty, and not yet among the groups:
    ``reopen`` puts it back), so a move back to it works; None if ``group_id`` names no such group."""
    if group_id not in state.emptied or any(g.id == group_id for g in state.groups):
        return None
    return Group(group_id, [], [], "", [], state.revision)


def emptied_note(ids: list[str]) -> str:
    """The end of a move's sentence naming the groups it emptied."""
    if not ids:
        return ""
    return f" ({', '.join(ids)} {'is' if len(ids) == 1 else 'are'} empty now; a move back to it makes it again)"


def reopen(state: SavedState, group: Group) -> None:
    """Put an ``emptied_group`` back among the groups, in its place by number."""
    if group in state.groups:
        return
    state.emptied.remove(group.id)
    place = next((n for n, g in enumerate(state.groups) if id_number(g.id) > id_number(group.id)), len(state.groups))
    state.groups.insert(place, group)


def refresh_summaries(state: SavedState, units: Units, git: Git, only: set[str] | None = None) -> None:
    """Rewrite the summaries not edited by hand (of the groups in ``only``, if given)."""
    from segmint_core.session.intents import recorded_tasks

    due = [g for g in state.groups if only is None or g.id in only]
    # the record is read only when a summary is due: a refresh after each save often touches no group
    recorded = recorded_tasks(units, git) if any(not g.edited for g in due) else None
    for group in due:
        if not group.edited:
            summary, reasons = summarize(units, group, recorded)
            group.summary, group.reasons = shown(summary), [shown(r) for r in reasons]
        group.revision = state.revision


def summarize(units: Units, group: Group, recorded: RecordedTasks | None = None) -> tuple[str, list[str]]:
    """A one-line summary and the reasons for a group's current hunks: the prompts that wrote them,
    where ``recorded``, as grouping says them; the offline evidence for what was not recorded."""
    from segmint_core.grouping import summarize_group  # grouping loads numpy: only when a summary is due
    from segmint_core.grouping.reasons import MAX_REASONS

    told = recorded.described(group.hunk_ids, group.change_ids) if recorded is not None else None
    if told is not None and told.summary is not None and not told.unrecorded:
        return told.summary, told.reasons
    summary, reasons = summarize_group(units.changes, group.hunk_ids, change_ids=group.change_ids)
    if told is None:
        return summary, reasons
    return told.summary or summary, told.reasons + reasons[: max(1, MAX_REASONS - len(told.reasons))]


def follow_groups(state: SavedState, units: Units) -> None:
    """Open plans whose groups no longer hold exactly their hunks are out of date, saying which
    group changed: a plan never commits a hunk the groups show elsewhere (call after every group edit)."""
    for plan in state.plans:
        if plan.status != APPLIED and not plan.stale:
            plan.stale = disagreement(plan, state.groups, units)


def disagreement(plan: CommitPlan, groups: list[Group], units: Units) -> str | None:
    """What differs between a plan and its groups, in a few words, or None."""
    by_id = {g.id: g for g in groups}
    gone = [gid for gid in plan.change_group_ids if gid not in by_id]
    if gone:
        return f"{', '.join(gone)} was merged into another group or emptied"
    parts = plan_parts(units, [by_id[gid] for gid in plan.change_group_ids])
    if set(plan.hunk_ids) != set(parts.hunk_ids) or set(plan.change_ids) != set(parts.change_ids):
        return f"{', '.join(plan.change_group_ids)} changed"
    return None


def renumber(kept: list[Group], fresh: list[Group]) -> list[Group]:
    """``kept`` then ``fresh``, the fresh ones numbered past the kept ones."""
    if not kept:
        return fresh
    start = 1 + max(id_number(g.id) for g in kept)
    for n, group in enumerate(fresh):
        group.id = f"group-{start + n}"
    return kept + fresh
