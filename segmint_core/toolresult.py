"""What every Segmint tool returns: readable text and structured data.

Feature services (chunks, trajectory, messages, the session) return these; the
MCP layer turns one into ``content`` (the text) and ``structuredContent`` (the
data), and the CLI prints one or the other. Failures are raised as
``SegmintError`` with a deterministic message, never returned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolResult:
    text: str
    data: dict[str, Any] = field(default_factory=dict)
