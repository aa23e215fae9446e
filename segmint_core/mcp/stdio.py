"""JSON-RPC over stdin and stdout, one message per line: the transport of ``segmint mcp``.

Besides carrying messages, it keeps these promises to clients:

- stdout carries JSON-RPC only. While serving, file descriptor 1 points at
  stderr and 0 at the null device, so stray output (a git hook, a print)
  never reaches the wire, and children cannot eat the client's input.
- Bad input is answered, never dropped: a line that is not JSON gets a
  ``-32700 Parse error``, JSON that is not a JSON-RPC message a ``-32600
  Invalid Request`` (with its id when it has one), a line over ``MAX_LINE``
  bytes a ``-32600`` as well, and so does a request whose id is neither a
  string nor an integer (which the SDK would take for a notification and
  never answer); then the next line is read. No line stops the reader.
- At end of input, requests still being worked on are answered before the
  transport closes (``printf '...' | segmint mcp`` prints every response);
  one the client cancelled gets no answer, so it is not waited for.
- An ``initialize`` without ``clientInfo`` (the lazygit bridge sends
  none) is accepted.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import os
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)
from pydantic_core import PydanticSerializationError

from segmint_core.wording import readable_data

log = logging.getLogger("segmint.mcp")

MAX_LINE = 32 * 1024 * 1024
DRAIN_SECONDS = 30.0
# Requests whose answer is a stream that stays open: never waited for at end of input.
OPEN_ENDED = frozenset({"subscriptions/listen"})
ANONYMOUS_CLIENT = {"name": "unnamed-client", "version": "0"}

ReadStream = MemoryObjectReceiveStream[SessionMessage | Exception]
WriteStream = MemoryObjectSendStream[SessionMessage]


@dataclass
class _Pending:
    """Request ids read but not yet answered."""

    ids: set[object] = field(default_factory=set)
    settled: anyio.Event = field(default_factory=anyio.Event)

    def add(self, request_id: object) -> None:
        self.ids.add(request_id)

    def answered(self, request_id: object) -> None:
        self.ids.discard(request_id)
        if not self.ids:
            self.settled.set()
            self.settled = anyio.Event()

    async def drain(self, timeout: float) -> None:
        with anyio.move_on_after(timeout):
            while self.ids:
                await self.settled.wait()


@asynccontextmanager
async def stdio_transport(
    stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> AsyncIterator[tuple[ReadStream, WriteStream]]:
    """Streams for a server (or a relay) over the process's stdin and stdout.

    Pass binary files to use others (tests); the process's own descriptors
    are then left alone. On exit, what the server has sent is written out
    before the context closes.
    """
    claimed = _claim_std_fds() if stdin is None and stdout is None else None
    wire_in, wire_out = (claimed[0], claimed[1]) if claimed else (stdin, stdout)
    assert wire_in is not None and wire_out is not None
    read_send, read_receive = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    out_send, out_receive = anyio.create_memory_object_stream[SessionMessage | bytes](16)
    lines = _LineReader(wire_in, read_send, out_send.clone(), owned=claimed is not None)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_write_lines, wire_out, out_receive, lines.pending)
            lines.start()
            try:
                yield read_receive, out_send
            finally:
                await lines.stop()
                await out_send.aclose()  # the writer ends once everything queued is written
    finally:
        if claimed:
            _release_std_fds(claimed)


class _LineReader:
    """Reads stdin on a daemon thread (a blocked read must never hold up exit) and hands
    each line to the event loop, where it is parsed and passed on or answered.

    An ``owned`` wire is closed by that thread when it is done with it: closing it from
    another thread would wait for the read under way, that is for the client's next line.
    """

    def __init__(
        self,
        wire: BinaryIO,
        messages: MemoryObjectSendStream[SessionMessage | Exception],
        replies: MemoryObjectSendStream[SessionMessage | bytes],
        *,
        owned: bool = False,
    ) -> None:
        self.wire = wire
        self.owned = owned
        self.messages = messages
        self.replies = replies
        self.pending = _Pending()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._done = anyio.Event()

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        threading.Thread(target=self._run, name="segmint-mcp-stdin", daemon=True).start()

    async def stop(self) -> None:
        await self._close()

    def _run(self) -> None:
        assert self._loop is not None
        try:
            while True:
                line = self.wire.readline(MAX_LINE + 1)
                if len(line) > MAX_LINE and not line.endswith(b"\n"):
                    _skip_rest_of_line(self.wire)
                    line = b"\0too long"
                if not line:
                    break
                asyncio.run_coroutine_threadsafe(self._accept(line), self._loop).result()
            asyncio.run_coroutine_threadsafe(self._end_of_input(), self._loop).result()
        except (RuntimeError, OSError, ValueError, concurrent.futures.CancelledError):
            pass  # the loop or the wire is gone: nothing left to read for
        finally:
            if self.owned:
                _close(self.wire)

    async def _accept(self, line: bytes) -> None:
        if self._done.is_set() or not line.strip():
            return
        try:
            message = _message(line)
        except Exception:  # a defect of ours must not end the reader: the client still gets an answer
            log.exception("could not read a line from the client")
            message = _error(None, INTERNAL_ERROR, "Internal error", "the line could not be read")
        if isinstance(message, bytes):
            await self.replies.send(message)
            return
        if isinstance(message, JSONRPCRequest) and message.method not in OPEN_ENDED:
            self.pending.add(message.id)
            message = _with_client_info(message)
        elif (cancelled := _cancelled_id(message)) is not None:  # it gets no answer: none to wait for
            self.pending.answered(cancelled)
        await self.messages.send(SessionMessage(message))

    async def _end_of_input(self) -> None:
        await self.pending.drain(DRAIN_SECONDS)
        await self._close()

    async def _close(self) -> None:
        if not self._done.is_set():
            self._done.set()
            await self.messages.aclose()
            await self.replies.aclose()


async def _write_lines(
    wire: BinaryIO, outgoing: MemoryObjectReceiveStream[SessionMessage | bytes], pending: _Pending
) -> None:
    """Write each message as one line. Writes are synchronous: a pipe write is short,
    and a client that stops reading should slow the server down, not grow a queue."""
    broken = False
    async with outgoing:
        async for item in outgoing:
            if isinstance(item, SessionMessage):
                message = item.message
                data = _json_line(message)
            else:
                message, data = None, item
            if not broken:
                try:
                    wire.write(data)
                    wire.flush()
                except OSError:  # the client is gone; keep draining so nothing waits on us
                    broken = True
            if isinstance(message, JSONRPCResponse | JSONRPCError):
                pending.answered(message.id)


def _json_line(message: Any) -> bytes:
    try:
        return message.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8") + b"\n"
    except PydanticSerializationError:
        # Text holding bytes that are not UTF-8 (a Latin-1 file name, kept as surrogates): shown as
        # \xNN, as everywhere else, rather than ending the server.
        data = readable_data(message.model_dump(mode="json", by_alias=True, exclude_unset=True))
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def _skip_rest_of_line(wire: BinaryIO) -> None:
    while True:
        chunk = wire.readline(MAX_LINE)
        if not chunk or chunk.endswith(b"\n"):
            return


def _cancelled_id(message: JSONRPCMessage) -> object:
    """The request id a ``notifications/cancelled`` names, or None for any other message."""
    if not isinstance(message, JSONRPCNotification) or message.method != "notifications/cancelled":
        return None
    params = message.params
    return params.get("requestId") if isinstance(params, dict) else None


def _with_client_info(message: JSONRPCRequest) -> JSONRPCRequest:
    """Some clients (lazygit-mcp-bridge) initialize without ``clientInfo``, which the
    protocol requires and the SDK insists on; such an ``initialize`` gets a placeholder."""
    params = message.params
    if message.method != "initialize" or not isinstance(params, dict) or "clientInfo" in params:
        return message
    return message.model_copy(update={"params": {**params, "clientInfo": ANONYMOUS_CLIENT}})


def _message(line: bytes) -> JSONRPCMessage | bytes:
    """The message a line holds, or the error answering a line the SDK cannot take."""
    if line == b"\0too long":
        return _error(None, INVALID_REQUEST, "Invalid Request", f"message over {MAX_LINE} bytes")
    try:
        message = jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError:
        return _bad_line(line)
    if isinstance(message, JSONRPCNotification):
        return _bad_id(line) or message
    return message


def _bad_id(line: bytes) -> bytes | None:
    """A refusal of a request whose id is not a string or an integer: pydantic reads it as a
    notification (the id dropped as an unknown field), which would never be answered."""
    value = json.loads(line)
    if "id" not in value:
        return None
    return _error(
        None,
        INVALID_REQUEST,
        "Invalid Request",
        f"a request id must be a string or an integer, not {_kind(value['id'])}",
    )


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, float):
        return "a number with a fraction or exponent"
    names: dict[type, str] = {dict: "an object", list: "an array"}
    return names.get(type(value), type(value).__name__)


def _bad_line(line: bytes) -> bytes:
    try:
        value = json.loads(line)
    except RecursionError:
        return _error(None, PARSE_ERROR, "Parse error", "the line is nested too deeply to read")
    except ValueError:
        return _error(None, PARSE_ERROR, "Parse error", "the line is not valid JSON")
    request_id = value.get("id") if isinstance(value, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, str | int):
        request_id = None
    return _error(request_id, INVALID_REQUEST, "Invalid Request", "not a JSON-RPC 2.0 message MCP accepts")


def _error(request_id: str | int | None, code: int, message: str, data: str) -> bytes:
    body = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message, "data": data}}
    return json.dumps(body, separators=(",", ":")).encode("utf-8") + b"\n"


# -- keeping stdout for JSON-RPC -------------------------------------------------------


def _claim_std_fds() -> tuple[BinaryIO, BinaryIO, int, int]:
    """Private copies of fd 0 and 1 for the wire; fd 1 then points at stderr, fd 0 at the null device."""
    wire_in_fd, wire_out_fd = os.dup(0), os.dup(1)
    saved_in, saved_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    return os.fdopen(wire_in_fd, "rb"), os.fdopen(wire_out_fd, "wb"), saved_in, saved_out


def _release_std_fds(claimed: tuple[BinaryIO, BinaryIO, int, int]) -> None:
    """Put fd 0 and 1 back and close the wire out; the wire in is the reader thread's to close."""
    _wire_in, wire_out, saved_in, saved_out = claimed
    os.dup2(saved_in, 0)
    os.dup2(saved_out, 1)
    for fd in (saved_in, saved_out):
        os.close(fd)
    _close(wire_out)


def _close(wire: BinaryIO) -> None:
    try:
        wire.close()
    except OSError:
        pass
