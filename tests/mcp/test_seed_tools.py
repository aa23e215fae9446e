"""The five seed tools through the SDK's in-memory client: results and error paths."""

from __future__ import annotations

import json

from mcp.server import MCPServer

from segmint_core.session.session import Session
from tests.mcp.support import call, data, error, json_text, legacy
from tests.support.cli import run_segmint
from tests.support.repo import Repo


async def test_list_changes_is_segmint_changes_json(server: MCPServer, dirty: Repo) -> None:
    async with legacy(server) as client:
        result = await call(client, "list_changes")
        expected = run_segmint("changes", "--json", cwd=dirty.path).stdout
        assert json_text(result) == json.loads(expected) == result.structured_content
        assert [c["file_path"] for c in result.structured_content["changes"]] == [
            "README.md",
            "notes.txt",
            "src/parser.py",
            "tests/test_parser.py",
        ]


async def test_list_changes_sees_edits_made_since(server: MCPServer, dirty: Repo) -> None:
    async with legacy(server) as client:
        await data(client, "list_changes")
        dirty.write("extra.py", "y = 2\n")
        listed = await data(client, "list_changes")
        assert "extra.py" in [c["file_path"] for c in listed["changes"]]


async def test_group_changes_all_and_some(server: MCPServer) -> None:
    async with legacy(server) as client:
        grouped = await data(client, "group_changes")
        hunk_ids = {h["id"] for c in grouped["changes"] for h in c["hunks"]}
        grouped_ids = {h for g in grouped["groups"] for h in g["hunk_ids"]}
        assert grouped_ids == hunk_ids, "every hunk in exactly one group, every id resolvable"
        assert all(g["summary"] and g["reasons"] for g in grouped["groups"])
        some = await data(client, "group_changes", change_ids=["change-1", "change-2"])
        assert {c for g in some["groups"] for c in g["change_ids"]} >= {"change-1", "change-2"}


async def test_a_change_named_twice_is_grouped_once(server: MCPServer) -> None:
    async with legacy(server) as client:
        some = await data(client, "group_changes", change_ids=["change-3", "change-3"])
        hunks = [h for g in some["groups"] for h in g["hunk_ids"]]
        assert hunks and sorted(hunks) == sorted(set(hunks)), "each hunk in one group, once"
        plans = (await data(client, "propose_commits"))["commits"]
        planned = [h for p in plans for h in p["hunk_ids"]]
        assert sorted(planned) == sorted(set(planned))


async def test_group_changes_unknown_ids(server: MCPServer) -> None:
    async with legacy(server) as client:
        assert (await error(client, "group_changes", change_ids=["change-1", "bad-id"])).startswith(
            "Unknown change ID: bad-id; the changes are "
        )
        plans = (await data(client, "propose_commits"))["commits"]
        assert await error(client, "group_changes", change_ids=[]) == (
            "Give at least one change id, or none at all to group every change"
        )
        assert (await data(client, "get_session"))["plans"] == plans, "a refused call changes nothing"


async def test_propose_commits_and_unknown_group(server: MCPServer) -> None:
    async with legacy(server) as client:
        commits = (await data(client, "propose_commits"))["commits"]
        assert commits and all(c["status"] == "proposed" and c["title"] for c in commits)
        assert [c["id"] for c in commits] == [f"commit-{n}" for n in range(1, len(commits) + 1)]
        assert (await error(client, "propose_commits", group_ids=["group-99"])).startswith(
            "Unknown group ID: group-99; the groups are "
        )


async def test_propose_commits_plans_edits_made_since_the_grouping(server: MCPServer, dirty: Repo) -> None:
    async with legacy(server) as client:
        await data(client, "group_changes")
        dirty.write("extra.py", "y = 2\n")
        commits = (await data(client, "propose_commits"))["commits"]
        planned = {c for p in commits for c in p["change_ids"] + [h.split(":")[0] for h in p["hunk_ids"]]}
        listed = {c["file_path"]: c["id"] for c in (await data(client, "get_session"))["changes"]}
        assert listed["extra.py"] in planned, "an agent that edits and proposes gets its last edit planned"
        assert set(listed.values()) <= planned


async def test_proposing_one_group_again_keeps_its_commit_in_place(server: MCPServer) -> None:
    async with legacy(server) as client:
        commits = (await data(client, "propose_commits"))["commits"]
        assert len(commits) >= 3
        middle = commits[1]["change_group_ids"]
        again = (await data(client, "propose_commits", group_ids=middle))["commits"]
        plans = (await data(client, "get_session"))["plans"]
        assert [p["change_group_ids"] for p in plans] == [c["change_group_ids"] for c in commits]
        assert plans[1]["id"] == again[0]["id"]


async def test_propose_commits_for_no_groups_is_refused(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        plans = (await data(client, "propose_commits"))["commits"]
        revision = session.revision
        assert await error(client, "propose_commits", group_ids=[]) == (
            "Give at least one group id, or none at all to plan every group"
        )
        state = await data(client, "get_session")
        assert state["plans"] == plans and state["revision"] == revision, "a refused call changes nothing"


async def test_apply_commit_headless_commits(server: MCPServer, dirty: Repo) -> None:
    async with legacy(server) as client:
        first = (await data(client, "propose_commits"))["commits"][0]
        before = dirty.head()
        dry = await data(client, "apply_commit", commit_id=first["id"], dry_run=True)
        assert (dry["status"], dry["success"], dry["sha"]) == ("dry_run", True, None)
        assert dirty.head() == before
        applied = await data(client, "apply_commit", commit_id=first["id"])
        assert (applied["status"], applied["success"]) == ("applied", True)
        assert dirty.head() == applied["sha"] != before
        assert dirty.git("log", "-1", "--format=%s").strip() == first["title"]
        assert await error(client, "apply_commit", commit_id=first["id"]) == (
            f"{first['id']} is already applied as {applied['sha'][:7]}"
        )


async def test_apply_commit_unknown_id(server: MCPServer) -> None:
    async with legacy(server) as client:
        assert (
            await error(client, "apply_commit", commit_id="commit-9")
            == "Unknown commit ID: commit-9; there are no commits"
        )
        plans = (await data(client, "propose_commits"))["commits"]
        assert await error(client, "apply_commit", commit_id="commit-9") == (
            f"Unknown commit ID: commit-9; the commits are {', '.join(p['id'] for p in plans)}"
        )


async def test_generate_pr(server: MCPServer) -> None:
    async with legacy(server) as client:
        draft = await data(client, "generate_pr")
        assert draft["title"] and draft["commits"]
        assert (await error(client, "generate_pr", commit_ids=["commit-42"])).startswith(
            "Unknown commit ID: commit-42; the commits are "
        )
        first = draft["commits"][0]["id"]
        twice = await data(client, "generate_pr", commit_ids=[first, first])
        assert [c["id"] for c in twice["commits"]] == [first]


async def test_generate_pr_keeps_a_draft_the_person_edited(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        await data(client, "generate_pr")
        session.update_pr(title="The person's title")
        assert await error(client, "generate_pr") == (
            "The pull-request draft was edited since it was drafted; draft it again with replace to discard those edits"
        )
        assert session.pr.title == "The person's title"
        replaced = await data(client, "generate_pr", replace=True)
        assert replaced["title"] != "The person's title" and not replaced["edited"]


async def test_generate_pr_of_no_commits_changes_nothing(server: MCPServer) -> None:
    async with legacy(server) as client:
        assert await error(client, "generate_pr", commit_ids=[]) == (
            "Give at least one commit id, or none at all to describe every commit"
        )
        assert (await data(client, "get_session"))["plans"] == []


async def test_stale_revision_is_refused(server: MCPServer, session: Session, dirty: Repo) -> None:
    async with legacy(server) as client:
        old = session.changes_revision
        dirty.write("extra.py", "y = 2\n")
        await data(client, "refresh")
        message = await error(client, "group_changes", change_ids=["change-1"], revision=old)
        assert message.startswith(f"IDs from revision {old} are stale")
        assert not (
            await call(client, "group_changes", change_ids=["change-1"], revision=session.changes_revision)
        ).is_error
