"""The pull-request draft as a session edit: drafted from the plans, edited by hand.

Each function is a session method (``session.Session`` binds it).
"""

from __future__ import annotations

from segmint_core.errors import RefusedError, SegmintError
from segmint_core.pr import DraftCommit, draft_pr
from segmint_core.session import events
from segmint_core.session.core import SessionCore
from segmint_core.session.models import APPLIED, PERSON, CommitPlan, PullRequestDraft
from segmint_core.session.planner import files_of_plans
from segmint_core.session.plans import propose_commits
from segmint_core.wording import readable, shown


def generate_pr(
    session: SessionCore, commit_ids: list[str] | None = None, *, replace: bool = False, actor: str = PERSON
) -> PullRequestDraft:
    """Draft the pull request anew; a draft someone edited is replaced only with ``replace``."""
    if commit_ids is not None:
        commit_ids = list(dict.fromkeys(commit_ids))
        if not commit_ids:
            raise SegmintError("Give at least one commit id, or none at all to describe every commit")
    with session.lock:
        if session.pr is not None and session.pr.edited and not replace:
            raise RefusedError(
                "The pull-request draft was edited since it was drafted; "
                "draft it again with replace to discard those edits"
            )
        if not session.plans and commit_ids is None and session.changes:
            propose_commits(session, actor=actor)
        plans = [session.plan(c) for c in commit_ids] if commit_ids is not None else list(session.plans)
        text = draft_pr(
            [DraftCommit(p.title, p.message, p.sha if p.status == APPLIED else None) for p in plans],
            files_of_plans(session.units, session.git, plans),
            session.settings,
            recorded_task_lines(session, plans),
        )
        commits = [CommitPlan.from_dict(p.to_dict()) for p in plans]  # a snapshot: plans change later
        draft = PullRequestDraft(shown(text.title), readable(text.description), commits, text.note)
        session.begin_edit()
        session.state.pr = draft
        session.record(actor, "drafted", f"{actor} drafted the pull request “{draft.title}”")
    session.announce(events.PR, actor, {"title": draft.title})
    return draft


def recorded_task_lines(session: SessionCore, plans: list) -> list[str]:
    """The tasks recorded for the plans' lines, as the pull request lists them: each task's ask,
    with how many follow-ups it took."""
    from segmint_core.session.intents import recorded_tasks

    recorded = recorded_tasks(session.units, session.git)
    if recorded is None:
        return []
    lines: list[str] = []
    for plan in plans:
        asked = recorded.asked([h for h in plan.hunk_ids if h in session.units.by_id], plan.change_ids)
        if asked is None or not asked.clause:
            continue
        more = (
            f" (and {len(asked.follow_ups)} follow-up{'s' if len(asked.follow_ups) != 1 else ''})"
            if asked.follow_ups
            else ""
        )
        line = asked.clause[:1].upper() + asked.clause[1:] + more
        if line not in lines:
            lines.append(line)
    return lines


def update_pr(
    session: SessionCore, *, title: str | None = None, description: str | None = None, actor: str = PERSON
) -> PullRequestDraft:
    with session.lock:
        draft = session.pr
        if draft is None:
            raise SegmintError("There is no pull-request draft yet: generate one first")
        if title is not None:
            if not title.strip() or "\n" in title.strip():
                raise SegmintError("A pull-request title must be one non-empty line")
            draft.title = shown(title.strip())
        if description is not None:
            draft.description = readable(description)
        draft.edited = True
        session.record(actor, "edited", f"{actor} edited the pull-request draft")
    session.announce(events.PR, actor, {"edited": True})
    return draft
