"""Turning Segmint results and errors into MCP ``CallToolResult`` values.

Every tool answers with ``content`` (readable text) and ``structuredContent``
(the data its output schema describes). A ``SegmintError`` becomes an
``isError`` result carrying its own deterministic sentence ("Unknown change
IDs: bad-id"), never the SDK's "Error executing tool ..." prefix; anything
else is a bug: logged with its traceback on stderr, reported in one line.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec

from mcp_types import CallToolResult, TextContent

from segmint_core.errors import SegmintError, disk_trouble
from segmint_core.toolresult import ToolResult
from segmint_core.wording import readable, readable_data

log = logging.getLogger("segmint.mcp")

P = ParamSpec("P")


def success(text: str, data: dict[str, Any]) -> CallToolResult:
    # text holding bytes that are not UTF-8 (a Latin-1 file name) is shown as \xNN: no transport,
    # stdio or the TUI's HTTP, can send it as JSON otherwise
    return CallToolResult(
        content=[TextContent(type="text", text=readable(text))], structured_content=readable_data(data)
    )


MAX_ERROR_CHARS = 1_000  # an error quoting a huge argument back is cut


def failure(message: str) -> CallToolResult:
    if len(message) > MAX_ERROR_CHARS:
        message = message[: MAX_ERROR_CHARS - 1] + "…"
    return CallToolResult(content=[TextContent(type="text", text=readable(message))], is_error=True)


def from_tool_result(result: ToolResult) -> CallToolResult:
    return success(result.text, result.data)


def json_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


def said(sentence: str, data: dict[str, Any]) -> CallToolResult:
    """A sentence for the reader, then the data as JSON (for clients that show text only)."""
    return success(f"{sentence}\n\n{json_text(data)}", data)


def tool_errors(fn: Callable[P, Awaitable[CallToolResult]]) -> Callable[P, Awaitable[CallToolResult]]:
    """Answer a ``SegmintError`` (or a bug) raised by the tool as an ``isError`` result."""

    @functools.wraps(fn)
    async def guarded(*args: P.args, **kwargs: P.kwargs) -> CallToolResult:
        try:
            return await fn(*args, **kwargs)
        except SegmintError as exc:
            return failure(str(exc))
        except Exception as exc:  # a bug: one line in the log, the traceback with SEGMINT_DEBUG=1
            trouble = disk_trouble(exc)  # (a full disk is the machine's trouble: said as it is)
            if trouble:
                return failure(trouble)
            log.error(
                "tool %s failed: %s: %s",
                fn.__name__,
                type(exc).__name__,
                exc,
                exc_info=bool(os.environ.get("SEGMINT_DEBUG")),
            )
            return failure(f"Internal error in {fn.__name__}: {type(exc).__name__} (details are in the server log)")

    guarded.__doc__ = inspect.getdoc(fn)  # the description agents read: no source indentation
    return guarded
