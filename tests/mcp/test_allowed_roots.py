"""The tools read and write inside the session's repository only, unless a person allows another folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mcp.server import MCPServer

from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from tests.mcp.embedded_thread import EmbeddedThread
from tests.mcp.process import McpProcess
from tests.mcp.support import data, error, legacy
from tests.support.repo import Repo

DIFF = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n"
ALLOW = "(start segmint or segmint mcp with --allow-root FOLDER to allow another folder)."


def other_repository(tmp_path: Path) -> Repo:
    other = Repo(tmp_path / "other")
    other.write("app.py", "print('hello')\n")
    other.commit("base")
    other.write("app.py", "print('hello, world')\n")
    return other


def refusal(given: Path, repo: Repo, resolved: Path | None = None) -> str:
    where = f"{given} (which resolves to {resolved})" if resolved else str(given)
    return (
        f"{where} is outside the repository {os.path.realpath(repo.path)}, the only folder Segmint's tools "
        f"read and write {ALLOW}"
    )


async def test_configure_project_is_refused_outside_the_repository(
    server: MCPServer, dirty: Repo, tmp_path: Path
) -> None:
    other = other_repository(tmp_path)
    (dirty.path / "linked").symlink_to(other.path, target_is_directory=True)
    before = sorted(p.name for p in other.path.iterdir())
    async with legacy(server) as client:
        assert await error(client, "configure_project", path=str(other.path)) == refusal(other.path, dirty)
        linked = dirty.path / "linked"
        assert await error(client, "configure_project", path=str(linked)) == refusal(linked, dirty, other.path)
        recording = await data(client, "configure_project", path=str(dirty.path / "src"))
        assert recording["root"] == os.path.realpath(dirty.path)
    assert sorted(p.name for p in other.path.iterdir()) == before  # no .trajectory/, no .gitignore
    assert other.git("status", "--porcelain") == " M app.py\n"


async def test_load_diff_reads_diff_files_inside_the_repository_only(
    server: MCPServer, dirty: Repo, tmp_path: Path
) -> None:
    outside = tmp_path / "diffs"
    outside.mkdir()
    (outside / "fix.diff").write_text(DIFF)
    (dirty.path / "patches").mkdir()
    (dirty.path / "patches" / "fix.diff").write_text(DIFF)
    (dirty.path / "elsewhere").symlink_to(outside, target_is_directory=True)
    async with legacy(server) as client:
        for tool, extra in (
            ("load_diff", {}),
            ("list_chunks", {}),
            ("get_chunk", {"chunk_number": 1}),
            ("find_chunks_for_files", {"pattern": "*"}),
            ("get_file_diff", {"file_path": "x.py"}),
        ):
            given = outside / "fix.diff"
            assert await error(client, tool, absolute_file_path=str(given), **extra) == refusal(given, dirty)
        through_link = dirty.path / "elsewhere" / "fix.diff"
        assert await error(client, "load_diff", absolute_file_path=str(through_link)) == refusal(
            through_link, dirty, outside / "fix.diff"
        )
        assert (await data(client, "load_diff", absolute_file_path=str(dirty.path / "patches" / "fix.diff")))[
            "files"
        ] == 1
        assert (await data(client, "list_chunks", absolute_file_path="working-tree"))["total_chunks"] >= 1


async def test_an_allowed_folder_is_served_too(session: Session, dirty: Repo, tmp_path: Path) -> None:
    other = other_repository(tmp_path)
    (other.path / "fix.diff").write_text(DIFF)
    server = build_server(session, allowed_roots=[str(other.path)])
    async with legacy(server) as client:
        assert (await data(client, "load_diff", absolute_file_path=str(other.path / "fix.diff")))["files"] == 1
        assert (await data(client, "configure_project", path=str(other.path)))["root"] == os.path.realpath(other.path)
        elsewhere = tmp_path / "elsewhere.diff"
        elsewhere.write_text(DIFF)
        assert await error(client, "load_diff", absolute_file_path=str(elsewhere)) == (
            f"{elsewhere} is outside the repository {os.path.realpath(dirty.path)} and the allowed folder "
            f"{os.path.realpath(other.path)}, the only folders Segmint's tools read and write {ALLOW}"
        )


def test_segmint_mcp_takes_allow_root(dirty: Repo, tmp_path: Path) -> None:
    outside = tmp_path / "diffs"
    outside.mkdir()
    (outside / "fix.diff").write_text(DIFF)
    with McpProcess("--allow-root", str(outside), cwd=dirty.path) as server:
        server.initialize()
        loaded = server.call(2, "load_diff", absolute_file_path=str(outside / "fix.diff"))
        assert loaded["isError"] is False and loaded["structuredContent"]["files"] == 1
        assert server.close() == 0
    with McpProcess(cwd=dirty.path) as server:
        server.initialize()
        refused = server.call(2, "load_diff", absolute_file_path=str(outside / "fix.diff"))
        assert refused["isError"] and refused["content"][0]["text"] == refusal(outside / "fix.diff", dirty)
        assert server.close() == 0


def test_allow_root_must_name_a_folder(dirty: Repo, tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    for command in (["mcp", "--allow-root", str(missing)], ["--allow-root", str(missing), "mcp"]):
        done = subprocess.run(
            [sys.executable, "-m", "segmint", *command],
            cwd=dirty.path,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
        )
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == f"segmint: --allow-root {missing} is not a folder.\n"


def test_an_agent_joining_the_tui_keeps_to_the_folders_the_tui_allows(
    session: Session, dirty: Repo, tmp_path: Path
) -> None:
    allowed, other = tmp_path / "allowed", tmp_path / "other"
    for folder in (allowed, other):
        folder.mkdir()
        (folder / "fix.diff").write_text(DIFF)
    with EmbeddedThread(session, allowed_roots=(str(allowed),)), McpProcess(cwd=dirty.path) as agent:
        agent.initialize()
        assert agent.call(2, "get_session")["structuredContent"]["person_present"] is True
        assert agent.call(3, "load_diff", absolute_file_path=str(allowed / "fix.diff"))["isError"] is False
        refused = agent.call(4, "load_diff", absolute_file_path=str(other / "fix.diff"))
        assert refused["isError"] and refused["content"][0]["text"].startswith(f"{other / 'fix.diff'} is outside")
        assert agent.close() == 0
