"""The server inside the TUI: streamable HTTP on 127.0.0.1, a bearer token, Host and Origin checks."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from pathlib import Path

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from segmint_core.mcp.discovery import find_endpoint
from segmint_core.mcp.embedded import EmbeddedServer, EndpointInfo
from segmint_core.session.session import Session
from tests.mcp.support import data
from tests.support.repo import Repo


async def started(server: EmbeddedServer) -> tuple[asyncio.Task[None], EndpointInfo]:
    ready = asyncio.Event()
    task = asyncio.create_task(server.serve(ready=lambda _info: ready.set()))
    await asyncio.wait_for(ready.wait(), 30)
    assert server.info is not None
    return task, server.info


def private(path: str) -> bool:
    mode = os.stat(path).st_mode
    return stat.S_IMODE(mode) == 0o600


async def test_endpoint_files_auth_and_header_checks(session: Session, dirty: Repo) -> None:
    server = EmbeddedServer(session)
    task, info = await started(server)
    try:
        assert info.url == f"http://127.0.0.1:{info.port}/mcp"
        endpoint = json.loads(Path(info.discovery_file).read_text())
        assert (endpoint["url"], endpoint["pid"], endpoint["root"]) == (info.url, os.getpid(), str(dirty.path))
        assert Path(endpoint["token_file"]).read_text().strip() == info.token
        assert private(info.discovery_file) and private(info.token_file)
        good = {"Authorization": f"Bearer {info.token}"}
        identity = f"http://127.0.0.1:{info.port}/segmint"
        async with httpx2.AsyncClient() as http:
            assert (await http.get(identity, headers=good)).json()["root"] == str(dirty.path)
            assert (await http.get(identity)).status_code == 401
            assert (await http.post(info.url, headers={"Authorization": "Bearer wrong"}, json={})).status_code == 401
            assert (await http.get(identity, headers={**good, "Host": "evil.example"})).status_code == 421
            assert (await http.get(identity, headers={**good, "Origin": "http://evil.example"})).status_code == 403
            assert (
                await http.get(identity, headers={**good, "Origin": f"http://localhost:{info.port}"})
            ).status_code == 200
        found = await anyio.to_thread.run_sync(find_endpoint, str(dirty.path))
        assert found is not None and found.url == info.url
    finally:
        server.stop()
        await asyncio.wait_for(task, 30)
    assert not os.path.exists(info.discovery_file) and not os.path.exists(info.token_file)
    assert await anyio.to_thread.run_sync(find_endpoint, str(dirty.path)) is None


async def test_an_agent_over_http_works_on_the_persons_session(session: Session, dirty: Repo) -> None:
    server = EmbeddedServer(session)
    task, info = await started(server)
    try:
        headers = {"Authorization": f"Bearer {info.token}"}
        for mode in ("legacy", "auto"):
            async with (
                httpx2.AsyncClient(headers=headers, timeout=30) as http,
                Client(streamable_http_client(info.url, http_client=http), mode=mode) as client,
            ):
                listed = await data(client, "list_changes")
                assert [c["id"] for c in listed["changes"]] == [c.id for c in session.changes]
                commit = (await data(client, "propose_commits"))["commits"][0]["id"]
                waiting = await data(client, "apply_commit", commit_id=commit)
                assert waiting["status"] == "awaiting_approval", "a person is present: the agent waits"
                assert session.plan(commit).status == "awaiting_approval"
    finally:
        server.stop()
        await asyncio.wait_for(task, 30)


async def test_cancelling_the_worker_shuts_down_cleanly(session: Session) -> None:
    server = EmbeddedServer(session)
    task, info = await started(server)
    task.cancel()
    try:
        await asyncio.wait_for(task, 30)
    except asyncio.CancelledError:
        pass
    assert not os.path.exists(info.discovery_file)


async def test_a_stop_before_serving_began_is_kept(session: Session, dirty: Repo) -> None:
    """``stop()`` as the app quits, before the server's task has run: it ends at once, never listening."""
    server = EmbeddedServer(session)
    task = asyncio.create_task(server.serve(ready=lambda _info: None))
    server.stop()
    await asyncio.wait_for(task, 5)
    assert server.info is None
    assert not list((dirty.path / ".git" / "segmint").glob("mcp-endpoint-*"))
    assert session.own_presence.person_present is False, "the presence it set is put back"
