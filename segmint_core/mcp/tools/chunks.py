"""The diffchunk tools (seed 002): large diffs, or the working tree, read in chunks."""

from collections.abc import Callable
from typing import Any

from mcp.server import MCPServer

from segmint_core.chunks.service import TOOL_NAMES
from segmint_core.mcp.services import Services
from segmint_core.mcp.tools import READ_ONLY, add_service_tool
from segmint_core.toolresult import ToolResult

CHUNKS_URI = "diffchunk://current"


def register(server: MCPServer, services: Services, changed: Callable[[str], None]) -> None:
    """``changed(uri)`` is told when the set of loaded diffs (``diffchunk://current``) changes."""
    for name in TOOL_NAMES:
        method = getattr(services.chunks, name)

        def call(method: Callable[..., ToolResult] = method, **kwargs: Any) -> ToolResult:
            with services.chunk_lock:   # the chunk store is not built for concurrent calls
                before = services.chunks.current_resource()
                result = method(**kwargs)
                if services.chunks.current_resource() != before:
                    changed(CHUNKS_URI)
            return result

        add_service_tool(server, method, READ_ONLY, call)
