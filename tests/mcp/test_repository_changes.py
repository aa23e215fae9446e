"""The repository changing under the server between calls: each call still gets a clear answer."""

from __future__ import annotations

import shutil

from mcp.server import MCPServer

from segmint_core.session.session import Session
from tests.mcp.support import data, error, legacy
from tests.support.repo import Repo


async def test_the_session_folder_removed_under_the_server_is_made_again(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        groups = (await data(client, "group_changes"))["groups"]
        shutil.rmtree(session.folder)  # someone cleared .git/segmint while the agent worked
        assert (await data(client, "get_session"))["groups"] == groups
        renamed = await data(client, "update_group", group_id=groups[0]["id"], summary="Still here")
        assert renamed["group"]["summary"] == "Still here"
        assert [g.summary for g in Session.open(session.git.root).groups][0] == "Still here", "saved again"


async def test_the_git_folder_removed_under_the_server_is_said_plainly(server: MCPServer, dirty: Repo) -> None:
    async with legacy(server) as client:
        await data(client, "group_changes")
        (dirty.path / ".git").rename(dirty.path / "git-aside")
        for tool in ("get_session", "list_changes", "check_lazygit_messages"):
            assert await error(client, tool) == f"Not a git repository any more: {dirty.path / '.git'} is gone"
        assert not (dirty.path / ".git").exists(), "nothing was made in its place"
        (dirty.path / "git-aside").rename(dirty.path / ".git")
        assert (await data(client, "list_changes"))["changes"]
