"""``segmint mcp`` started while a TUI runs on the repository: it joins the person's session."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from segmint_core.mcp import discovery
from segmint_core.session.session import Session
from tests.mcp.embedded_thread import EmbeddedThread
from tests.mcp.process import McpProcess
from tests.support.repo import Repo


def test_joins_the_tui_session_and_looks_like_the_headless_server(session: Session, dirty: Repo) -> None:
    with McpProcess(cwd=dirty.path) as headless:
        headless.initialize()
        headless_tools = headless.request(2, "tools/list")["result"]["tools"]
        assert headless.call(3, "get_session")["structuredContent"]["person_present"] is False
        headless.close()
    with EmbeddedThread(session), McpProcess(cwd=dirty.path) as agent:
        assert agent.initialize()["result"]["serverInfo"]["name"] == "segmint"
        assert agent.request(2, "tools/list")["result"]["tools"] == headless_tools
        assert agent.call(3, "get_session")["structuredContent"]["person_present"] is True
        listed = agent.call(4, "list_changes")
        assert json.loads(listed["content"][0]["text"]) == listed["structuredContent"]
        agent.call(5, "group_changes")
        assert agent.request(6, "resources/subscribe", {"uri": "segmint://session"})["result"] == {}
        session.update_group(session.groups[0].id, "Renamed by the person")  # in the TUI
        assert agent.notification("notifications/resources/updated")["params"] == {"uri": "segmint://session"}
        state = agent.call(7, "get_session")["structuredContent"]
        assert state["groups"][0]["summary"] == "Renamed by the person"
        assert agent.close() == 0
        agent.assert_pure_json_rpc()


def test_when_the_tui_quits_the_agent_carries_on_headless(session: Session, dirty: Repo) -> None:
    tui = EmbeddedThread(session)
    with tui, McpProcess(cwd=dirty.path) as agent:
        agent.initialize()
        assert agent.call(2, "get_session")["structuredContent"]["person_present"] is True
        tui.stop()
        first = agent.request(3, "tools/call", {"name": "get_session", "arguments": {}})
        if "error" in first:  # the request that found the TUI gone
            assert first["error"]["message"].startswith("The Segmint TUI closed")
        again = agent.call(4, "get_session")
        assert again["structuredContent"]["person_present"] is False
        assert agent.call(5, "list_changes")["isError"] is False
        assert agent.close() == 0
        agent.assert_pure_json_rpc()


def test_a_tui_that_quit_while_the_agent_was_idle_costs_the_agent_no_failed_call(session: Session, dirty: Repo) -> None:
    tui = EmbeddedThread(session)
    with tui, McpProcess(cwd=dirty.path) as agent:
        agent.initialize()
        assert agent.call(2, "get_session")["structuredContent"]["person_present"] is True
        tui.stop()
        time.sleep(2)  # the agent thinks for a while; the relay notices the TUI is gone
        answer = agent.request(3, "tools/call", {"name": "get_session", "arguments": {}})
        assert "error" not in answer, answer
        assert answer["result"]["structuredContent"]["person_present"] is False
        assert agent.close() == 0
        agent.assert_pure_json_rpc()


def test_a_request_the_agent_cancelled_is_not_answered_when_the_tui_quits(session: Session, dirty: Repo) -> None:
    started = dirty.path / "hook-started"
    dirty.write(".git/hooks/pre-commit", f"#!/bin/sh\ntouch '{started}'\nsleep 3\n").chmod(0o755)
    tui = EmbeddedThread(session, agent_can_commit=True)
    with tui, McpProcess(cwd=dirty.path) as agent:
        agent.initialize()
        commit = agent.call(2, "propose_commits")["structuredContent"]["commits"][0]["id"]
        agent.send(
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "apply_commit", "arguments": {"commit_id": commit}},
            }
        )
        deadline = time.monotonic() + 30
        while not started.exists():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        agent.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}})
        time.sleep(0.5)
        tui.stop()
        time.sleep(1)  # the relay notices and carries on headless
        assert agent.call(4, "get_session")["structuredContent"]["person_present"] is False
        assert agent.close() == 0
        agent.assert_pure_json_rpc()
        assert 3 not in [json.loads(line).get("id") for line in agent.raw], "a cancelled request gets no answer"


def test_a_stale_endpoint_file_is_ignored(session: Session, dirty: Repo) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    folder = session.folder
    endpoint = discovery.Endpoint(
        pid=gone.pid,
        url="http://127.0.0.1:9/mcp",
        host="127.0.0.1",
        port=9,
        token_file=str(discovery.token_path(folder, gone.pid, 9)),
        root=str(dirty.path),
        started="2026-01-01T00:00:00Z",
        version="0",
    )
    discovery.publish(folder, endpoint, "token")
    assert discovery.find_endpoint(str(dirty.path)) is None
    with McpProcess(cwd=dirty.path) as agent:
        agent.initialize()
        assert agent.call(2, "get_session")["structuredContent"]["person_present"] is False
        assert agent.close() == 0


def test_a_second_tui_leaves_the_first_ones_entry_alone(dirty: Repo) -> None:
    """Each TUI publishes and withdraws only its own files: the one that quits first hides nobody else."""
    first, second = EmbeddedThread(Session.open(str(dirty.path))), EmbeddedThread(Session.open(str(dirty.path)))
    with first as first_info:
        with second as second_info:
            assert discovery.find_endpoint(str(dirty.path)).url == second_info.url, "the newest is joined"
            assert Path(first_info.discovery_file).exists() and Path(first_info.token_file).exists()
        assert not Path(second_info.discovery_file).exists() and not Path(second_info.token_file).exists()
        assert Path(first_info.discovery_file).exists() and Path(first_info.token_file).exists()
        assert discovery.find_endpoint(str(dirty.path)).url == first_info.url
        with McpProcess(cwd=dirty.path) as agent:  # joins the first TUI, not headless
            agent.initialize()
            assert agent.call(2, "get_session")["structuredContent"]["person_present"] is True
            assert agent.close() == 0
    assert discovery.find_endpoint(str(dirty.path)) is None
