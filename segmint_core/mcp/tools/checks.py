"""Commits checked on their own before any is made, and the verified fix for those that fail.

A check command from the repository's own pyproject.toml runs only once the
person allowed it (``segmint check --allow``); an agent cannot allow it. With
no command configured, the zero-config check runs (it runs nothing the
repository holds).
"""

from typing import Annotated

from mcp.server import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from segmint_core.checking.command import configured, refuse_unallowed
from segmint_core.mcp import schemas
from segmint_core.mcp.results import said, tool_errors
from segmint_core.mcp.services import Services, in_thread
from segmint_core.mcp.tools import EDITS_SESSION
from segmint_core.session.models import AGENT
from segmint_core.session.session import Session
from segmint_core.wording import counted


def register(server: MCPServer, services: Services) -> None:
    @server.tool(title="Check commits", annotations=EDITS_SESSION)
    @tool_errors
    async def check_commits(
        fix: Annotated[bool, Field(description="fix those that fail, as one edit")] = False,
    ) -> Annotated[CallToolResult, schemas.CheckAndFix]:
        """Check that each open commit builds alone (the person's command, else zero-config); a fix
        merges, moves lines or reorders.

        Returns {ok: false, commits: [{commit_id: 'commit-1', status: 'failed', output: '...'}]}
        """
        session = services.session

        def work() -> dict:
            command = _command(session)
            report = session.check_commits(command, actor=AGENT)
            if not fix:
                return report.to_dict()
            found = session.propose_fixes(report, command) if report.failed else None
            if found is None or not found.steps:
                return {**report.to_dict(), "fixed": "", "still_failing": found.left if found else []}
            session.fix_commits(found, actor=AGENT)
            return {**found.report.to_dict(), "fixed": found.sentence, "still_failing": found.left}

        data = await in_thread(work)
        return said(_sentence(data), data)


def _command(session: Session):
    command = configured(session.git.root)
    if command is not None:
        refuse_unallowed(session.git.root, command)
    return command


def _sentence(data: dict) -> str:
    done = f"Fixed: {data['fixed']}. " if data.get("fixed") else ""
    failed = [c["commit_id"] for c in data["commits"] if c["status"] == "failed"]
    if failed:
        return done + f"{counted(len(failed), 'commit')} of {len(data['commits'])} fail: {', '.join(failed)}."
    return done + f"No commit of {len(data['commits'])} fails its check ({data['check']})."
