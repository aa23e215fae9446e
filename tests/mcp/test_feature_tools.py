"""The chunk, trajectory and review-message tools, registered from their services."""

from __future__ import annotations

from mcp.server import MCPServer

from segmint_core.session.session import Session
from tests.mcp.support import data, error, legacy, text
from tests.support.repo import Repo


async def test_chunk_tools_read_the_working_tree(server: MCPServer) -> None:
    async with legacy(server) as client:
        listed = await data(client, "list_chunks", absolute_file_path="working-tree")
        assert listed["total_chunks"] >= 1
        chunk = await data(client, "get_chunk", absolute_file_path="working-tree", chunk_number=1)
        assert "src/parser.py" in chunk["content"]
        found = await data(client, "find_chunks_for_files", absolute_file_path="working-tree", pattern="*.py")
        assert found["chunks"] == [1]
        message = await error(client, "get_chunk", absolute_file_path="working-tree", chunk_number=99)
        assert message.startswith("Chunk 99 does not exist")


async def test_trajectory_tools_need_a_project_first(server: MCPServer, dirty: Repo) -> None:
    async with legacy(server) as client:
        assert await error(client, "get_session_summary") == (
            "No project configured: call configure_project with an absolute path first."
        )
        intent = await data(client, "set_trajectory_intent", intent="Fix the parser")
        assert intent["intent"] == "Fix the parser"
        assert await error(client, "configure_project", path="relative/path") == "path must be absolute: relative/path"


async def test_check_lazygit_messages_reads_each_message_once(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        empty = await client.call_tool("check_lazygit_messages", {})
        assert text(empty) == "No new messages from lazygit"
        assert empty.structured_content == {"count": 0, "messages": []}
        session.add_review_message("src/parser.py", "Why lower()?", line=6)
        session.add_review_message("README.md", "Mention the case change", hunk_id="change-1:1")
        result = await client.call_tool("check_lazygit_messages", {})
        assert result.structured_content["count"] == 2
        first, second = result.structured_content["messages"]
        assert (first["file"], first["line"], first["comment"]) == ("src/parser.py", 6, "Why lower()?")
        assert second["hunk_id"] == "change-1:1"
        assert text(result).startswith("Message 1:\nFile: src/parser.py\nLine: 6\nComment: Why lower()?\nTime: ")
        assert "\n\n--------------------------------------------------\n\nMessage 2:\nFile: README.md\n" in text(result)
        assert text(await client.call_tool("check_lazygit_messages", {})) == "No new messages from lazygit"


async def test_progress_is_reported_when_asked_for(server: MCPServer) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, total, message))

    async with legacy(server) as client:
        result = await client.call_tool("group_changes", {}, progress_callback=progress)
        assert not result.is_error
    assert seen and all(total is not None and 0 <= done <= total for done, total, _ in seen)
    assert any("embedding" in (message or "") for *_, message in seen)


async def test_an_agent_declares_a_task_and_finishes_it_in_the_provenance_record(
    server: MCPServer, dirty: Repo
) -> None:
    """One intent per task: declared before editing, finished after; the edits between are recorded under it."""
    from segmint_core.trajectory.provenance import current_intent, record_edit

    async with legacy(server) as client:
        declared = await data(client, "set_trajectory_intent", intent="Fix the crash on an empty config")
        assert declared["recorded_in"] == str(dirty.path.resolve())
        intent = current_intent(dirty.path, source="mcp")
        assert (intent.text, intent.source) == ("Fix the crash on an empty config", "mcp")
        record_edit(dirty.path, ["src/parser.py"], source="mcp")
        finished = await data(client, "finish_trajectory_intent")
        assert finished["finished"] == "Fix the crash on an empty config"
        assert current_intent(dirty.path, source="mcp") is None
        assert (await data(client, "finish_trajectory_intent"))["finished"] is None


async def test_an_agent_without_hooks_gets_its_edits_planned_by_the_tasks_it_declared(
    server: MCPServer, dirty: Repo
) -> None:
    """An agent that only declares its tasks over MCP (no hook records its edits) still gets one commit
    per task: what changed while a task was current is that task's. Proposing reads the edits."""
    async with legacy(server) as client:
        await data(client, "set_trajectory_intent", intent="Count the rules")
        dirty.write("src/count.py", "from parser import rule_0\n\nRULES = 12\n")
        await data(client, "set_trajectory_intent", intent="Greet the reader in the docs")
        dirty.write("docs/welcome.md", "# Welcome\n\nHello, reader.\n")
        await data(client, "finish_trajectory_intent")
        plans = (await data(client, "propose_commits"))["commits"]
    files = {p["title"]: p["change_ids"] + p["hunk_ids"] for p in plans}
    titled = {title for title in files if "count the rules" in title.lower() or "greet the reader" in title.lower()}
    assert len(titled) == 2, list(files)
