"""Session editing for pairing with a person: the agent's hands on the same groups and plans.

Each edit is announced to the TUI (and to subscribers of ``segmint://session``)
as it happens; each answers with a sentence and the edited objects.
"""

from typing import Annotated

from mcp.server import MCPServer
from mcp_types import CallToolResult
from pydantic import Field, StrictBool

from segmint_core.errors import SegmintError
from segmint_core.mcp import schemas
from segmint_core.mcp.args import MAX_IDS, Description, Id, Ids, Revision, Summary, Title
from segmint_core.mcp.results import json_text, said, success, tool_errors
from segmint_core.mcp.services import Services, at_revision, in_thread
from segmint_core.mcp.tools import EDITS_SESSION, EDITS_SESSION_IDEMPOTENT, READ_ONLY
from segmint_core.session.editing import split_ids
from segmint_core.session.models import AGENT, AWAITING_APPROVAL, Group
from segmint_core.session.session import Session


def register(server: MCPServer, services: Services) -> None:
    @server.tool(title="Get the session", annotations=READ_ONLY)
    @tool_errors
    async def get_session() -> Annotated[CallToolResult, schemas.SessionState]:
        """The shared session: changes, parts made by move_lines, groups, confidence (P per hunk and
        group; uncertain: the decisions to settle first, each with its move), commit plans, approvals
        pending, the PR draft, recent activity. A person may edit it in the Segmint TUI meanwhile: read it
        before acting on ids you got earlier. It does not re-read the disk (refresh does).

        Returns {changes_revision: 4, changes: [{id: 'change-3', hunk_ids: ['change-3:1']}], groups: [...],
        plans: [...], approvals_pending: ['commit-2'], person_present: true, ...}
        """
        data = await in_thread(services.session.snapshot)
        return success(json_text(data), data)

    @server.tool(title="Move hunks", annotations=EDITS_SESSION)
    @tool_errors
    async def move_hunks(
        hunk_ids: Annotated[
            Ids,
            Field(
                min_length=1,
                description="hunk ids (change-3:2) or change ids; a cut hunk moves with all its parts",
            ),
        ],
        to_group_id: Id | None = None,
        new_group: Annotated[StrictBool, Field(description="to a new group instead")] = False,
        revision: Revision = None,
    ) -> Annotated[CallToolResult, schemas.GroupEdit]:
        """Move hunks (or whole changes) to another group or a new one; groups left empty disappear.

        Example: hunk_ids=['change-3:2'], new_group=true. Returns {group: {...where they went}, groups: [...all]}
        """
        session = services.session

        def work() -> CallToolResult:
            with at_revision(session, revision):
                kept = to_group_id is not None and _holds(session, to_group_id, hunk_ids)
                group = session.move_hunks(hunk_ids, to_group_id=to_group_id, new_group=new_group, actor=AGENT)
                named = ", ".join(hunk_ids)
                return _group_edit(
                    session, group, f"Kept {named} in {group.id}." if kept else f"Moved {named} to {group.id}."
                )

        return await in_thread(work)

    @server.tool(title="Move lines", annotations=EDITS_SESSION)
    @tool_errors
    async def move_lines(
        hunk_id: Annotated[Id, Field(description="a hunk or part id")],
        lines: Annotated[
            list[Annotated[int, Field(ge=1)]],
            Field(min_length=1, max_length=MAX_IDS, description="1-based places among its added and removed lines"),
        ],
        to_group_id: Id | None = None,
        new_group: Annotated[StrictBool, Field(description="to a new group instead")] = False,
        revision: Revision = None,
    ) -> Annotated[CallToolResult, schemas.LineMove]:
        """Move single lines of a hunk mixing two intents to another group or a new one. The hunk is cut
        into parts that each commit alone (get_session lists them); a move that cannot is refused, naming
        the lines to add.

        Example: hunk_id='change-3:2', lines=[2, 3], new_group=true. Returns {moved_id: 'change-3:2.2', rest_id: 'change-3:2.1', groups: [...all]}
        """
        session = services.session

        def work() -> CallToolResult:
            with at_revision(session, revision):
                moved = session.move_lines(hunk_id, lines, to_group_id=to_group_id, new_group=new_group, actor=AGENT)
            data = {
                "moved_id": moved.moved_id,
                "rest_id": moved.rest_id,
                "group": moved.group.to_dict(),
                "groups": [g.to_dict() for g in session.groups],
                "revision": session.revision,
            }
            return said(moved.sentence, data)

        return await in_thread(work)

    @server.tool(title="Merge groups", annotations=EDITS_SESSION)
    @tool_errors
    async def merge_groups(
        group_ids: Annotated[Ids, Field(min_length=2, description="two or more group ids; the first one is kept")],
        revision: Revision = None,
    ) -> Annotated[CallToolResult, schemas.GroupEdit]:
        """Merge groups of one intent into the first one named, which keeps its id and name.

        Example: group_ids=['group-2', 'group-4']. Returns {group: {...merged}, groups: [...all]}
        """
        session = services.session

        def work() -> CallToolResult:
            with at_revision(session, revision):
                group = session.merge_groups(group_ids, actor=AGENT)
                return _group_edit(session, group, f"Merged {', '.join(group_ids)} into {group.id}.")

        return await in_thread(work)

    @server.tool(title="Rename a group", annotations=EDITS_SESSION_IDEMPOTENT)
    @tool_errors
    async def update_group(
        group_id: Id, summary: Summary, revision: Revision = None
    ) -> Annotated[CallToolResult, schemas.GroupRename]:
        """Name a group's intent in one line; the name stays when hunks move.

        Example: group_id='group-2', summary='Strip whitespace in parser rules'. Returns {group: {...}}
        """
        session = services.session

        def work() -> CallToolResult:
            with at_revision(session, revision):
                group = session.update_group(group_id, summary, actor=AGENT)
            return said(
                f"{group.id} is now “{group.summary}”.", {"group": group.to_dict(), "revision": session.revision}
            )

        return await in_thread(work)

    @server.tool(title="Edit a commit message", annotations=EDITS_SESSION_IDEMPOTENT)
    @tool_errors
    async def update_commit(
        commit_id: Id,
        title: Annotated[Title | None, Field(description="the new subject line")] = None,
        description: Annotated[Description | None, Field(description="the new body")] = None,
        revision: Revision = None,
    ) -> Annotated[CallToolResult, schemas.CommitEdit]:
        """Rewrite a planned commit's title and/or description (body) before it is applied.

        Example: commit_id='commit-1', title='fix(parser): lower-case rule_1'. Returns {commit: {...}}
        """
        session = services.session

        def work() -> dict:
            with at_revision(session, revision):
                plan = session.update_commit(commit_id, title=title, description=description, actor=AGENT)
            return {"commit": plan.to_dict(), "revision": session.revision}

        data = await in_thread(work)
        waiting = " It waits for the person's approval." if data["commit"]["status"] == AWAITING_APPROVAL else ""
        return said(f"Edited the message of {commit_id}.{waiting}", data)

    @server.tool(title="Reorder commits", annotations=EDITS_SESSION_IDEMPOTENT)
    @tool_errors
    async def reorder_commits(
        commit_ids: Annotated[Ids, Field(min_length=1, description="every open commit id, once, in the new order")],
        revision: Revision = None,
    ) -> Annotated[CallToolResult, schemas.CommitOrder]:
        """Set the order open commit plans are applied in: a change others build on goes first.

        Example: commit_ids=['commit-2', 'commit-1']. Returns {commits: [...in order]}
        """
        session = services.session

        def work() -> dict:
            with at_revision(session, revision):
                plans = session.reorder_commits(commit_ids, actor=AGENT)
            return {"commits": [p.to_dict() for p in plans], "revision": session.revision}

        data = await in_thread(work)
        return said(f"Commit order: {', '.join(commit_ids)}.", data)

    @server.tool(title="Re-read the working tree", annotations=EDITS_SESSION_IDEMPOTENT)
    @tool_errors
    async def refresh() -> Annotated[CallToolResult, schemas.RefreshResult]:
        """Re-read the working tree after files changed, keeping groups and plans for the hunks still there
        (under new ids); new hunks get a group of their own.

        Returns {changed: true, vanished: ['change-2:1'], appeared: ['change-5:1'], changes_revision: 5}
        """
        session = services.session

        def work() -> tuple[str, dict]:
            report = session.refresh(actor=AGENT)
            return report.sentence(), {**report.to_dict(), "changes_revision": session.changes_revision}

        sentence, data = await in_thread(work)
        return said(sentence, data)


def _holds(session: Session, group_id: str, ids: list[str]) -> bool:
    """Whether the group holds all that ``ids`` names already: a move there moves nothing, it settles them."""
    group = next((g for g in session.groups if g.id == group_id), None)
    try:
        hunks, changes = split_ids(session.units, ids)
    except SegmintError:  # the move itself says what is wrong
        return False
    return group is not None and set(hunks) <= set(group.hunk_ids) and set(changes) <= set(group.change_ids)


def _group_edit(session: Session, group: Group, sentence: str) -> CallToolResult:
    data = {"group": group.to_dict(), "groups": [g.to_dict() for g in session.groups], "revision": session.revision}
    return said(sentence, data)
