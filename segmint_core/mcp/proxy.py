"""``segmint mcp`` joined to a running TUI: stdio on one side, the TUI's endpoint on the other.

Messages are relayed as they are, so the agent talks to the very server the
TUI embeds: same tools, same results, the person's session. The relay only
adds what HTTP needs (the bearer token, the protocol-version header, and for
2026-era requests the method and name headers).

If the TUI goes away while the agent is connected (the relay watches its token
file and process), requests then in flight are answered with an error and the
relay turns into the headless server on the same (persisted) session: it
replays the agent's handshake and resource subscriptions, so the agent carries
on without reconnecting.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterable, Callable, Coroutine
from pathlib import Path
from typing import Any

import anyio
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectSendStream
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.inbound import (
    MCP_METHOD_HEADER,
    MCP_NAME_HEADER,
    MCP_PROTOCOL_VERSION_HEADER,
    NAME_BEARING_METHODS,
)
from mcp.shared.message import ClientMessageMetadata, SessionMessage
from mcp_types import (
    INTERNAL_ERROR,
    PROTOCOL_VERSION_META_KEY,
    ErrorData,
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
)

from segmint_core.mcp.discovery import Endpoint
from segmint_core.mcp.stdio import ReadStream, WriteStream, stdio_transport
from segmint_core.proc import pid_alive

Runner = Callable[[Any, Any], Coroutine[Any, Any, None]]  # serves one connection over (read, write) streams
log = logging.getLogger("segmint.mcp")

REPLAY_ID = "segmint-relay-replay"
WATCH_SECONDS = 0.5
LOST = (
    "The Segmint TUI closed while this request was running; segmint mcp now serves the same session "
    "headless. Try again."
)


class _RemoteLost(Exception):
    pass


class Relay:
    """One agent's connection, relayed to the TUI and, should the TUI go, to a local server."""

    def __init__(self, local_in: ReadStream, local_out: WriteStream) -> None:
        self.local_in = local_in
        self.local_out = local_out
        self.protocol_version: str | None = None
        self.handshake: list[SessionMessage] = []  # initialize + initialized, for a replay
        self.subscriptions: dict[str, SessionMessage] = {}  # uri -> resources/subscribe, for a replay
        self.in_flight: set[Any] = set()
        self.cancelled: set[Any] = set()  # ids the agent cancelled: what HTTP says of them is not passed on
        self._initialize_id: Any = None

    async def run(self, endpoint: Endpoint, headless: Callable[[], Runner]) -> None:
        """Relay to ``endpoint``; if it is lost, to the server ``headless()`` starts."""
        try:
            await self._to_remote(endpoint)
        except _RemoteLost:
            log.warning("the TUI's MCP endpoint is gone; serving the session headless")
            await self._answer_in_flight()
            await self._to_local(headless)

    # -- the TUI ----------------------------------------------------------------------

    async def _to_remote(self, endpoint: Endpoint) -> None:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {endpoint.read_token()}"})
        try:
            async with http, streamable_http_client(endpoint.url, http_client=http) as (remote_in, remote_out):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(self._downstream, remote_in)
                    tg.start_soon(_watch, endpoint)
                    async for item in self.local_in:
                        if isinstance(item, Exception):  # (the stdio reader sends none: the type is the SDK's)
                            continue
                        self._remember(item)
                        await remote_out.send(self._stamped(item))
                    tg.cancel_scope.cancel()
        except _RemoteLost:
            raise
        except Exception as exc:  # connection refused or reset, the transport's task group failing
            if not _contains(exc, _RemoteLost) and not _is_transport_failure(exc):
                raise
            raise _RemoteLost() from exc

    async def _downstream(self, remote_in: AsyncIterable[SessionMessage | Exception]) -> None:
        async for item in remote_in:
            if isinstance(item, Exception):
                log.debug("relay: %r", item)
                continue
            if self._settle(item.message):
                await self.local_out.send(item)
        raise _RemoteLost()  # the endpoint closed the stream: the TUI stopped

    def _stamped(self, item: SessionMessage) -> SessionMessage:
        message = item.message
        headers: dict[str, str] = {}
        params = getattr(message, "params", None) or {}
        version = (params.get("_meta") or {}).get(PROTOCOL_VERSION_META_KEY) if isinstance(params, dict) else None
        if isinstance(message, JSONRPCRequest) and isinstance(version, str):  # 2026 era: headers per request
            headers = {MCP_PROTOCOL_VERSION_HEADER: version, MCP_METHOD_HEADER: message.method}
            name = params.get(NAME_BEARING_METHODS.get(message.method, ""))
            if isinstance(name, str) and name.isascii():
                headers[MCP_NAME_HEADER] = name
        elif self.protocol_version is not None and not _is_initialize(message):
            headers = {MCP_PROTOCOL_VERSION_HEADER: self.protocol_version}
        return SessionMessage(message, metadata=ClientMessageMetadata(headers=headers or None))

    # -- bookkeeping ---------------------------------------------------------------

    def _remember(self, item: SessionMessage) -> None:
        message = item.message
        if isinstance(message, JSONRPCRequest):
            self.in_flight.add(message.id)
            if message.method == "initialize":
                self._initialize_id = message.id
                self.handshake = [item]
            elif message.method == "resources/subscribe" and isinstance(message.params, dict):
                self.subscriptions[str(message.params.get("uri"))] = item
            elif message.method == "resources/unsubscribe" and isinstance(message.params, dict):
                self.subscriptions.pop(str(message.params.get("uri")), None)
        elif isinstance(message, JSONRPCNotification) and message.method == "notifications/initialized":
            self.handshake.append(item)
        elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
            params = message.params if isinstance(message.params, dict) else {}
            if params.get("requestId") in self.in_flight:  # a cancelled request is not answered
                self.in_flight.discard(params["requestId"])
                self.cancelled.add(params["requestId"])

    def _settle(self, message: Any) -> bool:
        """Note an answer; whether the agent is to get it (an answer to a request it cancelled, such as the
        transport's "SSE stream ended without a response", is not)."""
        if isinstance(message, JSONRPCResponse | JSONRPCError):
            if message.id in self.cancelled:
                self.cancelled.discard(message.id)
                return False
            self.in_flight.discard(message.id)
            if message.id == self._initialize_id and isinstance(message, JSONRPCResponse):
                version = message.result.get("protocolVersion")
                self.protocol_version = version if isinstance(version, str) else None
        return True

    async def _answer_in_flight(self) -> None:
        for request_id in sorted(self.in_flight, key=str):
            error = ErrorData(code=INTERNAL_ERROR, message=LOST)
            await self.local_out.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=request_id, error=error)))
        self.in_flight.clear()

    # -- headless, after the TUI is gone ----------------------------------------------

    async def _to_local(self, headless: Callable[[], Runner]) -> None:
        async with anyio.create_task_group() as tg:
            server_in, server_out = _start_local(tg, headless())
            replayed = await self._replay(server_in, server_out)
            tg.start_soon(self._local_downstream, server_out, replayed)
            async for item in self.local_in:
                await server_in.send(item)
            await server_in.aclose()

    async def _replay(self, server_in: MemoryObjectSendStream[SessionMessage], server_out: Any) -> set[Any]:
        """Send the agent's handshake and subscriptions again; their answers are not for the agent."""
        hidden: set[Any] = set()
        for n, item in enumerate([*self.handshake, *self.subscriptions.values()]):
            message = item.message
            if isinstance(message, JSONRPCRequest):
                message = message.model_copy(update={"id": f"{REPLAY_ID}-{n}"})
                hidden.add(message.id)
            await server_in.send(SessionMessage(message))
        return hidden

    async def _local_downstream(self, server_out: Any, hidden: set[Any]) -> None:
        async for item in server_out:
            if isinstance(item, SessionMessage):
                message = item.message
                if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id in hidden:
                    continue
                await self.local_out.send(item)


async def _watch(endpoint: Endpoint) -> None:
    """End the relay once the TUI has stopped (its token file withdrawn, or its process gone), so a
    request the agent sends later is served headless instead of failing as if the TUI closed under it."""
    while Path(endpoint.token_file).exists() and pid_alive(endpoint.pid):
        await anyio.sleep(WATCH_SECONDS)
    raise _RemoteLost()


def _start_local(tg: TaskGroup, run: Runner) -> tuple[Any, Any]:
    """Start a local server in ``tg``; the streams to talk to it."""
    to_server_send, to_server_receive = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    from_server_send, from_server_receive = anyio.create_memory_object_stream[SessionMessage](16)
    tg.start_soon(run, to_server_receive, from_server_send)
    return to_server_send, from_server_receive


async def relay(endpoint: Endpoint, headless: Callable[[], Runner]) -> None:
    """Serve stdio by relaying to ``endpoint`` (falling back to ``headless``'s server)."""
    async with stdio_transport() as (local_in, local_out):
        await Relay(local_in, local_out).run(endpoint, headless)


def _is_initialize(message: Any) -> bool:
    return isinstance(message, JSONRPCRequest) and message.method == "initialize"


def _contains(exc: BaseException, kind: type[BaseException]) -> bool:
    if isinstance(exc, kind):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return any(_contains(e, kind) for e in exc.exceptions)
    return False


def _is_transport_failure(exc: BaseException) -> bool:
    import httpx2

    return _contains(exc, httpx2.TransportError) or _contains(exc, OSError) or _contains(exc, anyio.EndOfStream)
