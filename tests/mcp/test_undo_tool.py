"""An agent's undo over MCP takes back a whole operation; with a person present, it is theirs to do."""

from __future__ import annotations

from mcp.server import MCPServer

from segmint_core.session.applying import operation_start
from segmint_core.session.session import Session
from tests.mcp.support import call, data, legacy, text
from tests.support.repo import Repo


async def test_undo_takes_back_every_commit_of_a_batch(server: MCPServer, session: Session, dirty: Repo) -> None:
    before = dirty.head()
    async with legacy(server) as client:
        plans = (await data(client, "propose_commits"))["commits"]
        for plan in plans:  # one batch: the agent's commits of one apply --all
            session.batch_op = session.batch_op or operation_start(session, "agent")
            await data(client, "apply_commit", commit_id=plan["id"])
        session.batch_op = None
        state = await data(client, "get_session")
        [op] = state["operations"]
        assert len(op["commits"]) == len(plans) >= 2 and op["head_before"] == before
        undone = await data(client, "undo")
        assert undone["operations"] == [op["id"]] and undone["commits"] == op["commits"]
        assert dirty.head() == before and undone["head"] == before
        assert undone["message"].startswith(f"Undid {op['id']}")
        again = await call(client, "undo")
        assert again.is_error and text(again) == "Nothing to undo: Segmint has made no commit in this session"


async def test_with_a_person_present_the_agent_asks_them_to_undo(
    server: MCPServer, session: Session, dirty: Repo
) -> None:
    async with legacy(server) as client:
        plan = (await data(client, "propose_commits"))["commits"][0]["id"]
        made = await data(client, "apply_commit", commit_id=plan)
        session.set_presence(person_present=True)
        refused = await call(client, "undo")
        assert refused.is_error and "waits for the person" in text(refused)
        assert dirty.head() == made["sha"]
