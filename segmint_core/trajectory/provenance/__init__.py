"""Provenance: the task (intent) each line of the work tree was written under.

Capture (``capture``) is called by coding-agent hooks, the TUI, MCP and
``segmint intent``: an intent begins, edits are snapshotted under it, it ends.
Everything is kept under the repository's git dir (``store``), never in the
work tree, the project's index or its refs. The store raises
``DamagedProvenanceError`` (one sentence) when it cannot be read or written.

Only ``capture`` and ``store`` are imported here: a hook process loads this
package for every edit, so the analysis side stays out of its import time.
"""

from segmint_core.trajectory.errors import DamagedProvenanceError
from segmint_core.trajectory.provenance.capture import (
    SOURCES,
    Intent,
    begin_intent,
    current_intent,
    end_intent,
    mark_session,
    record_before_edit,
    record_edit,
)

__all__ = [
    "SOURCES",
    "DamagedProvenanceError",
    "Intent",
    "begin_intent",
    "current_intent",
    "end_intent",
    "mark_session",
    "record_before_edit",
    "record_edit",
]
