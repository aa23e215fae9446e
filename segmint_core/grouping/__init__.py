"""Intent grouping: hunks (split finer where one mixes two intents) clustered by evidence.

Public API (used by the CLI, the session, the MCP server and the TUI):
``group_changes``, ``apply_splits``, ``summarize_group``, ``ChangeGroup``, ``Grouping``.
"""

from segmint_core.grouping.effective import apply_splits
from segmint_core.grouping.embeddings import PROVIDERS
from segmint_core.grouping.engine import (
    describe_group,
    group_changes,
    summarize_group,
)
from segmint_core.grouping.models import ChangeGroup, Grouping

__all__ = [
    "PROVIDERS",
    "ChangeGroup",
    "Grouping",
    "apply_splits",
    "describe_group",
    "group_changes",
    "summarize_group",
]
