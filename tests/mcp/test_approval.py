"""An agent's apply_commit while a person is present waits for the person's approval."""

from __future__ import annotations

from mcp.server import MCPServer

from segmint_core.session.session import Session
from tests.mcp.process import McpProcess
from tests.mcp.support import call, data, legacy, text
from tests.support.repo import Repo


async def test_present_person_approves_before_the_agent_commits(
    server: MCPServer, session: Session, dirty: Repo
) -> None:
    session.set_presence(person_present=True)
    before = dirty.head()
    async with legacy(server) as client:
        commit = (await data(client, "propose_commits"))["commits"][0]["id"]
        waiting = await data(client, "apply_commit", commit_id=commit)
        assert (waiting["status"], waiting["success"], waiting["sha"]) == ("awaiting_approval", False, None)
        state = await data(client, "get_session")
        assert state["approvals_pending"] == [commit] and dirty.head() == before
        session.approve([commit])  # the person, in the TUI
        applied = await data(client, "apply_commit", commit_id=commit)
        assert applied["status"] == "applied" and dirty.head() == applied["sha"]


async def test_an_agents_edit_to_an_approved_message_asks_the_person_again(
    server: MCPServer, session: Session, dirty: Repo
) -> None:
    session.set_presence(person_present=True)
    before = dirty.head()
    async with legacy(server) as client:
        commit = (await data(client, "propose_commits"))["commits"][0]["id"]
        await data(client, "apply_commit", commit_id=commit)
        session.approve([commit])  # the person approves the message they read
        edited = await call(client, "update_commit", commit_id=commit, title="chore: a title the person never saw")
        assert edited.structured_content["commit"]["status"] == "awaiting_approval"
        assert text(edited).startswith(f"Edited the message of {commit}. It waits for the person's approval.")
        waiting = await data(client, "apply_commit", commit_id=commit)
        assert waiting["status"] == "awaiting_approval" and dirty.head() == before
        session.approve([commit])  # the person reads the new title and approves it
        assert (await data(client, "apply_commit", commit_id=commit))["status"] == "applied"
        assert dirty.git("log", "-1", "--format=%s").strip() == "chore: a title the person never saw"


async def test_agent_can_commit_when_the_tui_allows_it(server: MCPServer, session: Session) -> None:
    session.set_presence(person_present=True, agent_can_commit=True)
    async with legacy(server) as client:
        commit = (await data(client, "propose_commits"))["commits"][0]["id"]
        assert (await data(client, "apply_commit", commit_id=commit))["status"] == "applied"


def test_a_headless_agent_started_before_the_tui_waits_for_approval(session: Session, dirty: Repo) -> None:
    # The agent's `segmint mcp` serves the session itself (no TUI to join yet) ...
    with McpProcess(cwd=dirty.path) as agent:
        agent.initialize()
        assert agent.call(2, "get_session")["structuredContent"]["person_present"] is False
        session.set_presence(person_present=True)  # ... then the person opens the TUI
        state = agent.call(3, "get_session")["structuredContent"]
        assert state["person_present"] is True and state["agent_can_commit"] is False
        commit = agent.call(4, "propose_commits")["structuredContent"]["commits"][0]["id"]
        before = dirty.head()
        waiting = agent.call(5, "apply_commit", commit_id=commit)["structuredContent"]
        assert waiting["status"] == "awaiting_approval" and dirty.head() == before
        session.approve([commit])  # the person, in the TUI
        applied = agent.call(6, "apply_commit", commit_id=commit)["structuredContent"]
        assert applied["status"] == "applied" and dirty.head() == applied["sha"]
        assert agent.close() == 0
        agent.assert_pure_json_rpc()
