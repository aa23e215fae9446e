"""Seed 004 over stdio: the bridge's request/response examples, and ``segmint send`` reaching a subscribed agent."""

from __future__ import annotations

import json
import time

import anyio
from mcp.server import MCPServer

from segmint_core.session.session import Session
from tests.mcp.process import McpProcess
from tests.mcp.support import data, legacy, modern, subscribe
from tests.mcp.test_resources import Inbox
from tests.support.cli import run_segmint
from tests.support.repo import Repo

MESSAGES = "lazygit://messages"
NO_MESSAGES = "No new messages from lazygit"


def test_the_seed_examples_replayed_over_stdio(dirty: Repo) -> None:
    with McpProcess(cwd=dirty.path) as server:
        # 1. initialize: resources with subscribe and listChanged, tools
        init = server.request(1, "initialize", {"protocolVersion": "2024-11-05", "capabilities": {}})["result"]
        assert init["protocolVersion"] == "2024-11-05"
        assert init["capabilities"]["resources"] == {"subscribe": True, "listChanged": True}
        assert init["capabilities"]["tools"] == {"listChanged": False}
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        # 2. tools/list (no params at all, as some clients send it)
        tools = {t["name"]: t for t in server.request(2, "tools/list")["result"]["tools"]}
        check = tools["check_lazygit_messages"]
        assert check["description"].startswith("Check for new messages from lazygit")
        assert check["inputSchema"]["type"] == "object" and not check["inputSchema"].get("properties")
        # 3. tools/call, empty then with two messages
        empty = server.request(3, "tools/call", {"name": "check_lazygit_messages", "arguments": {}})["result"]
        assert empty["content"] == [{"type": "text", "text": NO_MESSAGES}]
        for file, line, comment in (
            ("src/parser.py", "2", "This function needs error handling"),
            ("README.md", "3", "Add input validation"),
        ):
            assert (
                run_segmint("send", "--file", file, "--line", line, "--comment", comment, cwd=dirty.path).returncode
                == 0
            )
        # 4. resources/list
        resources = {r["uri"]: r for r in server.request(4, "resources/list")["result"]["resources"]}
        assert resources[MESSAGES] == {
            "uri": MESSAGES,
            "name": "Lazygit Messages",
            "description": "Messages from lazygit for code improvement",
            "mimeType": "text/plain",
        }
        # 5. resources/read: both messages, still queued afterwards
        [contents] = server.request(5, "resources/read", {"uri": MESSAGES})["result"]["contents"]
        assert (contents["uri"], contents["mimeType"]) == (MESSAGES, "text/plain")
        text = contents["text"]
        assert text.startswith(
            "Message 1:\nFile: src/parser.py\nLine: 2\nComment: This function needs error handling\n"
        )
        assert "\n\nPlease improve this code.\n\n" + "-" * 50 + "\n\nMessage 2:\nFile: README.md\nLine: 3\n" in text
        called = server.request(6, "tools/call", {"name": "check_lazygit_messages", "arguments": {}})["result"]
        assert called["content"][0]["text"] == text, "the tool shows what the resource showed, then clears it"
        assert called["structuredContent"]["count"] == 2
        again = server.request(7, "tools/call", {"name": "check_lazygit_messages", "arguments": {}})["result"]
        assert again["content"][0]["text"] == NO_MESSAGES
        assert server.close() == 0
        server.assert_pure_json_rpc()


def test_segmint_send_notifies_a_subscribed_stdio_client(dirty: Repo) -> None:
    with McpProcess(cwd=dirty.path) as server:
        server.initialize()
        assert server.request(2, "resources/subscribe", {"uri": MESSAGES})["result"] == {}
        sent = time.monotonic()
        assert run_segmint("send", "--file", "README.md", "--comment", "From lazygit", cwd=dirty.path).returncode == 0
        update = server.notification("notifications/resources/updated")
        assert update["params"] == {"uri": MESSAGES}
        assert time.monotonic() - sent < 3.0, "within a second of the write (plus the send process's start)"
        first = server.call(3, "check_lazygit_messages")
        assert first["structuredContent"]["count"] == 1
        assert first["structuredContent"]["messages"][0]["comment"] == "From lazygit"
        assert server.call(4, "check_lazygit_messages")["structuredContent"]["count"] == 0
        assert server.close() == 0
        server.assert_pure_json_rpc()


async def test_segmint_send_reaches_in_memory_clients_of_both_eras(
    server: MCPServer, session: Session, dirty: Repo
) -> None:
    inbox = Inbox()
    async with legacy(server, message_handler=inbox) as old, modern(server) as current:
        await subscribe(old, MESSAGES)
        async with current.listen(resource_subscriptions=[MESSAGES]) as events:
            result = await anyio.to_thread.run_sync(
                lambda: run_segmint("send", "--file", "README.md", "--line", "1", "--comment", "Typo", cwd=dirty.path)
            )
            assert result.returncode == 0
            sent = time.monotonic()
            assert await inbox.next(timeout=2) == MESSAGES
            with anyio.fail_after(2):
                assert (await events.__anext__()).uri == MESSAGES
            assert time.monotonic() - sent < 1.0
        taken = await data(current, "check_lazygit_messages")
        assert [m["comment"] for m in taken["messages"]] == ["Typo"]
        assert (await data(old, "check_lazygit_messages"))["count"] == 0, "returned once, to one reader"


def test_a_file_name_that_is_not_utf_8_reaches_the_agent_escaped(dirty: Repo) -> None:
    dirty.write("caf\udce9.txt", "one line\n")  # the name's byte 0xe9 is Latin-1, not UTF-8
    sent = run_segmint("send", "--file", "caf\udce9.txt", "--line", "1", "--comment", "Rename it", cwd=dirty.path)
    assert (sent.returncode, sent.stdout) == (0, "Sent to the agent: caf\\xe9.txt:1 (1 waiting)\n")
    other = run_segmint("send", "--file", "README.md", "--comment", "And this", cwd=dirty.path)
    assert other.stdout == "Sent to the agent: README.md (2 waiting)\n", "the queue is still readable"
    with McpProcess(cwd=dirty.path) as server:
        server.initialize()
        [contents] = server.request(2, "resources/read", {"uri": MESSAGES})["result"]["contents"]
        assert contents["text"].startswith("Message 1:\nFile: caf\\xe9.txt\nLine: 1\nComment: Rename it\n")
        called = server.request(3, "tools/call", {"name": "check_lazygit_messages", "arguments": {}})["result"]
        assert [m["file"] for m in called["structuredContent"]["messages"]] == ["caf\\xe9.txt", "README.md"]
        assert server.close() == 0
        server.assert_pure_json_rpc()


def test_a_queue_an_older_version_saved_with_a_raw_name_is_read_not_dropped(dirty: Repo) -> None:
    queue = dirty.path / ".git" / "segmint" / "messages.json"
    queue.parent.mkdir(parents=True, exist_ok=True)
    entry = {
        "file": "caf\udce9.txt",
        "comment": "Rename it",
        "project_root": str(dirty.path.resolve()),
        "time": "2026-01-01T12:00:00Z",
        "line": 1,
        "hunk_id": None,
    }
    saved = json.dumps({"format": 1, "messages": [entry]}, ensure_ascii=False)
    queue.write_bytes(saved.encode("utf-8", "surrogatepass"))
    with McpProcess(cwd=dirty.path) as server:
        server.initialize()
        called = server.request(2, "tools/call", {"name": "check_lazygit_messages", "arguments": {}})["result"]
        assert [m["file"] for m in called["structuredContent"]["messages"]] == ["caf\\xe9.txt"]
        assert server.close() == 0
