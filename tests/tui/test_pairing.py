"""Pairing: an agent connected over HTTP to the app's embedded MCP server works on the session on screen."""

from __future__ import annotations

import time
from contextlib import asynccontextmanager

from segmint_bench.tui_measures import agent_client
from segmint_tui.pairing import Pairing
from tests.mcp.process import McpProcess
from tests.mcp.support import data
from tests.support.repo import Repo
from tests.tui.support import notifications, running, screen_text, settle, until


@asynccontextmanager
async def agent(pilot):
    """A real MCP client over streamable HTTP, with the app's bearer token, as `segmint mcp` connects."""
    await until(pilot, lambda: pilot.app.pairing.info is not None, what="the embedded server")
    async with agent_client(pilot.app.pairing.info, timeout=30) as client:
        yield client


async def test_what_the_agent_does_shows_on_screen_and_the_other_way_round(demo: Repo) -> None:
    async with running(demo.path, mcp=True) as pilot:
        app = pilot.app
        async with agent(pilot) as client:
            assert f"● pairing on {app.pairing.info.url}" in screen_text(app)
            await data(client, "move_hunks", hunk_ids=["change-2:2"], new_group=True)
            await until(
                pilot,
                lambda: "agent moved change-2:2 to group-4" in screen_text(app),
                what="the agent's move on screen",
            )
            assert "#4 +" in screen_text(app) and app.session.groups[-1].hunk_ids == ["change-2:2"]

            commit = (await data(client, "propose_commits"))["commits"][0]["id"]
            await data(client, "update_commit", commit_id=commit, title="feat(config): read settings as JSON")
            await until(
                pilot,
                lambda: "1. feat(config): read settings as JSON" in screen_text(app),
                what="the agent's title in the commits pane",
            )
            assert f"agent edited the message of {commit}" in screen_text(app)

            await pilot.press("2", "j", "K")  # the person moves commit-2 before commit-1
            await settle(pilot)
            state = await data(client, "get_session")  # the agent's next call sees it
            assert [p["id"] for p in state["plans"]][:2] == ["commit-2", "commit-1"]


async def test_an_agents_commit_waits_for_the_persons_approval(demo: Repo) -> None:
    async with running(demo.path, mcp=True) as pilot:
        app = pilot.app
        async with agent(pilot) as client:
            commit = (await data(client, "propose_commits"))["commits"][0]["id"]
            waiting = await data(client, "apply_commit", commit_id=commit)
            assert waiting["status"] == "awaiting_approval"
            await until(pilot, lambda: "◐ awaiting approval" in screen_text(app), what="the waiting commit")
            assert f"1 waiting for approval: {commit}" in screen_text(app)
            assert any(commit in n and "approve" in n for n in notifications(app))
            before = demo.head()
            await pilot.press("2", "a")  # the person approves: the commit is made
            await settle(pilot)
            plan = app.session.plan(commit)
            assert plan.status == "applied" and demo.head() != before and plan.sha == demo.head()
            assert f"● applied {plan.sha[:7]}" in screen_text(app)
            assert not [n for n in notifications(app) if n.startswith("Approval waiting")], (
                "the question is settled: its toast no longer covers the screen"
            )


async def test_with_agent_can_commit_the_agent_commits_at_once(demo: Repo) -> None:
    async with running(demo.path, mcp=True, agent_can_commit=True) as pilot:
        app = pilot.app
        async with agent(pilot) as client:
            assert "agent may commit" in screen_text(app)
            commit = (await data(client, "propose_commits"))["commits"][0]["id"]
            applied = await data(client, "apply_commit", commit_id=commit)
            assert applied["status"] == "applied" and demo.head() == applied["sha"]
            await until(pilot, lambda: f"● applied {applied['sha'][:7]}" in screen_text(app), what="the commit")


async def test_a_headless_agent_started_first_works_on_the_session_on_screen(demo: Repo) -> None:
    # The agent's `segmint mcp` started before the TUI, so it serves the session itself: the
    # TUI sees its saves on disk and shows them, and its commits wait for the person all the same.
    with McpProcess(cwd=demo.path) as agent:
        agent.initialize()
        async with running(demo.path, watch=True) as pilot:
            app = pilot.app
            group = app.session.groups[0].id
            assert agent.call(2, "update_group", group_id=group, summary="Read settings as JSON")["isError"] is False
            await until(pilot, lambda: "Read settings as JSON" in screen_text(app), what="the agent's summary")
            commit = agent.call(3, "propose_commits")["structuredContent"]["commits"][0]["id"]
            before = demo.head()
            waiting = agent.call(4, "apply_commit", commit_id=commit)["structuredContent"]
            assert waiting["status"] == "awaiting_approval" and demo.head() == before
            await until(pilot, lambda: "◐ awaiting approval" in screen_text(app), what="the waiting commit")
            assert any(commit in n and "approve" in n for n in notifications(app))
            await pilot.press("2", "a")  # the person approves: the commit is made
            await settle(pilot)
            assert app.session.plan(commit).status == "applied" and demo.head() != before
        assert agent.close() == 0
        agent.assert_pure_json_rpc()


async def test_without_mcp_there_is_no_server(demo: Repo) -> None:
    async with running(demo.path, mcp=False) as pilot:
        assert pilot.app.pairing.info is None
        assert not list((demo.path / ".git" / "segmint").glob("mcp-endpoint-*"))
        assert "pairing off (--no-mcp)" in screen_text(pilot.app)


async def test_quitting_before_the_server_began_stops_it_at_once(demo: Repo) -> None:
    async with running(demo.path, mcp=False) as pilot:
        pairing = Pairing(pilot.app, lambda: pilot.app.session, enabled=True, agent_can_commit=False)
        pairing.start()
        began = time.monotonic()
        await pairing.shutdown()  # the person quit before the server's worker had run
        assert time.monotonic() - began < 3, "not the 6 s wait for a server nobody stopped"
        assert pairing.info is None
        assert not list((demo.path / ".git" / "segmint").glob("mcp-endpoint-*"))
