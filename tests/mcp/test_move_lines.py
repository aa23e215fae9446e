"""move_lines for agents: a hunk mixing two intents becomes two commits, each with exactly its lines."""

from __future__ import annotations

import os
import sys

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.server import MCPServer

from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from tests.mcp.support import data, error, legacy
from tests.support.groups import stuck_pair
from tests.support.repo import Repo

BEFORE = "MAX_RETIRES = 3\nTIMEOUT = 10\n"
# One run of changed lines, two intents: a typo fixed (retires -> retries) and a new setting.
AFTER = "MAX_RETRIES = 3\nCACHE_SIZE = 256\nTIMEOUT = 10\n"


def mixed(repo: Repo) -> Repo:
    repo.write("settings.py", BEFORE)
    repo.commit("settings")
    repo.write("settings.py", AFTER)
    return repo


def commit_diff(repo: Repo, rev: str) -> list[str]:
    """The changed lines a commit made, as git shows them."""
    patch = repo.git("show", "--format=", "--unified=0", rev)
    return [line for line in patch.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]


async def test_an_agent_over_stdio_splits_a_hunk_into_two_commits(repo: Repo) -> None:
    mixed(repo)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "segmint", "mcp", "--repo", str(repo.path)],
        env=dict(os.environ),
        cwd=str(repo.path),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        grouped = (await client.call_tool("group_changes", {})).structured_content
        (hunk,) = grouped["changes"][0]["hunks"]
        changed = [line for line in hunk["lines"] if line[:1] in "+-"]
        assert changed == ["-MAX_RETIRES = 3", "+MAX_RETRIES = 3", "+CACHE_SIZE = 256"]
        moved = await client.call_tool("move_lines", {"hunk_id": hunk["id"], "lines": [3], "new_group": True})
        assert not moved.is_error, moved.content[0].text
        assert moved.content[0].text.startswith(
            f"Moved 1 line of {hunk['id']} to group-2 as {hunk['id']}.2; {hunk['id']}.1 holds the 2 lines left."
        )
        session = (await client.call_tool("get_session", {})).structured_content
        assert [(p["id"], p["positions"], p["lines"], p["group_id"]) for p in session["parts"]] == [
            (f"{hunk['id']}.1", [1, 2], ["-MAX_RETIRES = 3", "+MAX_RETRIES = 3"], "group-1"),
            (f"{hunk['id']}.2", [3], ["+CACHE_SIZE = 256"], "group-2"),
        ]
        plans = (await client.call_tool("propose_commits", {})).structured_content["commits"]
        assert [p["hunk_ids"] for p in plans] == [[f"{hunk['id']}.1"], [f"{hunk['id']}.2"]]
        for plan in plans:
            applied = await client.call_tool("apply_commit", {"commit_id": plan["id"]})
            assert not applied.is_error, applied.content[0].text
    assert commit_diff(repo, "HEAD~1") == ["-MAX_RETIRES = 3", "+MAX_RETRIES = 3"]
    assert commit_diff(repo, "HEAD") == ["+CACHE_SIZE = 256"]
    assert repo.git("status", "--porcelain") == ""
    assert repo.read("settings.py") == AFTER.encode()


async def test_lines_join_the_part_a_group_already_holds(repo: Repo) -> None:
    mixed(repo)
    session = Session.open(str(repo.path))
    session.regroup()
    async with legacy(build_server(session)) as client:
        first = await data(client, "move_lines", hunk_id="change-1:1", lines=[3], new_group=True)
        assert (first["moved_id"], first["rest_id"]) == ("change-1:1.2", "change-1:1.1")
        again = await data(client, "move_lines", hunk_id="change-1:1.1", lines=[1], to_group_id="group-2")
        assert (again["moved_id"], again["rest_id"]) == ("change-1:1.2", "change-1:1.1")
        assert again["group"]["hunk_ids"] == ["change-1:1.2"]
        parts = {p["id"]: p["lines"] for p in (await data(client, "get_session"))["parts"]}
        assert parts == {
            "change-1:1.1": ["+MAX_RETRIES = 3"],
            "change-1:1.2": ["-MAX_RETIRES = 3", "+CACHE_SIZE = 256"],
        }


async def test_bad_lines_are_refused_with_a_sentence_and_change_nothing(repo: Repo) -> None:
    mixed(repo)
    session = Session.open(str(repo.path))
    session.regroup()
    server: MCPServer = build_server(session)
    revision = session.revision
    async with legacy(server) as client:
        assert await error(client, "move_lines", hunk_id="change-1:1", lines=[4], new_group=True) == (
            "change-1:1 has 3 changed lines: give places from 1 to 3 (not 4)"
        )
        assert (await error(client, "move_lines", hunk_id="change-9:1", lines=[1], new_group=True)).startswith(
            "Unknown hunk ID: change-9:1; the hunks are change-1:1"
        )
        assert await error(client, "move_lines", hunk_id="change-1:1", lines=[1]) == (
            "Give either to_group_id or new_group=true (not both)"
        )
        assert await error(client, "move_lines", hunk_id="change-1:1", lines=[1], to_group_id="group-1") == (
            "change-1:1 is already in group-1"
        )
        assert "lines" in await error(client, "move_lines", hunk_id="change-1:1", lines=[], new_group=True)
    assert session.revision == revision


async def test_a_last_line_without_newline_cannot_leave_its_replacement(repo: Repo) -> None:
    repo.write("notes.txt", "a\nb")
    repo.commit()
    repo.write("notes.txt", "a\nb\nc\n")
    session = Session.open(str(repo.path))
    session.regroup()
    async with legacy(build_server(session)) as client:
        refused = await error(client, "move_lines", hunk_id="change-1:1", lines=[3], new_group=True)
        assert refused == (
            "change-1:1 lines 1 (-b), 2 (+b) must move too: the file's old last line has no newline, "
            "so it, its replacement and the lines added after it are committed together; "
            "select them as well"
        )
        assert (await data(client, "get_session"))["parts"] == []


async def test_an_agent_reads_which_plans_must_be_merged_and_merges_them(repo: Repo) -> None:
    """A file deleted in the index and made again, its old line moved beside the deletion: each
    plan needs the other. The agent reads that from the plans' ``merge_with``, applying one alone
    is refused, and merging their groups commits the file."""
    async with legacy(build_server(stuck_pair(repo))) as client:
        plans = (await data(client, "propose_commits"))["commits"]
        assert [(p["id"], p["merge_with"]) for p in plans] == [("commit-1", ["commit-2"]), ("commit-2", ["commit-1"])]
        refused = await error(client, "apply_commit", commit_id="commit-1")
        assert "merge their groups to commit" in refused
        await data(client, "merge_groups", group_ids=[g for p in plans for g in p["change_group_ids"]])
        merged = (await data(client, "propose_commits"))["commits"]
        assert [p["merge_with"] for p in merged] == [[]]
        applied = await data(client, "apply_commit", commit_id=merged[0]["id"])
        assert applied["status"] == "applied"
    assert repo.git("status", "--porcelain") == ""
