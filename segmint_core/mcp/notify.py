"""Telling MCP clients that a resource changed.

Session events arrive on whatever thread made the change (a tool's worker
thread, the TUI, the review-message watcher); ``ResourceNotifier.changed``
only marks the resource and wakes a pump on the server's event loop, which
then notifies

- clients of the 2025 era that sent ``resources/subscribe`` for the URI
  (``notifications/resources/updated`` on their connection), and
- current clients (2026-07-28) listening with ``subscriptions/listen``
  (through the SDK's subscription bus).

Bursts coalesce: one notification per resource per wake-up.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Collection
from typing import Any

import anyio
from mcp.server.context import ServerRequestContext
from mcp.server.session import ServerSession
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ResourceUpdated,
    SubscriptionBus,
)
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    EmptyResult,
    SubscribeRequestParams,
    UnsubscribeRequestParams,
)

log = logging.getLogger("segmint.mcp")

SEND_TIMEOUT = 5.0


class ResourceNotifier:
    def __init__(self, uris: Collection[str], bus: SubscriptionBus | None = None) -> None:
        self.uris = frozenset(uris)
        self.bus: SubscriptionBus = bus or InMemorySubscriptionBus()
        # uri -> {connection key: a session on that connection}
        self._subscribers: dict[str, dict[object, ServerSession]] = {uri: {} for uri in self.uris}
        self._dirty: set[str] = set()
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None

    # -- from any thread -----------------------------------------------------------

    def changed(self, *uris: str) -> None:
        """Mark resources as changed; safe from any thread."""
        with self._lock:
            self._dirty.update(u for u in uris if u in self.uris)
            loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and not loop.is_closed():
            loop.call_soon_threadsafe(wake.set)

    # -- 2025-era subscriptions (request handlers) ------------------------------------

    async def subscribe(self, ctx: ServerRequestContext[Any, Any], params: SubscribeRequestParams) -> EmptyResult:
        self._known(params.uri)[_connection_key(ctx.session)] = ctx.session
        return EmptyResult()

    async def unsubscribe(self, ctx: ServerRequestContext[Any, Any], params: UnsubscribeRequestParams) -> EmptyResult:
        self._known(params.uri).pop(_connection_key(ctx.session), None)
        return EmptyResult()

    def subscriber_count(self, uri: str) -> int:
        return len(self._subscribers.get(uri, {}))

    def _known(self, uri: str) -> dict[object, ServerSession]:
        if uri not in self._subscribers:
            raise MCPError(INVALID_PARAMS, f"Unknown resource: {uri}", {"uri": uri})
        return self._subscribers[uri]

    # -- the pump (on the server's loop) --------------------------------------------

    async def run(self) -> None:
        """Deliver changes until cancelled."""
        wake = asyncio.Event()
        with self._lock:
            self._loop, self._wake = asyncio.get_running_loop(), wake
            if self._dirty:
                wake.set()
        try:
            while True:
                await wake.wait()
                wake.clear()
                with self._lock:
                    uris, self._dirty = sorted(self._dirty), set()
                for uri in uris:
                    await self._deliver(uri)
        finally:
            with self._lock:
                self._loop = self._wake = None

    async def _deliver(self, uri: str) -> None:
        await self.bus.publish(ResourceUpdated(uri=uri))
        for key, session in list(self._subscribers[uri].items()):
            try:
                with anyio.fail_after(SEND_TIMEOUT):
                    await session.send_resource_updated(uri)
            except Exception as exc:  # the client went away: forget it
                log.debug("dropping a subscriber of %s: %r", uri, exc)
                self._subscribers[uri].pop(key, None)


def _connection_key(session: ServerSession) -> object:
    # The SDK builds a ServerSession per request; the connection behind it is
    # what a subscription belongs to.
    return getattr(session, "_connection", session)
