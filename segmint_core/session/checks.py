"""Commits checked on their own, as session methods (``session.Session`` binds them).

``check_commits`` runs the check over the open plans and keeps each plan's
result on it (``CommitPlan.check``); ``fix_commits`` applies the verified
fixes (``checking.fixes``) as one edit, which ``undo_move`` takes back whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from segmint_core.checking.command import CheckCommand
from segmint_core.checking.models import FAILED, CheckReport, PlanSpec, SessionView
from segmint_core.checking.runner import Progress, run_check
from segmint_core.errors import OutOfDateError, RefusedError, SegmintError
from segmint_core.session import events, moves
from segmint_core.session.applying import selection_for
from segmint_core.session.core import SessionCore
from segmint_core.session.editing import merge_groups, move_hunks
from segmint_core.session.models import APPLIED, PERSON
from segmint_core.session.plans import propose_commits, reorder_commits
from segmint_core.wording import counted

if TYPE_CHECKING:
    from segmint_core.checking.fixes import FixPlan


def check_commits(
    session: SessionCore,
    command: CheckCommand | None = None,
    *,
    actor: str = PERSON,
    progress: Progress | None = None,
    jobs: int | None = None,
    logged: bool = True,
) -> CheckReport:
    """Check every open plan on its own, in order; each plan keeps its result. Not ``logged``: kept
    without an entry in the activity log (a check made as part of another edit, proposing commits)."""
    with session.lock:
        specs = open_specs(session)
        view = session_view(session)
        revision = session.revision
        stale = next((p.out_of_date for p in session.plans if p.status != APPLIED and p.out_of_date), None)
    if not specs:
        raise RefusedError("No open commits to check: run `segmint plan` first")
    if stale:
        raise OutOfDateError(stale)
    report = run_check(view, command, specs, progress=progress, jobs=jobs)
    with session.lock:
        if session.revision == revision and not logged:
            _keep_results(session, report)
            session.save()
        elif session.revision == revision:  # the plans checked are the plans now
            _keep_results(session, report)
            failing = counted(len(report.failed), "commit")
            session.record(
                actor,
                "checked",
                f"{actor} checked {counted(len(specs), 'commit')}: "
                f"{failing + ' failing' if report.failed else 'none failing'}",
            )
    session.announce(events.PLANS, actor, {"checked": [r.commit_id for r in report.results]})
    return report


def open_specs(session: SessionCore) -> list[PlanSpec]:
    """The open plans, in order, as the commits a check builds."""
    return [PlanSpec.of(p) for p in session.plans if p.status != APPLIED]


def session_view(session: SessionCore) -> SessionView:
    """What a check reads of the session, as it is now (a refresh while the check runs changes none of it)."""
    units = session.units
    return SessionView(session.git, units.changeset, units.changes, lambda spec: selection_for(units, spec))


def _keep_results(session: SessionCore, report: CheckReport) -> None:
    by_id = {r.commit_id: r for r in report.results}
    for plan in session.plans:
        if plan.status != APPLIED and plan.id in by_id:
            plan.check = by_id[plan.id].to_dict()


def propose_fixes(session: SessionCore, report: CheckReport, command: CheckCommand | None = None) -> "FixPlan":
    """The verified fixes for the failing commits of ``report`` (nothing is changed)."""
    from segmint_core.checking.fixes import fix_plans  # reads grouping's units: loaded only when fixing

    with session.lock:
        specs = open_specs(session)
        view = session_view(session)
    if [s.id for s in specs] != [r.commit_id for r in report.results]:
        raise SegmintError("The commits changed since they were checked: check them again")
    return fix_plans(view, report, specs, command)


def fix_commits(session: SessionCore, fix: "FixPlan", *, actor: str = PERSON) -> list:
    """Apply ``fix`` as one edit (``undo_move`` takes it back whole); the open plans after it."""
    if not fix.steps:
        raise RefusedError("Nothing to fix: no fix was found that passes the check")
    with session.lock:
        before = moves.snapshot(session)
        kept_moves = list(session.state.moves)
        for spec in fix.specs:
            _gather(session, spec)
        propose_commits(session, actor=actor)
        order = _order(session, fix.specs)
        if order != [p.id for p in session.plans if p.status != APPLIED]:
            reorder_commits(session, order, actor=actor)
        for plan, result in zip([p for p in session.plans if p.status != APPLIED], fix.report.results):
            plan.check = {**result.to_dict(), "commit_id": plan.id}
        session.state.revision += 1
        text = f"{actor} fixed the commits that failed their check: {fix.sentence}"
        session.log(actor, "fixed", text)
        session.state.moves = kept_moves
        moves.remember(session, before, text)
        session.save()
    session.announce(events.PLANS, actor, {"fixed": [s.kind for s in fix.steps]})
    return [p for p in session.plans if p.status != APPLIED]


def _gather(session: SessionCore, spec: PlanSpec) -> None:
    """Make one group hold exactly the spec's lines: merge its groups, take in lines moved to it."""
    groups = [g for g in spec.group_ids if any(x.id == g for x in session.groups)]
    if len(groups) > 1:
        merge_groups(session, groups, actor="segmint")
    target = session.group(groups[0])
    missing = [h for h in spec.hunk_ids if h not in target.hunk_ids]
    if missing:
        move_hunks(session, missing, to_group_id=target.id, actor="segmint")


def _order(session: SessionCore, specs: list[PlanSpec]) -> list[str]:
    """The open plans' ids in the order of ``specs`` (matched by the groups they commit)."""
    open_plans = [p for p in session.plans if p.status != APPLIED]
    place: dict[str, int] = {}
    for n, spec in enumerate(specs):
        for group in spec.group_ids:
            place.setdefault(group, n)
    return [
        p.id
        for p in sorted(
            open_plans, key=lambda p: min((place.get(g, len(specs)) for g in p.change_group_ids), default=len(specs))
        )
    ]


__all__ = ["FAILED", "check_commits", "fix_commits", "propose_fixes"]
