"""The shared session: one per repository, the state both the TUI and the MCP server edit."""

from segmint_core.session.session import Session

__all__ = ["Session"]
