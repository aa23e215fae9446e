"""``segmint mcp`` as a real process: a client's line-by-line sequence, stdout hygiene, end of input."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from segmint_core.mcp.stdio import DRAIN_SECONDS
from tests.mcp.process import McpProcess
from tests.support.repo import Repo

SEED_SEQUENCE = [
    (
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},'
        '"clientInfo":{"name":"test","version":"1.0.0"}}}'
    ),
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}',
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_changes","arguments":{}}}',
    (
        '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"group_changes",'
        '"arguments":{"change_ids":["change-1","change-2"]}}}'
    ),
]


def test_the_seed_sequence_line_by_line(dirty: Repo) -> None:
    with McpProcess(cwd=dirty.path) as server:
        answers = {}
        for line in SEED_SEQUENCE:
            server.send(line.encode() + b"\n")
            message = json.loads(line)
            if "id" in message:
                answers[message["id"]] = server.answer(message["id"])
        assert answers[1]["result"]["protocolVersion"] == "2024-11-05"
        assert answers[1]["result"]["serverInfo"]["name"] == "segmint"
        assert "list_changes" in [t["name"] for t in answers[2]["result"]["tools"]]
        listed = answers[3]["result"]
        assert listed["isError"] is False
        assert json.loads(listed["content"][0]["text"]) == listed["structuredContent"]
        assert [c["id"] for c in listed["structuredContent"]["changes"]] == [f"change-{n}" for n in range(1, 5)]
        grouped = answers[4]["result"]["structuredContent"]
        assert {c for g in grouped["groups"] for c in g["change_ids"]} >= {"change-1", "change-2"}
        assert server.close() == 0
        server.assert_pure_json_rpc()


def test_piped_input_is_answered_in_full(dirty: Repo) -> None:
    """``printf '...' | segmint mcp``: end of input waits for the answers still being worked on."""
    proc = subprocess.run(
        [sys.executable, "-m", "segmint", "mcp"],
        cwd=dirty.path,
        capture_output=True,
        input="\n".join(SEED_SEQUENCE).encode() + b"\n",
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert sorted(json.loads(line)["id"] for line in lines) == [1, 2, 3, 4]
    assert b"Traceback" not in proc.stderr


def test_outside_a_repository_it_still_serves_and_says_why(tmp_path) -> None:
    with McpProcess(cwd=tmp_path) as server:
        server.initialize()
        result = server.call(2, "list_changes")
        assert result["isError"] is True
        assert result["content"][0]["text"].startswith("Not a git repository")
        assert server.call(3, "get_current_overview")["isError"] is False, "diff-file tools need no repository"
        state = server.request(4, "resources/read", {"uri": "segmint://session"})
        assert state["error"]["message"].startswith("Not a git repository")
        assert server.close() == 0
        server.assert_pure_json_rpc()
        assert "Traceback" not in server.stderr()


def test_end_of_input_does_not_wait_for_a_request_the_client_cancelled(dirty: Repo) -> None:
    """A cancelled request gets no answer; the server must not wait DRAIN_SECONDS for one."""
    started = dirty.path / "hook-started"
    hook = dirty.write(".git/hooks/pre-commit", f"#!/bin/sh\ntouch '{started}'\nsleep 2\n")
    hook.chmod(0o755)
    with McpProcess(cwd=dirty.path) as server:
        server.initialize()
        commit = server.call(2, "propose_commits")["structuredContent"]["commits"][0]["id"]
        server.send(
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "apply_commit", "arguments": {"commit_id": commit}},
            }
        )
        deadline = time.monotonic() + 30
        while not started.exists():  # the commit is under way
            assert time.monotonic() < deadline, server.stderr()
            time.sleep(0.05)
        server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}})
        assert server.request(4, "ping", {})["result"] == {}
        began = time.monotonic()
        assert server.close() == 0
        assert time.monotonic() - began < DRAIN_SECONDS / 3
        server.assert_pure_json_rpc()
        assert 3 not in [json.loads(line).get("id") for line in server.raw]


def test_ctrl_c_ends_the_server_while_the_client_still_holds_its_input_open(dirty: Repo) -> None:
    """Ctrl-C in the terminal reaches `segmint mcp` too: it ends, not waiting for a line that never comes."""
    with McpProcess(cwd=dirty.path) as server:
        server.initialize()
        assert server.request(2, "ping", {})["result"] == {}
        server.proc.send_signal(signal.SIGINT)
        assert server.proc.wait(timeout=10) == 130
        assert server.stderr().strip() == "segmint: interrupted"
        server.assert_pure_json_rpc()
