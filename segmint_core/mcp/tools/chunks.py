"""The diffchunk tools: large diffs, or the working tree, read in chunks."""

from collections.abc import Callable
from typing import Any

from mcp.server import MCPServer

from segmint_core.chunks.service import TOOL_NAMES
from segmint_core.mcp.services import Services
from segmint_core.mcp.tools import READ_ONLY, Wording, add_service_tool
from segmint_core.toolresult import ToolResult

CHUNKS_URI = "diffchunk://current"

# What an agent reads; the service's docstrings say the same for developers, at length.
WORDING = {
    "load_diff": Wording(
        "Load a diff with custom chunking",
        (
            "Load a diff or patch file (absolute path in the repository, .gz too) or 'working-tree' with "
            "non-default chunking (the other chunk tools load with defaults). skip_trivial: whitespace-only "
            "files; skip_generated: lock files, builds; include_patterns, exclude_patterns: comma-separated globs.\n"
            "Returns {chunks: 3, files: 41, total_lines: 2804, files_excluded: 2, ...}"
        ),
    ),
    "list_chunks": Wording(
        "List the chunks of a large diff",
        (
            "Start here when the changes are too large to read at once: each chunk's files, line and token "
            "counts, and hunk ids for 'working-tree'.\n"
            "Example: absolute_file_path='working-tree'. Returns {chunks: [{chunk: 1, files: ['src/app.py'], "
            "lines: 812, token_count: 6100, hunk_ids: ['change-1:1']}], total_chunks: 3}"
        ),
    ),
    "get_chunk": Wording(
        "Read one chunk of a diff",
        (
            "Read one chunk (from 1, as list_chunks shows) of a diff file or 'working-tree'. "
            "format: 'raw', 'annotated' (new-file line numbers) or 'compact' (new side only).\n"
            "Returns {chunk: 2, content: 'diff --git ...', hunk_ids: [...], total_chunks: 3}"
        ),
    ),
    "find_chunks_for_files": Wording(
        "Find the chunks holding some files",
        (
            "Find the chunks holding files that match a glob (case-insensitive, * crosses /).\nExample: pattern='*test*'. Returns {chunks: [2, 3], files: ['tests/test_app.py']}"
        ),
    ),
    "get_file_diff": Wording(
        "Read one file's whole diff",
        (
            "Read one file's whole diff (its path, or a glob matching only it).\n"
            "Returns {file_path: 'src/app.py', content: 'diff --git ...', chunks: [2], hunk_ids: ['change-1:1']}"
        ),
    ),
    "get_current_overview": Wording(
        "Show the loaded diffs",
        (
            "The loaded diffs (the working tree too), each with its chunk, file and line counts; loads nothing.\nReturns {loaded: true, sessions: [{file_path: 'working-tree', chunks: 3, files: 41, ...}]}"
        ),
    ),
}


def register(server: MCPServer, services: Services, changed: Callable[[str], None]) -> None:
    """``changed(uri)`` is told when the set of loaded diffs (``diffchunk://current``) changes."""
    for name in TOOL_NAMES:
        method = getattr(services.chunks, name)

        def call(method: Callable[..., ToolResult] = method, **kwargs: Any) -> ToolResult:
            with services.chunk_lock:  # the chunk store is not built for concurrent calls
                before = services.chunks.current_resource()
                result = method(**kwargs)
                if services.chunks.current_resource() != before:
                    changed(CHUNKS_URI)
            return result

        add_service_tool(server, method, READ_ONLY, WORDING[name], call)
