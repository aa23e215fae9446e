"""The five tools of the commit flow: list, group, plan, apply, draft the PR."""

import logging
from typing import Annotated

import anyio.from_thread
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field, StrictBool

from segmint_core.changes import ChangeSet
from segmint_core.changes.encode import encode_changes
from segmint_core.errors import SegmintError
from segmint_core.jsonio import to_json
from segmint_core.mcp import schemas
from segmint_core.mcp.args import ChangeIds, CommitIds, GroupIds, Id, Revision
from segmint_core.mcp.results import json_text, success, tool_errors
from segmint_core.mcp.services import Services, at_revision, in_thread
from segmint_core.mcp.tools import COMMITS, EDITS_SESSION_IDEMPOTENT, MAY_CALL_MODEL, REGROUPS
from segmint_core.session.applying import ApplyStatus
from segmint_core.session.models import AGENT
from segmint_core.session.session import Session
from segmint_core.session.splitting import SPLIT_ID

log = logging.getLogger("segmint.mcp")


def register(server: MCPServer, services: Services) -> None:
    # It re-reads the tree into the shared session, as refresh does: ids renumbered, groups of hunks gone dropped.
    @server.tool(title="List changes", annotations=EDITS_SESSION_IDEMPOTENT)
    @tool_errors
    async def list_changes() -> Annotated[CallToolResult, schemas.ChangesResult]:
        """Read the uncommitted changes (staged, unstaged, untracked): one change per file, with its hunks.
        Call it first, and again after a commit or an edit: ids are renumbered.

        Returns {changes: [{id: 'change-3', file_path: 'src/parser.py', status: 'modified',
        hunks: [{id: 'change-3:2', header: '@@ -39,7 +39,7 @@', lines: ['-return s', '+return s.strip()'],
        staged: false}]}]}
        """
        session = services.session
        await in_thread(session.refresh, actor=AGENT)
        return success(*_listing(session))

    @server.tool(title="Group changes by intent", annotations=REGROUPS)
    @tool_errors
    async def group_changes(
        ctx: Context,
        change_ids: ChangeIds = None,
        revision: Revision = None,
        refine: Annotated[StrictBool, Field(description="then a chat model fixes groups")] = False,
    ) -> Annotated[CallToolResult, schemas.GroupingResult]:
        """Split the changes into groups by intent (a fix, a refactor, a docs edit), hunk by hunk. It
        replaces the groups it touches and drops open commit plans and the PR draft (change_ids: regroup
        only those). Check each group's reasons against the code; settle confidence.uncertain first.

        Returns {changes: [...], groups: [{id: 'group-2', hunk_ids: ['change-3:1'], summary: 'Fix rule_1',
        reasons: ['tests for src/parser.py']}], confidence: {...}}
        """
        session = services.session
        report = _progress_relay(ctx)

        def work() -> tuple[str, dict]:
            with at_revision(session, revision):
                if refine and not session.settings.chat_enabled:
                    from segmint_core.grouping.refine import NO_MODEL

                    raise SegmintError(NO_MODEL)
                if change_ids is None:
                    session.refresh(actor=AGENT)
                session.regroup(change_ids=change_ids, actor=AGENT, progress=report)
            refinement = session.refine_groups(actor=AGENT).to_dict() if refine and session.groups else None
            return _grouping(session, refinement)

        return success(*await in_thread(work))

    # Destructive as group_changes is: absorb groups afresh; a split's plans rewrite the branch once applied.
    @server.tool(title="Propose commits", annotations=REGROUPS)
    @tool_errors
    async def propose_commits(
        group_ids: GroupIds = None,
        absorb: Annotated[bool, Field(description="fold fixes into unpushed commits")] = False,
        split: Annotated[str | None, Field(max_length=200, description="REV or BASE..TIP to re-plan")] = None,
        follow_commits: Annotated[StrictBool, Field(description="split: the range's commits are evidence")] = False,
        revision: Revision = None,
    ) -> Annotated[CallToolResult, schemas.CommitsResult]:
        """Turn groups into commit plans, one per group, in dependency order, each with a title and body;
        messages someone edited are kept. Groups Segmint made that share a title are merged first.
        The tree is read again first (as refresh does), unless group_ids are given.

        Returns {commits: [{id: 'commit-1', title: 'fix(parser): strip input in rule_1',
        description: '...', hunk_ids: ['change-3:1'], status: 'proposed'}]}
        """
        session = services.session

        def work() -> dict:
            if split is not None:
                started = session.start_split(split, follow_commits=follow_commits, actor=AGENT)
                return {"commits": [p.to_dict() for p in started.plans]}
            with at_revision(session, revision):
                if absorb:
                    plans = session.absorb(actor=AGENT).plans
                else:
                    if group_ids is None:  # an agent edits, then proposes: its last edits are planned too
                        session.refresh(actor=AGENT)
                    plans = session.propose_commits(group_ids, actor=AGENT)
            if plans:  # each plan's zero-config check, for the agent to fix what fails (check_commits)
                try:
                    session.check_commits(None, actor=AGENT, logged=False)
                except SegmintError as exc:
                    log.warning("the proposed commits were not checked: %s", exc)
            return {"commits": [p.to_dict() for p in plans]}

        data = await in_thread(work)
        return success(json_text(data), data)

    @server.tool(title="Apply a commit", annotations=COMMITS)
    @tool_errors
    async def apply_commit(
        commit_id: Id,
        dry_run: Annotated[StrictBool, Field(description="only check, commit nothing")] = False,
        revision: Revision = None,
    ) -> Annotated[CallToolResult, schemas.ApplyResult]:
        """Commit one plan's hunks on top of HEAD (git hooks run; files on disk are never written), plans
        in order; 'split' applies a whole split. With a person in the Segmint TUI the status may be
        'awaiting_approval': tell them, and read get_session until it is 'applied'. Refused if HEAD or the
        files moved since the plan; ids are renumbered after.

        Returns {commit_id: 'commit-1', status: 'applied', sha: '3f2a91c', files: [{path: 'src/parser.py',
        added: 2, removed: 2}]}
        """
        session = services.session

        def work() -> dict:
            with at_revision(session, revision):
                if commit_id == SPLIT_ID and not dry_run:
                    outcome = session.request_split(actor=AGENT)
                else:
                    outcome = session.apply_commit(commit_id, dry_run=dry_run, actor=AGENT)
            data = outcome.to_dict()
            data["success"] = outcome.status in (ApplyStatus.APPLIED, ApplyStatus.DRY_RUN)
            data["revision"] = session.revision
            return data

        data = await in_thread(work)
        return success(json_text(data), data)

    @server.tool(title="Draft the pull request", annotations=MAY_CALL_MODEL)
    @tool_errors
    async def generate_pr(
        commit_ids: CommitIds = None,
        replace: Annotated[StrictBool, Field(description="replace an edited draft")] = False,
        revision: Revision = None,
    ) -> Annotated[CallToolResult, schemas.PullRequestDraft]:
        """Draft the pull request (title, Markdown description) from the commits (all, or commit_ids).
        Show it to the person, who may edit it.

        Returns {title: 'Fix rule_1 in the parser', description: '## Summary ...', commits: [...], edited: false}
        """
        session = services.session

        def work() -> dict:
            with at_revision(session, revision):
                return session.generate_pr(commit_ids, replace=replace, actor=AGENT).to_dict()

        data = await in_thread(work)
        return success(json_text(data), data)


def _listing(session: Session) -> tuple[str, dict]:
    """``segmint changes --json``'s text, and the same data as objects."""
    changes = session.changes
    captured = session.units.changeset
    text = encode_changes(ChangeSet(changes, captured.fingerprint, captured.head)).decode("utf-8")
    return text, {"changes": [c.to_dict() for c in changes]}


def _grouping(session: Session, refinement: dict | None = None) -> tuple[str, dict]:
    """``segmint group --json``'s shape: the effective changes, then the groups (and the refinement)."""
    listing, data = _listing(session)
    groups = [g.to_dict() for g in session.groups]
    data["groups"] = groups
    data["confidence"] = session.confidence().to_dict()
    text = f'{listing[:-1]}, "groups": {to_json(groups)}, "confidence": {to_json(data["confidence"])}}}'
    if refinement is not None:
        data["refinement"] = refinement
        text = f'{text[:-1]}, "refinement": {to_json(refinement)}}}'
    return text, data


def _progress_relay(ctx: Context):
    """A ``progress(done, total, message)`` callback for worker threads that
    forwards to the client (a no-op unless the client asked for progress)."""

    def report(done: int, total: int, message: str) -> None:
        try:
            anyio.from_thread.run(ctx.report_progress, done, total, message)
        except Exception as exc:  # noqa: BLE001 - progress is a courtesy: never fail the work for it
            log.debug("progress not delivered: %r", exc)

    return report
