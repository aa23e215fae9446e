"""The seed's five tools: list, group, plan, apply, draft the PR (seed 000/001 contracts)."""

import logging
from typing import Annotated

import anyio.from_thread
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from segmint_core.changes import ChangeSet
from segmint_core.changes.encode import encode_changes
from segmint_core.jsonio import to_json
from segmint_core.mcp import schemas
from segmint_core.mcp.args import ChangeIds, CommitIds, GroupIds, Id, Revision
from segmint_core.mcp.results import json_text, success, tool_errors
from segmint_core.mcp.services import Services, in_thread
from segmint_core.mcp.tools import COMMITS, DRAFTS, EDITS_SESSION, READ_ONLY
from segmint_core.session.models import AGENT, APPLIED
from segmint_core.session.session import Session

log = logging.getLogger("segmint.mcp")

def register(server: MCPServer, services: Services) -> None:
    @server.tool(title="List changes", annotations=READ_ONLY)
    @tool_errors
    async def list_changes() -> Annotated[CallToolResult, schemas.ChangesResult]:
        """List the repository's uncommitted changes (staged, unstaged and untracked) as Change objects.

        Re-reads the working tree first. Changes are sorted by path and numbered
        change-1, change-2, ...; a hunk's id is "<change id>:<k>" (change-3:2).
        Returns {"changes": [...]}, the same JSON as `segmint changes --json`.
        """
        session = services.session
        await in_thread(session.refresh, actor=AGENT)
        return success(*_listing(session))

    @server.tool(title="Group changes by intent", annotations=EDITS_SESSION)
    @tool_errors
    async def group_changes(ctx: Context, change_ids: ChangeIds = None,
                            revision: Revision = None) -> Annotated[CallToolResult, schemas.GroupingResult]:
        """Group the changes by intent: each group has a summary and the reasons (evidence) for it.

        Omit change_ids to group everything (the working tree is re-read
        first); give ids from list_changes to regroup just those, keeping the
        other groups. Replaces the affected groups and drops open commit plans.
        Reports progress while embedding when the client asks for it.
        Returns {"changes": [...], "groups": [...]}; a hunk split between
        groups appears as its sub-hunks, so every hunk id in a group resolves.
        """
        session = services.session
        report = _progress_relay(ctx)

        def work() -> tuple[str, dict]:
            session.check_revision(revision)
            if change_ids is None:
                session.refresh(actor=AGENT)
            session.regroup(change_ids=change_ids, actor=AGENT, progress=report)
            return _grouping(session)

        return success(*await in_thread(work))

    @server.tool(title="Propose commits", annotations=DRAFTS)
    @tool_errors
    async def propose_commits(group_ids: GroupIds = None,
                              revision: Revision = None) -> Annotated[CallToolResult, schemas.CommitsResult]:
        """Propose one commit per group (all groups, or group_ids), in dependency order, with titles and bodies.

        Groups the changes first if nothing is grouped yet. Replaces the open
        plans of those groups; applied commits stay. Returns {"commits": [...]}.
        """
        session = services.session

        def work() -> dict:
            session.check_revision(revision)
            plans = session.propose_commits(group_ids, actor=AGENT)
            return {"commits": [p.to_dict() for p in plans]}

        data = await in_thread(work)
        return success(json_text(data), data)

    @server.tool(title="Apply a commit", annotations=COMMITS)
    @tool_errors
    async def apply_commit(
        commit_id: Id,
        dry_run: Annotated[bool, Field(description="check and report what would be committed, commit nothing")] = False,
        revision: Revision = None,
    ) -> Annotated[CallToolResult, schemas.ApplyResult]:
        """Commit exactly the hunks of one commit plan on top of HEAD; working-tree files are never touched.

        When a person is reviewing in the Segmint TUI, the plan is marked
        awaiting_approval instead, and the person approves it there (unless the
        TUI allows agent commits); call get_session to see when it is applied.
        Refused if HEAD or the files moved since the plan was made. After a
        commit the remaining changes are re-read: list them again for new ids.
        """
        session = services.session

        def work() -> dict:
            session.check_revision(revision)
            outcome = session.apply_commit(commit_id, dry_run=dry_run, actor=AGENT)
            data = outcome.to_dict()
            data["success"] = outcome.status in (APPLIED, "dry_run")
            data["revision"] = session.revision
            return data

        data = await in_thread(work)
        return success(json_text(data), data)

    @server.tool(title="Draft the pull request", annotations=DRAFTS)
    @tool_errors
    async def generate_pr(commit_ids: CommitIds = None,
                          replace: Annotated[bool, Field(description="replace a draft the person (or you) edited")]
                          = False,
                          revision: Revision = None) -> Annotated[CallToolResult, schemas.PullRequestDraft]:
        """Draft a pull request (title, description, commits) from the commit plans (all, or commit_ids).

        Proposes commits first if there are none. The draft is kept in the
        session, where the person can edit it; an edited draft is refused
        unless replace=true (read it with get_session first).
        """
        session = services.session

        def work() -> dict:
            session.check_revision(revision)
            return session.generate_pr(commit_ids, replace=replace, actor=AGENT).to_dict()

        data = await in_thread(work)
        return success(json_text(data), data)


def _listing(session: Session) -> tuple[str, dict]:
    """``segmint changes --json``'s text, and the same data as objects."""
    changes = session.changes
    captured = session.units.changeset
    text = encode_changes(ChangeSet(changes, captured.fingerprint, captured.head)).decode("utf-8")
    return text, {"changes": [c.to_dict() for c in changes]}


def _grouping(session: Session) -> tuple[str, dict]:
    """``segmint group --json``'s shape: the effective changes, then the groups."""
    listing, data = _listing(session)
    groups = [g.to_dict() for g in session.groups]
    data["groups"] = groups
    return f'{listing[:-1]}, "groups": {to_json(groups)}}}', data


def _progress_relay(ctx: Context):
    """A ``progress(done, total, message)`` callback for worker threads that
    forwards to the client (a no-op unless the client asked for progress)."""

    def report(done: int, total: int, message: str) -> None:
        try:
            anyio.from_thread.run(ctx.report_progress, done, total, message)
        except Exception as exc:  # noqa: BLE001 - progress is a courtesy: never fail the work for it
            log.debug("progress not delivered: %r", exc)

    return report
