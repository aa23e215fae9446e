"""An agent's apply_commit while a person is present waits for the person's approval."""

from __future__ import annotations

from mcp.server import MCPServer

from segmint_core.session.session import Session
from tests.mcp.support import data, legacy
from tests.support.repo import Repo


async def test_present_person_approves_before_the_agent_commits(server: MCPServer, session: Session,
                                                                dirty: Repo) -> None:
    session.set_presence(person_present=True)
    before = dirty.head()
    async with legacy(server) as client:
        commit = (await data(client, "propose_commits"))["commits"][0]["id"]
        waiting = await data(client, "apply_commit", commit_id=commit)
        assert (waiting["status"], waiting["success"], waiting["sha"]) == ("awaiting_approval", False, None)
        state = await data(client, "get_session")
        assert state["approvals_pending"] == [commit] and dirty.head() == before
        session.approve([commit])                       # the person, in the TUI
        applied = await data(client, "apply_commit", commit_id=commit)
        assert applied["status"] == "applied" and dirty.head() == applied["sha"]


async def test_agent_can_commit_when_the_tui_allows_it(server: MCPServer, session: Session) -> None:
    session.set_presence(person_present=True, agent_can_commit=True)
    async with legacy(server) as client:
        commit = (await data(client, "propose_commits"))["commits"][0]["id"]
        assert (await data(client, "apply_commit", commit_id=commit))["status"] == "applied"
