"""Confidence over MCP: the agent reads the least certain decisions from get_session and settles one."""

from __future__ import annotations

from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from tests.grouping.scenarios import two_intents
from tests.mcp.support import data, legacy
from tests.support.repo import Repo


async def test_the_agent_reads_the_uncertain_list_and_settles_one_with_move_hunks(repo: Repo) -> None:
    session = Session.open(str(two_intents(repo).path))
    server = build_server(session)
    async with legacy(server) as client:
        grouped = await data(client, "group_changes")
        assert grouped["confidence"] == session.confidence().to_dict()
        assert set(grouped["confidence"]["groups"]) == {g["id"] for g in grouped["groups"]}
        merged = await data(client, "merge_groups", group_ids=[g["id"] for g in grouped["groups"]])
        state = await data(client, "get_session")
        (doubt,) = state["confidence"]["uncertain"]
        assert doubt["kind"] == "split" and doubt["group_id"] == merged["group"]["id"]
        assert "to_group_id" not in doubt and doubt["text"].startswith(doubt["hunk_ids"][0])
        settled = await data(client, "move_hunks", hunk_ids=doubt["hunk_ids"], new_group=True)
        assert sorted(settled["group"]["hunk_ids"]) == sorted(doubt["hunk_ids"])
        after = await data(client, "get_session")
        assert after["confidence"]["uncertain"] == [] and len(after["groups"]) == 2
        assert all(p > 0.8 for p in after["confidence"]["groups"].values())
        assert after["confidence"] == session.confidence().to_dict()  # what the TUI reads
