"""Diff chunking for agents (after diffchunk): a large diff, or the working
tree, cut into numbered chunks at file and hunk boundaries, to list, search and read.

``ChunkService`` holds one method per MCP tool; the MCP layer registers them.
"""

from segmint_core.chunks.service import RESOURCE_URI, TOOL_NAMES, ChunkService

__all__ = ["RESOURCE_URI", "TOOL_NAMES", "ChunkService"]
