"""Segmint core: changes, grouping, planning, apply, session and the MCP server.

This package never imports Textual; the TUI lives in ``segmint_tui``.
"""

__version__ = "0.1.0"
