"""What the terminal UI is started with: one value the command line fills in."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TuiOptions:
    repo: str | None = None  # None: the repository containing the current directory
    mcp: bool = True  # serve the embedded MCP server an agent pairs with
    agent_can_commit: bool = False  # a paired agent commits without the person's approval
    allowed_roots: tuple[str, ...] = ()  # real folders the agent's tools may also use
    record_saves: bool = True  # snapshot the person's saves as provenance (segmint_tui.saves)
