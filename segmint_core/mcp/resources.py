"""The resources: the live session, the loaded diffs, and the pending review messages.

Each can be subscribed to (``resources/subscribe`` for 2025-era clients,
``subscriptions/listen`` for current ones); ``ResourceNotifier`` tells
subscribers when one changes.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError

from segmint_core.errors import SegmintError
from segmint_core.mcp.services import Services, in_thread
from segmint_core.mcp.tools.chunks import CHUNKS_URI
from segmint_core.review import format_messages

SESSION_URI = "segmint://session"
MESSAGES_URI = "lazygit://messages"
URIS = (SESSION_URI, CHUNKS_URI, MESSAGES_URI)


def register(server: MCPServer, services: Services) -> None:
    @server.resource(
        SESSION_URI,
        name="Segmint Session",
        mime_type="application/json",
        description="The live session: changes, groups, commit plans, approvals, PR draft, activity.",
    )
    @_answered
    async def session_state() -> str:
        snapshot = await in_thread(lambda: services.session.snapshot())
        return json.dumps(snapshot, ensure_ascii=False, indent=1)

    @server.resource(
        CHUNKS_URI,
        name="Diff Chunks",
        mime_type="application/json",
        description="Overview of the loaded diffs (diffchunk): chunks, files and lines of each.",
    )
    @_answered
    async def chunks_overview() -> str:
        return await in_thread(services.chunks.current_resource)

    @server.resource(
        MESSAGES_URI,
        name="Lazygit Messages",
        mime_type="text/plain",
        description="Messages from lazygit for code improvement",
    )
    @_answered
    async def review_messages() -> str:
        # Peeking: the messages stay queued until check_lazygit_messages reads them.
        return format_messages(await in_thread(lambda: services.session.peek_review_messages()))


def _answered(read: Callable[[], Awaitable[str]]) -> Callable[[], Awaitable[str]]:
    """A ``SegmintError`` (not a repository, ...) becomes the read's error message, not a crash report."""

    @functools.wraps(read)
    async def guarded() -> str:
        try:
            return await read()
        except SegmintError as exc:
            raise ResourceError(str(exc)) from None

    return guarded
