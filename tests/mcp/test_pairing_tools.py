"""The pairing tools: the agent edits the same session the person sees."""

from __future__ import annotations

from mcp import Client
from mcp.server import MCPServer

from segmint_core.session.events import SessionEvent
from segmint_core.session.session import Session
from tests.mcp.support import call, data, error, legacy, text


async def grouped(client: Client) -> dict:
    return await data(client, "group_changes")


async def test_get_session_is_the_snapshot(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        await grouped(client)
        state = await data(client, "get_session")
        assert state == session.snapshot()
        assert {"revision", "changes_revision", "groups", "plans", "approvals_pending"} <= set(state)


async def test_move_hunks_to_a_group_and_to_a_new_one(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        groups = (await grouped(client))["groups"]
        hunk = groups[0]["hunk_ids"][0]
        moved = await data(client, "move_hunks", hunk_ids=[hunk], new_group=True)
        assert moved["group"]["hunk_ids"] == [hunk] and moved["revision"] == session.revision
        other = next(g["id"] for g in moved["groups"] if g["id"] != moved["group"]["id"])
        back = await data(client, "move_hunks", hunk_ids=[hunk], to_group_id=other)
        assert hunk in back["group"]["hunk_ids"]
        assert moved["group"]["id"] not in [g["id"] for g in back["groups"]], "an emptied group disappears"
        assert session.activity[-1].actor == "agent"


async def test_a_group_emptied_by_a_move_takes_its_hunk_back(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        groups = (await grouped(client))["groups"]
        alone = next(g for g in groups if len(g["hunk_ids"]) == len(g["change_ids"]) == 1)
        hunk, other = alone["hunk_ids"][0], next(g["id"] for g in groups if g["id"] != alone["id"])
        out = await data(client, "move_hunks", hunk_ids=[hunk], to_group_id=other)
        assert alone["id"] not in [g["id"] for g in out["groups"]]
        assert session.activity[-1].text.endswith(f"({alone['id']} is empty now; a move back to it makes it again)")
        back = await data(client, "move_hunks", hunk_ids=[hunk], to_group_id=alone["id"])
        assert back["group"]["id"] == alone["id"] and back["group"]["hunk_ids"] == [hunk]
        assert [g["id"] for g in back["groups"]] == [g["id"] for g in groups], "in its place again"
        assert (await data(client, "move_hunks", hunk_ids=[hunk], new_group=True))["group"]["id"] not in [
            g["id"] for g in groups
        ], "a new group never takes an emptied group's id"


async def test_move_hunks_errors(server: MCPServer) -> None:
    async with legacy(server) as client:
        groups = (await grouped(client))["groups"]
        hunk = groups[0]["hunk_ids"][0]
        assert (await error(client, "move_hunks", hunk_ids=["change-1:9"], new_group=True)).startswith(
            "Unknown hunk ID: change-1:9; the hunks are "
        )
        both = await error(client, "move_hunks", hunk_ids=[hunk], to_group_id=groups[0]["id"], new_group=True)
        assert both == "Give either to_group_id or new_group=true (not both)"
        assert await error(client, "move_hunks", hunk_ids=[hunk]) == both
        assert (await error(client, "move_hunks", hunk_ids=[hunk], to_group_id="group-77")).startswith(
            "Unknown group ID: group-77; the groups are "
        )


async def test_merge_and_rename_groups(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        groups = (await grouped(client))["groups"]
        if len(groups) < 2:
            await data(client, "move_hunks", hunk_ids=[groups[0]["hunk_ids"][0]], new_group=True)
            groups = session.snapshot()["groups"]
        merged = await data(client, "merge_groups", group_ids=[groups[0]["id"], groups[1]["id"]])
        assert merged["group"]["id"] == groups[0]["id"]
        assert groups[1]["id"] not in [g["id"] for g in merged["groups"]]
        renamed = await call(client, "update_group", group_id=groups[0]["id"], summary="Parser: lower-case rule 1")
        assert text(renamed).startswith(f"{groups[0]['id']} is now “Parser: lower-case rule 1”.")
        assert renamed.structured_content["group"]["edited"] is True
        assert await error(client, "merge_groups", group_ids=[groups[0]["id"]]) == (
            "Invalid arguments for merge_groups: group_ids: List should have at least 2 items after validation, not 1"
        )
        assert (await error(client, "merge_groups", group_ids=[groups[0]["id"], "group-50"])).startswith(
            "Unknown group ID: group-50; the groups are "
        )
        assert (await error(client, "update_group", group_id="group-50", summary="x")).startswith(
            "Unknown group ID: group-50; the groups are "
        )


async def test_merging_a_group_with_itself_loses_nothing(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        before = (await grouped(client))["groups"]
        first = before[0]["id"]
        assert await error(client, "merge_groups", group_ids=[first, first]) == (
            "Give at least two different groups to merge"
        )
        assert session.snapshot()["groups"] == before
        assert len(before) > 1
        await data(client, "update_group", group_id=before[1]["id"], summary="Named by hand")
        merged = await data(client, "merge_groups", group_ids=[first, before[1]["id"], first])
        assert merged["group"]["summary"] == "Named by hand", "the name someone gave survives"
        assert merged["group"]["id"] == first
        grouped_hunks = sorted(h for g in merged["groups"] for h in g["hunk_ids"])
        assert grouped_hunks == sorted(h for g in before for h in g["hunk_ids"])


async def test_moving_a_change_moves_all_its_hunks(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        await grouped(client)
        change = next(c for c in session.changes if c.hunks)
        moved = await data(client, "move_hunks", hunk_ids=[change.id], new_group=True)
        assert moved["group"]["hunk_ids"] == [h.id for h in change.hunks]
        assert moved["group"]["change_ids"] == [change.id]
        assert moved["group"]["id"] in [g["id"] for g in session.snapshot()["groups"]]


async def test_edit_and_reorder_commits(server: MCPServer) -> None:
    async with legacy(server) as client:
        commits = (await data(client, "propose_commits"))["commits"]
        edited = await data(
            client,
            "update_commit",
            commit_id=commits[0]["id"],
            title="fix(parser): lower-case rule 1",
            description="Why: case-insensitive matching.",
        )
        assert (edited["commit"]["title"], edited["commit"]["description"]) == (
            "fix(parser): lower-case rule 1",
            "Why: case-insensitive matching.",
        )
        ids = [c["id"] for c in commits]
        reordered = await data(client, "reorder_commits", commit_ids=list(reversed(ids)))
        assert [c["id"] for c in reordered["commits"]] == list(reversed(ids))
        assert (await error(client, "update_commit", commit_id="commit-50", title="x")).startswith(
            "Unknown commit ID: commit-50; the commits are "
        )
        assert await error(client, "update_commit", commit_id=ids[0]) == "Give a new title, a new description, or both"
        assert await error(client, "update_commit", commit_id=ids[0], title="two\nlines") == (
            "A commit title must be one non-empty line"
        )
        if len(ids) > 1:
            assert (await error(client, "reorder_commits", commit_ids=ids[:1])).startswith(
                "Give every open commit exactly once"
            )
        assert (await error(client, "reorder_commits", commit_ids=["commit-50"])).startswith(
            "Unknown open commit ID: commit-50; the open commits are "
        )


async def test_refresh_reports_what_changed(server: MCPServer, session: Session, dirty) -> None:
    async with legacy(server) as client:
        unchanged = await data(client, "refresh")
        assert unchanged["changed"] is False
        dirty.write("extra.py", "y = 2\n")
        changed = await data(client, "refresh")
        assert changed["changed"] is True and changed["changes_revision"] == session.changes_revision


async def test_the_person_sees_every_agent_edit_as_an_event(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        events: list[SessionEvent] = []
        session.subscribe(events.append)
        groups = (await grouped(client))["groups"]
        await data(client, "update_group", group_id=groups[0]["id"], summary="Renamed by the agent")
        assert [e.kind for e in events][-2:] == ["groups", "groups"]
        assert {e.actor for e in events} == {"agent"}


async def test_list_changes_says_it_edits_the_session_as_it_does(server: MCPServer, session: Session, dirty) -> None:
    async with legacy(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        groups = (await grouped(client))["groups"]
        dirty.write("README.md", "# Parser\n\nParses text.\n")  # the README edit is undone on disk
        before = session.revision
        await data(client, "list_changes")
        assert session.revision > before and len(session.groups) < len(groups), "the person's session changed"
        assert session.activity[-1].actor == "agent"
        assert tools["list_changes"].annotations == tools["refresh"].annotations
        assert tools["list_changes"].annotations.read_only_hint is False


async def test_moving_hunks_to_the_group_they_are_in_says_they_were_kept(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        group = (await grouped(client))["groups"][0]
        kept = await call(client, "move_hunks", hunk_ids=group["hunk_ids"], to_group_id=group["id"])
        assert text(kept).startswith(f"Kept {', '.join(group['hunk_ids'])} in {group['id']}.")
        assert kept.structured_content["group"]["hunk_ids"] == group["hunk_ids"]
        other = next(g for g in session.snapshot()["groups"] if g["id"] != group["id"])
        moved = await call(
            client, "move_hunks", hunk_ids=[group["hunk_ids"][0], other["hunk_ids"][0]], to_group_id=group["id"]
        )
        assert text(moved).startswith(f"Moved {group['hunk_ids'][0]}, {other['hunk_ids'][0]} to {group['id']}.")
