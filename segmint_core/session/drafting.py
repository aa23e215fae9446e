"""The pull-request draft as a session edit: drafted from the plans, edited by hand.

Each function is a session method (``session.Session`` binds it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from segmint_core.changes.models import Hunk
from segmint_core.changes.parser import parse_diff
from segmint_core.errors import RefusedError, SegmintError
from segmint_core.git import Git
from segmint_core.planning.cases import Case, cases
from segmint_core.rewrite.stack import followed, made, unpushed
from segmint_core.session import events
from segmint_core.session.core import SessionCore
from segmint_core.session.models import APPLIED, PERSON, AskedFor, CommitPlan, PullRequestDraft
from segmint_core.session.plans import propose_commits
from segmint_core.wording import readable, shown

BRANCH_LIMIT = 50  # commits of a branch a draft describes at most (its newest)

if TYPE_CHECKING:
    from segmint_core.pr import DraftCommit


def generate_pr(
    session: SessionCore, commit_ids: list[str] | None = None, *, replace: bool = False, actor: str = PERSON
) -> PullRequestDraft:
    """Draft the pull request anew; a draft someone edited is replaced only with ``replace``."""
    from segmint_core.pr import draft_pr, project_commands  # (loads the message writer's wording)

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
        if not plans and commit_ids is None:
            plans = branch_commits(session)
        asks = recorded_asks(session, plans)
        clauses = list(dict.fromkeys(a.clause for a in asks))
        text = draft_pr(
            draft_commits(session, plans),
            session.settings,
            list(dict.fromkeys(line for a in asks for line in a.lines)),
            intent=clauses[0] if len(clauses) == 1 else None,
            commands=project_commands(session.git.root),
            cases=cases_of_plans(session, plans),
        )
        commits = [CommitPlan.from_dict(p.to_dict()) for p in plans]  # a snapshot: plans change later
        draft = PullRequestDraft(shown(text.title), readable(text.description), commits, text.note)
        session.begin_edit()
        session.state.pr = draft
        session.record(actor, "drafted", f"{actor} drafted the pull request “{draft.title}”")
    session.announce(events.PR, actor, {"title": draft.title})
    return draft


def draft_commits(session: SessionCore, plans: list[CommitPlan]) -> list[DraftCommit]:
    """The commits the pull request holds: each plan's own, but a fix folded into an unpushed commit
    (``segmint absorb``) is no commit of its own: the commit it went into is named instead, once, as
    the branch has it now, oldest first, before the new ones (or where its plan is, when this session
    made it). A commit made before a fold is named as the branch has it now. Commits already made
    are read in one go."""
    from segmint_core.pr import DraftCommit

    git = session.git
    folds = [p.absorb_into for p in plans if p.absorb_into]
    now: dict[str, str] = {}  # a commit made before a fold -> the commit it is on the branch now
    targets: list[str] = []
    if folds:
        moves = [(a.parent, a.sha) for a in session.state.applied]
        made_here = [p.sha for p in plans if p.status == APPLIED and p.sha and not p.absorb_into]
        now = {sha: followed(git, sha, moves) for sha in dict.fromkeys(made_here + folds)}
        named = {now[sha] for sha in made_here}  # named where their plans are
        targets = [t for t in dict.fromkeys(now[f] for f in folds) if t not in named]
        newest_first = {c.sha: n for n, c in enumerate(unpushed(git, "HEAD", limit=BRANCH_LIMIT))}
        targets.sort(key=lambda sha: -newest_first.get(sha, BRANCH_LIMIT))
    moved = [now[p.sha] for p in plans if p.sha in now and now[p.sha] != p.sha and not p.absorb_into]
    read = _read_commits(git, targets + moved + [p.sha for p in plans if _of_the_branch(p) and p.sha])
    own = [
        read[now.get(p.sha, p.sha)]
        if p.sha and (_of_the_branch(p) or now.get(p.sha, p.sha) != p.sha)
        else DraftCommit(p.title, p.message, p.sha if p.status == APPLIED else None, len(p.hunk_ids))
        for p in plans
        if not p.absorb_into
    ]
    return [read[sha] for sha in targets] + own


def branch_commits(session: SessionCore) -> list[CommitPlan]:
    """With nothing planned or changed, the pull request is the branch's: its commits no remote has
    (a split applied, commits made by hand), oldest first, up to the first merge; none when no
    remote-tracking ref says where the branch began."""
    git = session.git
    if session.units.changeset.head is None or not git.run("for-each-ref", "--count=1", "refs/remotes").text.strip():
        return []
    return [
        CommitPlan(c.sha[:7], c.subject, "", [], [], status=APPLIED, sha=c.sha)
        for c in reversed(unpushed(git, "HEAD", limit=BRANCH_LIMIT))
    ]


def _of_the_branch(plan: CommitPlan) -> bool:
    """A commit ``branch_commits`` named: made before, holding none of the session's hunks."""
    return plan.status == APPLIED and not (plan.hunk_ids or plan.change_ids)


def _read_commits(git: Git, shas: list[str]) -> dict[str, DraftCommit]:
    """Commits already made, as the draft names them (their size in hunks)."""
    from segmint_core.pr import DraftCommit

    return {
        sha: DraftCommit(c.message.split("\n", 1)[0], c.message, sha, _hunks(c.patch))
        for sha, c in made(git, shas).items()
    }


def _hunks(patch: bytes) -> int:
    return sum(1 for line in patch.splitlines() if line.startswith(b"@@"))


def recorded_asks(session: SessionCore, plans: list[CommitPlan]) -> list[AskedFor]:
    """What was asked for each plan's lines, where prompts were recorded for them: an applied plan's
    as it was kept when it was committed, the others' read from the record."""
    from segmint_core.session.intents import asked_for  # (loads the grouping engine: only when drafting)

    kept = {a.sha: a.asked for a in session.state.applied if a.asked is not None}
    open_plans = [p for p in plans if p.sha not in kept]
    read = dict(zip([p.id for p in open_plans], asked_for(session.units, session.git, open_plans)))
    asks = [kept[p.sha] if p.sha in kept else read.get(p.id) for p in plans]
    return [a for a in asks if a is not None]


def cases_of_plans(session: SessionCore, plans: list[CommitPlan]) -> list[Case]:
    """The tests the plans add, change or remove: an applied plan's read from its commit."""
    parts: list[tuple[str, list[Hunk]]] = []
    for plan in plans:
        if plan.status == APPLIED and plan.sha:
            diff = session.git.run("show", "--format=", "--no-color", "--no-ext-diff", "-M", plan.sha).stdout
            parts += [(fp.new_path or fp.old_path or "", fp.hunks) for fp in parse_diff(diff, strict=False)]
        else:
            parts += [(c.file_path, hunks) for c, hunks in session.units.parts(plan.hunk_ids, plan.change_ids)]
    return cases(parts)


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
