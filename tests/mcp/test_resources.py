"""Resources, and their update notifications for 2025-era and current clients."""

from __future__ import annotations

import json
import threading

import anyio
import pytest
from mcp.server import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import ResourceUpdatedNotification

from segmint_core.mcp.server import build_server
from segmint_core.session.session import Session
from tests.mcp.support import data, legacy, modern, subscribe, unsubscribe
from tests.support.repo import Repo

SESSION = "segmint://session"
MESSAGES = "lazygit://messages"
CHUNKS = "diffchunk://current"


class Inbox:
    """Collects ``notifications/resources/updated`` a client receives."""

    def __init__(self) -> None:
        self.uris: list[str] = []
        self.arrived = anyio.Event()

    async def __call__(self, message: object) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            self.uris.append(message.params.uri)
            self.arrived.set()

    async def next(self, timeout: float = 2.0) -> str:
        with anyio.fail_after(timeout):
            await self.arrived.wait()
        self.arrived = anyio.Event()
        return self.uris[-1]


def as_the_person(action) -> None:
    """The TUI edits the session from its own thread."""
    thread = threading.Thread(target=action)
    thread.start()
    thread.join()


async def test_resources_are_listed_and_readable(server: MCPServer, session: Session) -> None:
    async with legacy(server) as client:
        listed = {r.uri: r for r in (await client.list_resources()).resources}
        assert set(listed) == {SESSION, CHUNKS, MESSAGES}
        seed = listed[MESSAGES]
        assert (seed.name, seed.description, seed.mime_type) == (
            "Lazygit Messages",
            "Messages from lazygit for code improvement",
            "text/plain",
        )
        state = (await client.read_resource(SESSION)).contents[0]
        assert state.mime_type == "application/json" and json.loads(state.text) == session.snapshot()
        assert (await client.read_resource(MESSAGES)).contents[0].text == "No new messages from lazygit"
        await data(client, "list_chunks", absolute_file_path="working-tree")
        overview = json.loads((await client.read_resource(CHUNKS)).contents[0].text)
        assert overview["total_sessions"] == 1


async def test_reading_messages_as_a_resource_leaves_them_queued(server: MCPServer, session: Session) -> None:
    session.add_review_message("README.md", "Shorter, please", line=3)
    async with legacy(server) as client:
        for _ in range(2):
            text = (await client.read_resource(MESSAGES)).contents[0].text
            assert "File: README.md\nLine: 3\nComment: Shorter, please" in text
        assert (await data(client, "check_lazygit_messages"))["count"] == 1


async def test_2025_subscribers_hear_of_the_persons_edits(server: MCPServer, session: Session) -> None:
    inbox = Inbox()
    async with legacy(server, message_handler=inbox) as client:
        await subscribe(client, SESSION)
        await subscribe(client, MESSAGES)
        await data(client, "group_changes")
        assert await inbox.next() == SESSION
        group = session.groups[0].id
        as_the_person(lambda: session.update_group(group, "Renamed in the TUI"))
        assert await inbox.next() == SESSION
        as_the_person(lambda: session.add_review_message("README.md", "Typo", line=1))
        assert await inbox.next() == MESSAGES
        await unsubscribe(client, SESSION)
        as_the_person(lambda: session.update_group(group, "Renamed again"))
        await anyio.sleep(0.3)
        assert inbox.uris.count(SESSION) == 2, "no notification after unsubscribing"


async def test_subscribers_hear_of_edits_a_tui_in_another_process_saved(dirty: Repo) -> None:
    """The agent's `segmint mcp` started first and serves the session itself; the person edits in a TUI."""
    server = build_server(Session.open(str(dirty.path)))
    tui = Session.open(str(dirty.path))  # its own lock and state, as in another process
    inbox = Inbox()
    async with legacy(server, message_handler=inbox) as client, modern(server) as current:
        await subscribe(client, SESSION)
        await data(client, "group_changes")
        assert await inbox.next() == SESSION
        async with current.listen(resource_subscriptions=[SESSION]) as events:
            group = tui.snapshot()["groups"][0]["id"]
            as_the_person(lambda: tui.update_group(group, "Renamed in the TUI"))
            assert await inbox.next(timeout=5) == SESSION
            with anyio.fail_after(5):
                assert (await events.__anext__()).uri == SESSION
        assert (await data(client, "get_session"))["groups"][0]["summary"] == "Renamed in the TUI"


async def test_current_clients_listen(server: MCPServer, session: Session) -> None:
    async with modern(server) as client:
        async with client.listen(resource_subscriptions=[SESSION, MESSAGES]) as events:
            as_the_person(lambda: session.add_review_message("README.md", "Typo", line=1))
            with anyio.fail_after(2):
                event = await events.__anext__()
            assert event.uri == MESSAGES
            await data(client, "group_changes")
            with anyio.fail_after(2):
                event = await events.__anext__()
            assert event.uri == SESSION


async def test_loading_a_diff_updates_the_chunks_resource(server: MCPServer) -> None:
    inbox = Inbox()
    async with legacy(server, message_handler=inbox) as client:
        await subscribe(client, CHUNKS)
        await data(client, "list_chunks", absolute_file_path="working-tree")
        assert await inbox.next() == CHUNKS


async def test_subscribing_to_an_unknown_resource_is_an_error(server: MCPServer) -> None:
    async with legacy(server) as client:
        with pytest.raises(MCPError, match="Unknown resource: segmint://nope"):
            await subscribe(client, "segmint://nope")
