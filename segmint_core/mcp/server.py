"""Assembling the MCP server over a session: tools, resources, prompt, notifications.

``build_server(session)`` gives an ``MCPServer`` for any transport: stdio
(``segmint mcp``), streamable HTTP (embedded in the TUI), or the SDK's
in-memory ``Client`` in tests. While at least one connection is served, the
session's events become resource-update notifications, the review-message
queue is watched for comments from other processes (``segmint send``), and the
saved session for their edits (a TUI's, when this server serves the session itself).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

from mcp.server import MCPServer, NotificationOptions
from mcp_types import SubscribeRequestParams, UnsubscribeRequestParams

from segmint_core import __version__
from segmint_core.chunks.service import ChunkService
from segmint_core.errors import SegmintError
from segmint_core.mcp import prompt, resources
from segmint_core.mcp.listing import serve_lean_listing
from segmint_core.mcp.middleware import prompt_errors, request_errors, tidy_argument_errors
from segmint_core.mcp.notify import ResourceNotifier
from segmint_core.mcp.services import Services, SessionRef, in_thread
from segmint_core.mcp.tools import changes, checks, chunks, history, pairing, review, trajectory
from segmint_core.review.watch import SignatureWatcher
from segmint_core.session import events
from segmint_core.session.events import SessionEvent
from segmint_core.session.session import Session
from segmint_core.session.shared import file_stamp
from segmint_core.session.state import STATE_FILE
from segmint_core.trajectory.service import TrajectoryService

log = logging.getLogger("segmint.mcp")

NAME = "segmint"
INSTRUCTIONS = (
    "Segmint segments a dirty git working tree into commits by intent. list_changes, group_changes, "
    "propose_commits, apply_commit and generate_pr go from changes to commits to a PR draft; get_session, "
    "move_hunks, move_lines, merge_groups, update_group, update_commit and reorder_commits refine the shared "
    "session (a person may be editing it in the Segmint TUI at the same time); check_lazygit_messages reads the "
    "person's review comments. The split_my_changes prompt walks through it all."
)


def build_server(
    session: Session | SessionRef,
    *,
    chunk_service: ChunkService | None = None,
    trajectory_service: TrajectoryService | None = None,
    repo: str | None = None,
    allowed_roots: Sequence[str] = (),
) -> MCPServer:
    """The server over ``session`` (or a ``SessionRef`` that opens it on first use).

    Tools taking a path keep to the session's repository and ``allowed_roots``.
    """
    sessions = session if isinstance(session, SessionRef) else SessionRef(session)
    services = Services(
        sessions, chunks=chunk_service, trajectory=trajectory_service, repo=repo, allowed_roots=allowed_roots
    )
    notifier = ResourceNotifier(resources.URIS)
    runtime = Runtime(services, notifier)
    with _no_sdk_logging_setup():
        server = MCPServer(
            NAME, version=__version__, instructions=INSTRUCTIONS, lifespan=runtime.lifespan, subscriptions=notifier.bus
        )
    server.middleware.extend([request_errors, tidy_argument_errors, prompt_errors])
    changes.register(server, services)
    pairing.register(server, services)
    checks.register(server, services)
    chunks.register(server, services, notifier.changed)
    trajectory.register(server, services)
    review.register(server, services)
    history.register(server, services)
    resources.register(server, services)
    prompt.register(server)
    serve_lean_listing(server)
    _serve_2025_subscriptions(server, notifier, services.sessions)
    return server


class Runtime:
    """What runs while the server serves at least one connection."""

    def __init__(self, services: Services, notifier: ResourceNotifier) -> None:
        self.services = services
        self.notifier = notifier
        self._connections = 0
        self._pump: asyncio.Task[None] | None = None
        self._detach: list[Callable[[], None]] = []
        self._lock = threading.Lock()  # the session may open on a worker thread
        services.sessions.on_open = self._attach

    @contextlib.asynccontextmanager
    async def lifespan(self, _server: MCPServer) -> AsyncIterator[dict[str, Any]]:
        with self._lock:
            self._connections += 1
            first = self._connections == 1
        if first:
            self._pump = asyncio.get_running_loop().create_task(self.notifier.run())
            if self.services.sessions.current is not None:
                self._attach(self.services.sessions.current)
        try:
            yield {}
        finally:
            with self._lock:
                self._connections -= 1
                last = self._connections == 0
            if last:
                await self._stop()

    def _attach(self, session: Session) -> None:
        """Turn the session's events into notifications; watch for comments and edits from other processes."""
        with self._lock:
            if self._connections == 0 or self._detach:
                return
            self._detach = [session.subscribe(self._on_event), session.watch_review_messages(), _watch_saves(session)]

    def _on_event(self, event: SessionEvent) -> None:
        uri = resources.MESSAGES_URI if event.kind == events.MESSAGES else resources.SESSION_URI
        self.notifier.changed(uri)

    async def _stop(self) -> None:
        with self._lock:
            detach, self._detach = self._detach, []
        for undo in detach:
            undo()
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
            self._pump = None
        await in_thread(self.services.trajectory.stop)


def _watch_saves(session: Session) -> Callable[[], None]:
    """Take up what other processes save (a TUI's edits, when this server serves the session itself):
    taking it up announces it, so subscribers hear of it. Returns the function that stops the watch."""

    def catch_up() -> None:
        if session.saved_elsewhere():
            try:
                session.catch_up()
            except SegmintError as exc:  # the repository is gone: each tool says so
                log.debug("could not take up the saved session: %s", exc)

    watcher = SignatureWatcher(lambda: file_stamp(session.folder / STATE_FILE), catch_up)
    watcher.start()
    return watcher.stop


def _serve_2025_subscriptions(server: MCPServer, notifier: ResourceNotifier, sessions: SessionRef) -> None:
    """``resources/subscribe`` for clients of the 2025 protocol era, and ``listChanged`` advertised.

    MCPServer serves ``subscriptions/listen`` (the current era) by itself; the
    earlier per-resource subscription needs request handlers on the low-level server.
    """
    lowlevel = server._lowlevel_server

    async def subscribe(ctx: Any, params: SubscribeRequestParams) -> Any:
        # Headless, the session opens in the background; its watch on other
        # processes' comments must run before the client is told it is subscribed,
        # or a comment sent right after would go unannounced.
        with contextlib.suppress(SegmintError):
            await in_thread(sessions.get)
        return await notifier.subscribe(ctx, params)

    lowlevel.add_request_handler("resources/subscribe", SubscribeRequestParams, subscribe)
    lowlevel.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, notifier.unsubscribe)
    options = functools.partial(type(lowlevel).create_initialization_options, lowlevel)
    # On this server only: the SDK's options, with resources' listChanged advertised.
    lowlevel.create_initialization_options = lambda notification_options=None, *args, **kwargs: options(  # type: ignore[method-assign]
        notification_options or NotificationOptions(resources_changed=True), *args, **kwargs
    )


@contextlib.contextmanager
def _no_sdk_logging_setup() -> Iterator[None]:
    """MCPServer() calls ``logging.basicConfig`` with a stderr handler; inside the
    TUI that would print over the screen. The host configures logging, not the SDK."""
    root = logging.getLogger()
    placeholder = logging.NullHandler()
    root.addHandler(placeholder)
    try:
        yield
    finally:
        root.removeHandler(placeholder)


async def serve_streams(server: MCPServer, read_stream: Any, write_stream: Any) -> None:
    """Serve one connection over a pair of message streams (stdio, a relay)."""
    lowlevel = server._lowlevel_server
    await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
